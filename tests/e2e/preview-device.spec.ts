import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { driveApi, openDrive, row, waitForServiceWorker } from './drive-helpers';
import { signIn } from './helpers';
import { createDriveUser } from './users';

// Needs the service worker (offline reloads, Background Sync, the device's copies).
test.use({ serviceWorkers: 'allow' });

/*
 * Thumbnails and the copies kept on the device (issue 5): jpg/png/gif/mp4 rows show a
 * thumbnail, lazily and never in the recycle bin; thumbnails and recently opened files open
 * with no network.
 */

const png = (w: number, h: number, color: string) =>
  sharp({ create: { width: w, height: h, channels: 3, background: color } })
    .png()
    .toBuffer();

test('thumbnails show in the list and grid, not in the bin, and stay offline', async ({
  page,
  request,
  context,
}) => {
  const user = await createDriveUser(request, { prefix: 'thumb' });
  const api = driveApi(request, user.token);
  await api.put('/', '展品.png', await png(640, 480, '#b03a2e'));
  await api.put('/', '说明.txt', Buffer.from('展品说明'));
  await api.put('/', '待删.png', await png(200, 200, '#1f618d'));

  await signIn(page, user.account, user.password);
  await waitForServiceWorker(page);
  await openDrive(page);

  const thumb = row(page, '展品.png').getByTestId('file-thumb');
  await expect(thumb).toBeVisible();
  // A real decoded image, not a broken one.
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(row(page, '说明.txt').getByTestId('file-thumb')).toHaveCount(0);
  await expect(row(page, '说明.txt').getByTestId('file-icon')).toBeVisible();

  // The grid shows them too.
  await page.getByTestId('view-grid-80').click();
  await expect(page.locator('[data-testid="file-thumb"]')).toHaveCount(2);
  await page.getByTestId('view-list').click();

  // Offline: the thumbnails come from the device.
  await context.setOffline(true);
  await page.reload();
  await expect(row(page, '展品.png').getByTestId('file-thumb')).toBeVisible();
  await context.setOffline(false);

  // The recycle bin shows icons only.
  const gone = await api.find('/', '待删');
  const del = await api.post('/file/deletefile', { userFileId: gone.userFileId });
  expect(del.success, del.message).toBe(true);
  await openDrive(page, '/resources/collection-depot?fileType=6');
  await expect(row(page, '待删.png')).toBeVisible();
  await expect(row(page, '待删.png').getByTestId('file-thumb')).toHaveCount(0);
});

test('recently opened files open offline; one never opened says so', async ({ page, request, context }) => {
  const user = await createDriveUser(request, { prefix: 'copy' });
  const api = driveApi(request, user.token);
  await api.put('/', '库房记录.txt', Buffer.from('三号库房 温度 18℃ 湿度 55%'));
  await api.put('/', '从未打开.txt', Buffer.from('不会被保存到本机'));
  await api.put('/', '库房照片.png', await png(320, 240, '#117a65'));

  await signIn(page, user.account, user.password);
  await waitForServiceWorker(page);
  await openDrive(page);
  const dialog = page.getByTestId('code-dialog');
  await row(page, '库房记录.txt').dblclick();
  await expect(dialog.getByTestId('code-editor')).toContainText('三号库房 温度 18℃');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  const image = page.getByTestId('image-current');
  const deviceNote = page.getByTestId('device-copy-note');
  await row(page, '库房照片.png').dblclick();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  // The server's bytes: nothing to say.
  await expect(deviceNote).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(image).toBeHidden();

  await context.setOffline(true);
  await page.reload();
  await row(page, '库房照片.png').dblclick();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  // The device's copy, and the viewer says so.
  await expect(deviceNote).toHaveText('离线查看：本机保存的副本');
  await page.keyboard.press('Escape');
  await expect(image).toBeHidden();
  await row(page, '库房记录.txt').dblclick();
  await expect(dialog.getByTestId('code-editor')).toContainText('三号库房 温度 18℃ 湿度 55%');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await row(page, '从未打开.txt').dblclick();
  await expect(dialog.getByRole('alert')).toContainText('此文件未保存在本机');
});
