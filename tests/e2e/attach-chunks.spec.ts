import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

/*
 * The app's attachment upload in chunks (issue 8): a file over one chunk (2,048,000 bytes) goes
 * through attach/chunk one chunk at a time; a chunk whose request fails on the network is tried
 * again (up to 3 times), and the assembled attachment downloads byte for byte. The fault is the
 * network's (the request is aborted before it reaches our server), never a fake server.
 */
test('a 5 MB attachment goes in chunks, survives a failed chunk, and downloads intact', async ({ page }) => {
  const size = 5_000_000;
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + 3) % 256;

  let chunks = 0;
  let failed = false;
  let last: { result?: { done?: boolean; attachment?: { attPath: string } } } = {};
  let single = 0;
  await page.route('**/singleMuseum/attach/chunk', async (route) => {
    chunks++;
    // The second request (chunk 2, first try) is lost on the way: the client must try again.
    if (chunks === 2 && !failed) {
      failed = true;
      await route.abort('connectionreset');
      return;
    }
    // Passed on to our server as it is; its answer is read for the attachment's URL.
    const response = await route.fetch();
    const body = await response.text();
    last = JSON.parse(body) as typeof last;
    await route.fulfill({ response, body });
  });
  await page.route('**/singleMuseum/attach/upload', async (route) => {
    single++;
    await route.continue();
  });

  await signIn(page, 'admin');
  await page.goto('/approve/info-publish');
  await page.getByRole('button', { name: '新建' }).click();
  const dialog = page.getByRole('dialog', { name: '新建通知公告' });
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: '上传附件' }).click();
  await (
    await chooser
  ).setFiles({ name: '藏品档案.bin', mimeType: 'application/octet-stream', buffer: bytes });
  const item = dialog.getByTestId('announce-attachment').filter({ hasText: '藏品档案.bin' });
  await expect(item).toBeVisible({ timeout: 30_000 });

  // 3 chunks, one of them sent twice; the single-call upload was not used.
  expect(failed).toBe(true);
  expect(chunks).toBe(4);
  expect(single).toBe(0);

  expect(last.result?.done).toBe(true);
  const res = await page.request.get(last.result!.attachment!.attPath);
  expect(Buffer.from(await res.body()).equals(bytes)).toBe(true);
});
