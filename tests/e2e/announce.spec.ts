import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

/*
 * Notice publishing (issue 7 "信息发布", end to end): an administrator writes an announcement
 * with a heading, an attachment and the audience 典藏部, and publishes it from its full page
 * (/staff/info-publish/detail, where a draft shows as readers will see it); 赵磊 (典藏部) finds
 * it on the workbench and in 通知公告, reads it with the heading rendered and a typed script
 * shown as text, and downloads the attachment.
 */

test('publish to 典藏部; a member reads it, sees the heading, the script as text, and downloads the file', async ({
  page,
  browser,
}) => {
  const title = `库房盘点通知 ${Date.now().toString(36)}`;
  const typed = '<script>window.__pwned = 1</script>请各位按时到岗';
  const fileText = '盘点清单：青铜器 12 件';

  await signIn(page, 'admin');
  await page.goto('/approve/info-publish');
  await page.getByRole('button', { name: '新建' }).click();
  const dialog = page.getByRole('dialog', { name: '新建通知公告' });
  await dialog.getByRole('textbox', { name: '标题' }).fill(title);

  // The body: a heading, then a paragraph with text that looks like a script.
  const body = dialog.locator('.ProseMirror');
  await body.click();
  await dialog.getByRole('button', { name: '二级标题' }).click();
  await page.keyboard.type('闭馆安排');
  await page.keyboard.press('Enter');
  await page.keyboard.type(typed);

  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: '上传附件' }).click();
  await (
    await chooser
  ).setFiles({ name: '盘点清单.txt', mimeType: 'text/plain', buffer: Buffer.from(fileText) });
  await expect(dialog.getByTestId('announce-attachment')).toContainText('盘点清单.txt');

  await dialog.getByText('按部门').click();
  await dialog.getByRole('combobox', { name: '发布部门' }).click();
  await page.getByRole('option', { name: '博物馆 / 典藏部' }).click();
  // The department list stays open for more picks and can lie over 保存 (a CI run clicked the
  // list for 30 s); a click on the title closes it, as a person would.
  await dialog.getByRole('heading', { name: '新建通知公告' }).click();
  await expect(page.getByRole('option', { name: '博物馆 / 典藏部' })).toBeHidden();
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId('announce-row').filter({ hasText: title });
  await expect(row).toContainText('草稿');
  await expect(row).toContainText('典藏部');
  // 查看 opens the publishers' full page: the draft as readers will see it, its state and
  // audience, and 发布 from there; back on 信息发布 the row says it went out.
  await row.getByRole('button', { name: '查看' }).click();
  await expect(page).toHaveURL(/\/staff\/info-publish\/detail\?id=\d+/);
  const bar = page.getByTestId('publisher-bar');
  await expect(bar).toContainText('草稿');
  await expect(bar).toContainText('发布范围：典藏部');
  await expect(page.getByRole('heading', { name: '闭馆安排' })).toBeVisible();
  await bar.getByRole('button', { name: '发布' }).click();
  await page.getByRole('dialog', { name: '发布通知' }).getByRole('button', { name: '发布' }).click();
  await expect(bar).toContainText('已发布');
  await expect(bar.getByRole('button', { name: '撤回' })).toBeVisible();
  await page.getByRole('link', { name: '返回信息发布' }).click();
  await expect(row).toContainText('已发布');

  // 赵磊, a member of 典藏部, in his own browser.
  const context = await browser.newContext({ locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  const reader = await context.newPage();
  await signIn(reader, 'staff03');
  await reader.goto('/home/workbench');
  await expect(reader.getByTestId('latest-announcements')).toContainText(title);
  await reader.getByTestId('latest-announcements').getByRole('link', { name: '更多' }).click();
  await expect(reader).toHaveURL(/\/home\/notice-list/);
  await reader.getByLabel('按标题搜索').fill('库房盘点');
  await reader.getByTestId('notice-row').filter({ hasText: title }).click();

  const detail = reader.getByTestId('notice-detail');
  await expect(detail.getByTestId('announce-title')).toHaveText(title);
  await expect(detail.getByRole('heading', { name: '闭馆安排', level: 2 })).toBeVisible();
  await expect(detail.getByTestId('announce-body')).toContainText(typed);
  expect(await detail.getByTestId('announce-body').locator('script').count()).toBe(0);
  expect(await reader.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

  const download = reader.waitForEvent('download');
  await detail.getByRole('link', { name: '下载 盘点清单.txt' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('盘点清单.txt');
  const { readFile } = await import('node:fs/promises');
  expect(await readFile((await file.path())!, 'utf8')).toBe(fileText);

  await reader.getByRole('link', { name: '返回通知公告' }).click();
  await expect(reader).toHaveURL(/\/home\/notice-list/);
  await context.close();
});
