import { expect, test, type Browser, type Page } from '@playwright/test';
import { formatMuseumTime } from '../../src/shared/drive/share-rules';
import { signIn } from './helpers';
import { driveApi, openDrive, row, type DriveApi } from './drive-helpers';
import { png } from './media-fixtures';
import { createDriveUser, type TestUser } from './users';

/*
 * Sharing by link (issue 6 "Tests", end to end): the share dialog on the drive, the public
 * share page in a fresh browser (no session), saving into a second person's drive, expired,
 * revoked and unknown links, 我的分享, and the share page at phone width. Every person here is
 * made for the test (createDriveUser), so other specs' drives stay as they expect.
 */

interface Shared {
  shareBatchNum: string;
  extractionCode: string | null;
  endTime: string;
}

const TEXT = '展品说明：青铜器，西周。\n第二行';

async function shareByApi(api: DriveApi, ids: number[], opts: { endTime?: string; code?: boolean } = {}) {
  const r = await api.post<Shared>('/share/sharefile', {
    files: ids.map((userFileId) => ({ userFileId })),
    endTime: opts.endTime ?? formatMuseumTime(Date.now() + 86_400_000),
    shareType: opts.code === false ? 0 : 1,
    remarks: '',
  });
  expect(r.success, r.message).toBe(true);
  return r.data!;
}

/** A person with a folder 展览资料 holding a text file and an image. */
async function withFiles(request: Parameters<typeof createDriveUser>[0]) {
  const user = await createDriveUser(request, { prefix: 'shr' });
  const api = driveApi(request, user.token);
  await api.mkdir('/', '展览资料');
  await api.put('/展览资料/', '说明.txt', Buffer.from(TEXT));
  await api.put('/展览资料/', '青铜器.png', await png(64, 48, '#8a5a2b'));
  const folder = await api.find('/', '展览资料');
  return { user, api, folder };
}

async function signInAs(page: Page, user: TestUser) {
  await signIn(page, user.account, user.password);
}

