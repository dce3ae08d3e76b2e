import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { driveApi, waitForServiceWorker } from './drive-helpers';
import { signIn } from './helpers';
import { freePort, serverProcess } from './server-process';
import {
  chunksAcked,
  countChunks,
  expectSameBytes,
  freshDrive,
  keptFiles,
  openPanel,
  setKeepBudget,
  slowChunks,
  sourceFile,
  startHeldUpload,
  uploadItem,
} from './upload-helpers';
import { createDriveUser } from './users';

// Needs the service worker: offline reloads, Background Sync and the device's copies.
test.use({ serviceWorkers: 'allow' });

/**
 * Uploads that outlive the network, the page or the server (issue 4), in real Chromium against
 * the real server; the online journeys are in upload.spec.ts.
 */

test('offline mid-upload waits with 等待网络 and finishes when the network returns', async ({
  page,
  request,
  context,
}) => {
  const { user, api } = await freshDrive(page, request);
  const src = sourceFile('库房视频.mp4', 8 * 1024 * 1024 + 99);
  // What reached the server: attempts made while offline never left the device.
  const chunks = await startHeldUpload(page, src.path, 400, 2);
  await context.setOffline(true);
  await expect(uploadItem(page, src.name).getByTestId('upload-status')).toHaveText('等待网络');
  await page.waitForTimeout(1000);
  await context.setOffline(false);
  await expect(uploadItem(page, src.name)).toHaveAttribute('data-state', 'success', { timeout: 30_000 });
  // 9 chunks; at most the three in flight when the network went are sent again.
  expect(chunks.get(src.name)).toBeLessThanOrEqual(9 + 3);
  await expectSameBytes(request, api, user.token, '/', src);
});

test('reload mid-upload resumes from the server’s chunk list, not from zero', async ({ page, request }) => {
  const { user, api } = await freshDrive(page, request);
  // From an installed app, as staff use it: a first install precaches the whole app once the
  // page has settled (lib/sw-register.ts), and a reload a second or two in landed in the middle
  // of it (once, on a loaded machine, the resumed item did not show within 30 s).
  await waitForServiceWorker(page);
  const src = sourceFile('高清扫描.tif', 10 * 1024 * 1024 + 5);
  await slowChunks(page, 400);
  await openPanel(page);
  const acked = chunksAcked(page, 4);
  await page.getByTestId('upload-input-files').setInputFiles(src.path);
  await acked;
  // The bytes were kept on the device (OPFS) while the budget allows.
  await expect(page.getByTestId('upload-keep')).toContainText('10.0 MB');
  await page.reload();
  const after = countChunks(page);
  await slowChunks(page, 50);
  await expect(uploadItem(page, src.name)).toHaveAttribute('data-state', 'success', { timeout: 30_000 });
  // 11 chunks; at least 4 were on the server before the reload.
  expect(after.get(src.name) ?? 0).toBeLessThanOrEqual(11 - 4);
  await expectSameBytes(request, api, user.token, '/', src);
  // The kept copy is freed once the server has the file.
  await expect(page.getByTestId('upload-keep')).toContainText('0 B');
  await expect.poll(() => keptFiles(page)).toBe(0);
});

test('bytes not kept on the device: after a reload the item asks for the file, then resumes', async ({
  page,
  request,
}) => {
  const { user, api } = await freshDrive(page, request);
  await waitForServiceWorker(page); // as in the test above
  const src = sourceFile('修复记录.docx', 6 * 1024 * 1024 + 1);
  const other = sourceFile('修复记录.docx', 6 * 1024 * 1024 + 1, 'other');
  await openPanel(page);
  await setKeepBudget(page, '不暂存');
  await slowChunks(page, 400);
  const acked = chunksAcked(page, 3);
  await page.getByTestId('upload-input-files').setInputFiles(src.path);
  await acked;
  await page.reload();
  const item = uploadItem(page, src.name);
  await expect(item.getByTestId('upload-status')).toHaveText('请重新选择文件以继续');
  // Another file of the same name and size is refused once its MD5 differs.
  await page
    .getByTestId('upload-input-reselect')
    .setInputFiles(other.path)
    .catch(() => undefined);
  await item.getByRole('button', { name: /重新选择文件/ }).click();
  await page.getByTestId('upload-input-reselect').setInputFiles(other.path);
  await expect(item.getByTestId('upload-status')).toContainText('所选文件与原文件不一致');
  const after = countChunks(page);
  await item.getByRole('button', { name: /重新选择文件/ }).click();
  await page.getByTestId('upload-input-reselect').setInputFiles(src.path);
  await expect(item).toHaveAttribute('data-state', 'success', { timeout: 30_000 });
  expect(after.get(src.name) ?? 0).toBeLessThanOrEqual(7 - 3);
  await expectSameBytes(request, api, user.token, '/', src);
});

test('a server restart mid-upload: the upload waits, then resumes where it was', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const port = await freePort();
  const dataDir = path.resolve(`.tmp/e2e-restart-${port}`);
  const server = serverProcess({ port, dataDir });
  await server.start();
  const request = await playwright.request.newContext({ baseURL: server.baseURL });
  const context = await browser.newContext({ baseURL: server.baseURL });
  try {
    const user = await createDriveUser(request, { prefix: 'rs', server: server.baseURL });
    const page = await context.newPage();
    await signIn(page, user.account, user.password);
    await page.goto('/resources/net-disk?fileType=0');
    const src = sourceFile('重启续传.mp4', 8 * 1024 * 1024 + 1);
    const chunks = await startHeldUpload(page, src.path, 300, 3);
    await server.stop();
    // Retries run out while the server is away: the item waits rather than fails.
    await expect(uploadItem(page, src.name).getByTestId('upload-status')).toHaveText('等待网络', {
      timeout: 30_000,
    });
    await server.start();
    await expect(uploadItem(page, src.name)).toHaveAttribute('data-state', 'success', { timeout: 45_000 });
    // 9 chunks; the server received at most the three in flight when it stopped again.
    expect(chunks.get(src.name)).toBeLessThanOrEqual(9 + 3);
    const api = driveApi(request, user.token);
    await expectSameBytes(request, api, user.token, '/', src);
  } finally {
    await context.close();
    await request.dispose();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
