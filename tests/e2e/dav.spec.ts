import { expect, test } from '@playwright/test';
import { contextAction, openDrive, row } from './drive-helpers';
import { signIn } from './helpers';
import { png } from './media-fixtures';
import { createDriveUser } from './users';

/*
 * Issue 26, the journey: a person makes an app password on 个人中心 (shown once), a WebDAV client
 * PUTs a photo with it, the photo is in the web app's listing with its thumbnail, a rename in the
 * web app is what the client finds next, and revoking the password shuts the client out.
 * The rules are API tests (tests/server/dav*.test.ts).
 */

test('a photo PUT over WebDAV shows in the drive with its thumbnail, and a web rename is seen over WebDAV', async ({
  page,
  request,
  baseURL,
}) => {
  const user = await createDriveUser(request, { prefix: 'dav' });
  await signIn(page, user.account, user.password);

  // 个人中心: the address and user name, each with a copy button, then a new app password, shown
  // once. What the copy buttons put on the clipboard is what the client is given below.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await page.goto('/personal/base');
  const card = page.getByTestId('dav-card');
  await expect(card.getByTestId('dav-address')).toHaveText(`${baseURL}/dav/`);
  await expect(card.getByTestId('dav-username')).toHaveText(user.account);
  await card.getByRole('button', { name: '复制WebDAV 地址' }).click();
  await expect.poll(clipboard).toBe(`${baseURL}/dav/`);
  const address = await clipboard();
  await expect(card.getByTestId('app-passwords-empty')).toHaveText('还没有应用密码');
  await card.getByRole('button', { name: '新建应用密码' }).click();
  const dialog = page.getByRole('dialog', { name: '新建应用密码' });
  await dialog.getByLabel('名称').fill('办公室电脑');
  await dialog.getByLabel('登录密码').fill(user.password);
  await dialog.getByRole('button', { name: '创建' }).click();
  const made = page.getByRole('dialog', { name: '应用密码已创建' });
  await made.getByRole('button', { name: '复制应用密码' }).click();
  await expect.poll(clipboard).toMatch(/^([a-z2-9]{4}-){5}[a-z2-9]{4}$/);
  const appPassword = await clipboard();
  await expect(made.getByTestId('made-password')).toHaveText(appPassword);
  await made.getByRole('button', { name: '我已复制，关闭' }).click();
  await expect(card.getByTestId('app-passwords')).toContainText('办公室电脑');
  await expect(card.getByTestId('app-passwords')).toContainText('从未使用');
  await expect(page.getByText(appPassword)).toHaveCount(0);

  // A WebDAV client (here: plain HTTP requests, as Explorer or Finder send them) puts a photo.
  const auth = `Basic ${Buffer.from(`${user.account}:${appPassword}`).toString('base64')}`;
  const personal = `${address}${encodeURIComponent('我的网盘')}/`;
  const put = await request.fetch(`${personal}${encodeURIComponent('库房照片.png')}`, {
    method: 'PUT',
    headers: { authorization: auth, 'content-type': 'image/png' },
    data: await png(800, 600, '#8e5b3c'),
  });
  expect(put.status()).toBe(201);

  await openDrive(page);
  const thumb = row(page, '库房照片.png').getByTestId('file-thumb');
  await expect(thumb).toBeVisible();
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // Renamed in the web app…
  await contextAction(page, '库房照片.png', '重命名');
  const rename = page.getByRole('dialog', { name: '重命名文件' });
  await rename.getByLabel('文件名称').fill('库房照片（修复后）.png');
  await rename.getByRole('button', { name: '确定' }).click();
  await expect(row(page, '库房照片（修复后）.png')).toBeVisible();

  // …and found under its new name over WebDAV (once the web app's write reached the server), the
  // old name gone.
  const listing = async () => {
    const list = await request.fetch(personal, {
      method: 'PROPFIND',
      headers: { authorization: auth, depth: '1' },
    });
    expect(list.status()).toBe(207);
    return [...(await list.text()).matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((m) =>
      decodeURIComponent(m[1]!),
    );
  };
  await expect.poll(listing).toEqual(['/dav/我的网盘/', '/dav/我的网盘/库房照片（修复后）.png']);
  const got = await request.fetch(`${personal}${encodeURIComponent('库房照片（修复后）.png')}`, {
    headers: { authorization: auth },
  });
  expect(got.status()).toBe(200);

  // Revoked on 个人中心: the client is out at once.
  await page.goto('/personal/base');
  await expect(card.getByTestId('app-passwords')).not.toContainText('从未使用');
  await card.getByRole('button', { name: '撤销' }).click();
  await page.getByRole('dialog', { name: '撤销应用密码' }).getByRole('button', { name: '撤销' }).click();
  await expect(page.getByText('应用密码已撤销')).toBeVisible();
  const after = await request.fetch(personal, {
    method: 'PROPFIND',
    headers: { authorization: auth, depth: '0' },
  });
  expect(after.status()).toBe(401);
});