/** A fresh browser context: no session, no grant cookie, as a visitor opening a link. */
async function visitor(browser: Browser, viewport = { width: 1024, height: 768 }) {
  const context = await browser.newContext({ viewport, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  return { context, page: await context.newPage() };
}

async function clipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

test('share with a code from the drive; a visitor enters it, browses, previews, downloads and saves', async ({
  page,
  browser,
  request,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { user } = await withFiles(request);
  const saver = await createDriveUser(request, { prefix: 'shs' });
  await signInAs(page, user);
  await openDrive(page);

  await row(page, '展览资料').click({ button: 'right' });
  await page.getByTestId('context-menu').getByRole('menuitem', { name: '分享', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '分享文件' });
  expect(Math.round((await dialog.boundingBox())!.width)).toBe(550);
  // Expiry is required (spec §5), in the spec's words.
  await dialog.getByRole('button', { name: '创建分享链接' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('请选择链接有效期');
  await dialog.getByRole('group', { name: '快捷选择' }).getByText('7天', { exact: true }).click();
  await expect(dialog.getByTestId('share-end-time')).toContainText(
    formatMuseumTime(Date.now() + 7 * 86_400_000).slice(0, 10),
  );
  await dialog.getByLabel('备注').fill('展览筹备用');
  await dialog.getByRole('button', { name: '创建分享链接' }).click();

  const link = await dialog.getByTestId('share-link').inputValue();
  const code = await dialog.getByTestId('share-code').inputValue();
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/share\/[\w-]+$/);
  expect(code).toMatch(/^[a-z2-9]{6}$/);
  await dialog.getByRole('button', { name: '复制链接' }).click();
  await expect(page.getByText('复制成功！')).toBeVisible();
  const copied = await clipboard(page);
  expect(copied).toContain(`分享链接：${link}`);
  expect(copied).toContain(`提取码：${code}`);
  expect(copied).toContain('输入提取码');
  await dialog.getByTestId('share-done').getByRole('button', { name: '关闭' }).click();
  await expect(dialog).toBeHidden();

  // A visitor in a fresh browser: the code prompt, a wrong code with the attempts left.
  const v = await visitor(browser);
  await v.page.goto(link);
  const prompt = v.page.getByTestId('share-code-prompt');
  await expect(prompt).toBeVisible();
  await expect(v.page.getByTestId('share-meta')).toContainText('分享的文件');
  const wrong = code === 'zzzzzz' ? 'yyyyyy' : 'zzzzzz';
  await v.page.getByTestId('share-code-input').locator('input').first().click();
  await v.page.keyboard.type(wrong);
  await expect(v.page.getByTestId('share-code-error')).toHaveText(/提取码错误，还可尝试 \d+ 次/);
  await v.page.getByTestId('share-code-input').locator('input').first().click();
  await v.page.keyboard.type(code.toUpperCase()); // codes are typed in any case
  await expect(v.page.getByTestId('share-remarks')).toContainText('展览筹备用');
  await expect(row(v.page, '展览资料')).toBeVisible();

  // The share page's menu (spec §5 with shareRoute): no delete, copy, move, rename, share.
  await row(v.page, '展览资料').click({ button: 'right' });
  // Waits for the menu to open: reading its entries at once raced the right-click under load.
  await expect(v.page.getByTestId('context-menu').getByRole('menuitem')).toHaveText([
    '打开',
    '下载',
    '文件详情',
    '保存到我的网盘',
  ]);
  await v.page.keyboard.press('Escape');

  // Browse into the folder: the breadcrumb is inside the share.
  await row(v.page, '展览资料').dblclick();
  await expect(v.page.getByTestId('breadcrumb')).toContainText('全部文件');
  await expect(v.page.getByTestId('breadcrumb')).toContainText('展览资料');
  await expect(v.page).toHaveURL(/path=/);
  await expect(row(v.page, '说明.txt')).toBeVisible();

  // Preview: text read-only (no save), then the image.
  await row(v.page, '说明.txt').dblclick();
  const code0 = v.page.getByTestId('code-dialog');
  await expect(code0.locator('.cm-content')).toContainText('展品说明：青铜器，西周。');
  await expect(code0.getByTestId('editor-save')).toHaveCount(0);
  await v.page.keyboard.press('Escape');
  await expect(code0).toBeHidden();
  await row(v.page, '青铜器.png').dblclick();
  const img = v.page.getByTestId('image-current');
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(64);
  await v.page.keyboard.press('Escape');

  // Details read through the share: the image's size, and nothing of the sharer's folders.
  const detailRead = v.page.waitForResponse(
    (r) => r.url().includes('/wangpan/file/detail?') && r.url().includes('shareBatchNum='),
  );
  await row(v.page, '青铜器.png').click({ button: 'right' });
  await v.page.getByTestId('context-menu').getByRole('menuitem', { name: '文件详情' }).click();
  const answer = await (await detailRead).json();
  expect(answer).toMatchObject({ success: true, data: { imageWidth: 64, imageHeight: 48, filePath: '/' } });
  const details = v.page.getByRole('dialog', { name: '文件详情' });
  await expect(details.getByTestId('detail-table')).toContainText('64 × 48');
  await expect(details).not.toContainText('/展览资料/');
  await v.page.keyboard.press('Escape');
  await expect(details).toBeHidden();

  // Download: the bytes the sharer stored.
  const wait = v.page.waitForEvent('download');
  await row(v.page, '说明.txt').click({ button: 'right' });
  await v.page.getByTestId('context-menu').getByRole('menuitem', { name: '下载', exact: true }).click();
  const download = await wait;
  const file = await download.path();
  const fs = await import('node:fs');
  expect(fs.readFileSync(file, 'utf8')).toBe(TEXT);

  // 保存到我的网盘 needs sign-in: to /login and back, then the folder tree, 保存成功.
  await v.page.getByTestId('breadcrumb').getByRole('button', { name: '全部文件' }).click();
  await expect(row(v.page, '展览资料')).toBeVisible();
  await v.page.locator('[data-action="share-save"]').click();
  await expect(v.page).toHaveURL(/\/login\?redirect=/);
  await v.page.getByLabel('账号或手机号').fill(saver.account);
  await v.page.getByLabel('密码', { exact: true }).fill(saver.password);
  await v.page.getByRole('button', { name: '登 录' }).click();
  await expect(v.page).toHaveURL(/\/share\//);
  await expect(row(v.page, '展览资料')).toBeVisible();
  await v.page.locator('[data-action="share-save"]').click();
  const save = v.page.getByRole('dialog', { name: '保存到我的网盘' });
  await expect(save.locator('[data-testid="tree-node"][data-path="/"]')).toBeVisible();
  await expect(save.getByTestId('save-target')).toHaveText('全部文件');
  await save.getByRole('button', { name: '保存到此处' }).click();
  await expect(v.page.getByText('保存成功')).toBeVisible();
  await expect(save).toBeHidden();
  const saverApi = driveApi(request, saver.token);
  expect(await saverApi.names('/')).toContain('展览资料');
  expect(await saverApi.names('/展览资料/')).toEqual(['说明.txt', '青铜器.png'].sort());
  await v.context.close();
});

test('expired, revoked and unknown links each say so', async ({ browser, request }) => {
  const { api, folder } = await withFiles(request);
  const revoked = await shareByApi(api, [folder.userFileId]);
  const r = await api.post('/share/cancelshare', { shareBatchNums: [revoked.shareBatchNum] });
  expect(r.success, r.message).toBe(true);

  const v = await visitor(browser);
  await v.page.goto(`/share/${revoked.shareBatchNum}`);
  await expect(v.page.getByTestId('share-gone')).toContainText('该分享已被取消');
  await v.page.goto('/share/no-such-share');
  await expect(v.page.getByTestId('share-gone')).toContainText('分享链接不存在或已失效');
  // The end time passes: the link that opened a moment ago is expired. Made just before it is
  // opened, with room for a slow page load: made first, with 8 s, it had expired before its
  // first visit on a loaded CI machine.
  const soon = await shareByApi(api, [folder.userFileId], { endTime: formatMuseumTime(Date.now() + 12_000) });
  await v.page.goto(`/share/${soon.shareBatchNum}`);
  await expect(v.page.getByTestId('share-code-prompt')).toBeVisible();
  const left = Date.parse(`${soon.endTime.replace(' ', 'T')}+08:00`) - Date.now();
  await v.page.waitForTimeout(Math.max(0, left + 500));
  await v.page.reload();
  await expect(v.page.getByTestId('share-gone')).toContainText('分享已过期');
  await expect(v.page.getByTestId('share-code-prompt')).toHaveCount(0);
  await v.context.close();
});

test('my shares: copy the link again, details of a share, revoke with its item count', async ({
  page,
  context,
  request,
  browser,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { user, api, folder } = await withFiles(request);
  const text = await api.put('/', '清单.txt', Buffer.from('清单'));
  const shared = await shareByApi(api, [folder.userFileId, text.userFileId]);
  await signInAs(page, user);
  await page.goto('/resources/my-share?fileType=8');
  const rows = page.getByTestId('my-share-row');
  await expect(rows).toHaveCount(2);
  const first = rows.filter({ hasText: '展览资料' });
  await expect(first.getByTestId('my-share-type')).toHaveText('私密');

  await first.locator('[data-action="copyLink"]').click();
  await expect(page.getByText('复制成功！')).toBeVisible();
  const copied = await clipboard(page);
  expect(copied).toContain(`/share/${shared.shareBatchNum}`);
  expect(copied).toContain(`提取码：${shared.extractionCode}`);

  await first.locator('[data-action="detail"]').click();
  const detail = page.getByRole('dialog', { name: '文件详情' });
  const table = detail.getByTestId('detail-table');
  await expect(table).toContainText('分享类型私密');
  await expect(table).toContainText('分享时间');
  await expect(table).toContainText(`有效期至${shared.endTime}`);
  // fileType 8 hides the path and the modified date (spec §2.1).
  await expect(table).not.toContainText('修改时间');
  await expect(table).not.toContainText('位置');
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();

  await first.locator('[data-action="cancelShare"]').click();
  const confirm = page.getByRole('dialog', { name: '取消分享' });
  await expect(confirm).toContainText('共 2 项');
  await confirm.getByRole('button', { name: '取消分享' }).click();
  await expect(page.getByText('已取消分享')).toBeVisible();
  await expect(rows).toHaveCount(0);

  const v = await visitor(browser);
  await v.page.goto(`/share/${shared.shareBatchNum}`);
  await expect(v.page.getByTestId('share-gone')).toContainText('该分享已被取消');
  await v.context.close();
});

test('a share without a code is sent to a colleague; the share page works at phone width', async ({
  page,
  browser,
  request,
}) => {
  const { user } = await withFiles(request);
  await signInAs(page, user);
  await openDrive(page);
  await row(page, '展览资料').click();
  await page.locator('[data-action="batch-share"]').click();
  const dialog = page.getByRole('dialog', { name: '分享文件' });
  await dialog.getByRole('group', { name: '快捷选择' }).getByText('今天', { exact: true }).click();
  await dialog.getByTestId('share-kind').getByText('无提取码').click();
  await dialog.getByRole('button', { name: '创建分享链接' }).click();
  await expect(dialog.getByTestId('share-code')).toHaveCount(0);
  const link = await dialog.getByTestId('share-link').inputValue();
  expect(link).toContain('/share/');

  // Sending needs someone chosen; then the colleague found by name gets the notice.
  const send = dialog.getByTestId('share-send');
  await send.locator('[data-action="share-send"]').click();
  await expect(send.getByText('请选择接收人')).toBeVisible();
  const sent = page.waitForRequest((r) => r.url().includes('/notice/shareFileToUsers'));
  await send.getByLabel('接收人').fill('王芳');
  await page.getByRole('option', { name: /王芳/ }).click();
  // The picker stays open for more names; a click beside it closes it.
  await send.getByText('对方会在通知中收到分享链接').click();
  await send.locator('[data-action="share-send"]').click();
  const body = (await sent).postDataJSON() as { noticeContent: string; receiver: number[] };
  expect(body.noticeContent).toContain(link);
  expect(body.noticeContent).not.toContain('提取码');
  expect(body.receiver).toHaveLength(1);
  await expect(send.getByTestId('share-sent')).toHaveText('已发送给 1 人');
  await dialog.getByTestId('share-done').getByRole('button', { name: '关闭' }).click();

  // A phone: no code asked, the list fits the width, the folder opens.
  const v = await visitor(browser, { width: 375, height: 740 });
  await v.page.goto(link);
  await expect(v.page.getByTestId('share-code-prompt')).toHaveCount(0);
  await expect(row(v.page, '展览资料')).toBeVisible();
  expect(await v.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await row(v.page, '展览资料').click({ button: 'right' });
  await v.page.getByTestId('context-menu').getByRole('menuitem', { name: '打开', exact: true }).click();
  await expect(row(v.page, '说明.txt')).toBeVisible();
  await v.context.close();
});

test('the share dialog at phone width puts labels above the fields', async ({ page, request }) => {
  const { user } = await withFiles(request);
  await page.setViewportSize({ width: 500, height: 800 });
  await signInAs(page, user);
  await openDrive(page);
  await row(page, '展览资料').click({ button: 'right' });
  await page.getByTestId('context-menu').getByRole('menuitem', { name: '分享', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '分享文件' });
  const field = dialog.getByTestId('share-field').first();
  const label = (await field.locator(':scope > label').boundingBox())!;
  const input = (await dialog.getByTestId('share-end-time').boundingBox())!;
  expect(input.y).toBeGreaterThan(label.y + label.height - 1);
  await page.setViewportSize({ width: 1024, height: 768 });
  const label2 = (await field.locator(':scope > label').boundingBox())!;
  const input2 = (await dialog.getByTestId('share-end-time').boundingBox())!;
  expect(input2.x).toBeGreaterThan(label2.x + label2.width - 1);
});
