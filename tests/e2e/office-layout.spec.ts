import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD, signIn } from './helpers';
import { signInApi } from './users';

/*
 * What staff meet in the office pages at tablet and phone size (issue 17 §5): an announcement
 * is saved as a draft or published from its editor, and a colleague's workbench card follows
 * live; leave is asked for by the half day, and attendance counts the halves. Screenshots of
 * each size are kept under test-results/e2e/.
 */

const TABLET = { width: 1024, height: 768 };
const PHONE = { width: 390, height: 844 };

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

async function museumCall(request: APIRequestContext, token: string, path: string, data?: unknown) {
  const res = await request.fetch(`/singleMuseum${path}`, {
    method: data === undefined ? 'GET' : 'POST',
    headers: { token },
    data,
  });
  const body = (await res.json()) as { success: boolean; message: string; result: any };
  expect(body.success, `${path}: ${body.message}`).toBe(true);
  return body.result;
}

test('信息发布: 保存草稿 and 发布 side by side, each says what it did; a reader’s workbench card follows live', async ({
  page,
  browser,
}) => {
  const stamp = Date.now().toString(36);
  const draftTitle = `展厅灯光调整（草稿）${stamp}`;
  const liveTitle = `库房开放时间调整 ${stamp}`;

  // 赵磊 (典藏部) keeps his workbench open on a phone.
  const context = await browser.newContext({ locale: 'zh-CN', timezoneId: 'Asia/Shanghai', viewport: PHONE });
  const reader = await context.newPage();
  await signIn(reader, 'staff03');
  const card = reader.getByTestId('latest-announcements');
  await expect(card).toBeVisible();

  await page.setViewportSize(TABLET);
  await signIn(page, 'admin');
  await page.goto('/approve/info-publish');
  const write = async (title: string) => {
    await page.getByRole('button', { name: '新建' }).click();
    const dialog = page.getByRole('dialog', { name: '新建通知公告' });
    await dialog.getByRole('textbox', { name: '标题' }).fill(title);
    await dialog.locator('.ProseMirror').click();
    await page.keyboard.type('下周一起库房开放时间调整为 9:00–16:00。');
    return dialog;
  };

  // 保存草稿 and 发布 sit side by side at the foot of the editor.
  let dialog = await write(draftTitle);
  const draftButton = dialog.getByRole('button', { name: '保存草稿' });
  const publishButton = dialog.getByRole('button', { name: '发布' });
  const [a, b] = [(await draftButton.boundingBox())!, (await publishButton.boundingBox())!];
  expect(Math.abs(a.y - b.y)).toBeLessThan(2);
  expect(a.x).toBeLessThan(b.x);
  await shot(page, 'tablet-announce-editor');
  await draftButton.click();
  await expect(page.getByText('已保存为草稿，尚未发布，同事还看不到')).toBeVisible();
  await expect(page.getByTestId('announce-row').filter({ hasText: draftTitle })).toContainText('草稿');

  // 发布 from the editor: published, and the toast says to how many.
  dialog = await write(liveTitle);
  await dialog.getByRole('button', { name: '发布' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/^已发布，已通知 \d+ 人$/)).toBeVisible();
  await expect(page.getByTestId('announce-row').filter({ hasText: liveTitle })).toContainText('已发布');

  // The reader did nothing: the live stream brought it, the draft never came.
  await expect(card).toContainText(liveTitle, { timeout: 5000 });
  await expect(card).not.toContainText(draftTitle);
  await shot(reader, 'phone-workbench-live');

  // Withdrawn: it leaves the card just as live.
  const row = page.getByTestId('announce-row').filter({ hasText: liveTitle });
  await row.getByRole('button', { name: '撤回' }).click();
  await page.getByRole('dialog', { name: '撤回通知' }).getByRole('button', { name: '撤回' }).click();
  await expect(card).not.toContainText(liveTitle, { timeout: 5000 });
  await context.close();
});

test('请假 by the half day on a phone; the approver sees the halves; 个人考勤 counts them by month', async ({
  page,
  request,
}) => {
  // 陈静 (典藏部) asks on her phone; 赵磊, her superior, decides.
  await page.setViewportSize(PHONE);
  await signIn(page, 'staff04');
  await page.goto('/approve/start-approve');
  await page.getByTestId('start-template').filter({ hasText: '请假' }).click();
  await expect(page.getByRole('heading', { name: '发起：请假' })).toBeVisible();
  await page.getByRole('radio', { name: '事假' }).check();
  await page.getByLabel('请假时间开始').fill('2032-05-31');
  await page.getByLabel('请假时间结束').fill('2032-06-01');
  await expect(page.getByTestId('duration-period')).toHaveText('时长：2 天');
  // The afternoon of the 31st to the morning of the 1st: one day.
  await page.getByTestId('half-period-start').getByText('下午').click();
  await expect(page.getByTestId('duration-period')).toHaveText('时长：1.5 天');
  await page.getByTestId('half-period-end').getByText('上午').click();
  await expect(page.getByTestId('duration-period')).toHaveText('时长：1 天');
  await expect(page.getByRole('radiogroup', { name: '请假时间的开始：上午或下午' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await shot(page, 'phone-leave-half-days');
  await page.getByLabel('请假事由').fill('办理签证');
  await page.getByTestId('start-submit').click();
  await expect(page.getByText('提交成功')).toBeVisible();

  const staff03 = await signInApi(request, 'staff03', DEMO_PASSWORD);
  const pending: { list: { actvityId: number; title: string }[] } = await museumCall(
    request,
    staff03.token,
    '/workflowInst/list?state=pending&pageCount=50',
  );
  const mine = pending.list.find((r) => r.title === '陈静的请假')!;
  const detail = await museumCall(request, staff03.token, '/workflowInst/data', {
    actvityId: mine.actvityId,
  });
  expect(detail.fields).toContainEqual(
    expect.objectContaining({ value: '2032-05-31 下午 至 2032-06-01 上午（1天）' }),
  );
  await museumCall(request, staff03.token, '/workflowInst/approval', {
    actvityId: mine.actvityId,
    action: 2,
  });

  // Half a day in May, half in June.
  await page.setViewportSize(TABLET);
  await page.goto('/approve/view-person?month=2032-05');
  await expect(page.getByTestId('attendance-total-leave')).toContainText('0.5天');
  await expect(page.getByTestId('attendance-requests')).toContainText('2032-05-31 下午 至 2032-06-01 上午');
  await shot(page, 'tablet-attendance-half-days');
  await page.goto('/approve/view-person?month=2032-06');
  await expect(page.getByTestId('attendance-total-leave')).toContainText('0.5天');
});
