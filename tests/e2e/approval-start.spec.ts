import { expect, test, type Page } from '@playwright/test';
import { signIn, tokenOf } from './helpers';

/*
 * 发起审批 (issue 8), end to end with the demo museum's seeded templates: 王芳 (staff02) starts
 * 请假 with a date range whose duration shows as she picks it, sees the Chinese problems of a
 * bad form on its fields, and keeps her draft when she leaves the page; then 报销 with an
 * amount and an uploaded receipt, kept through an offline spell, lands in 我发起的.
 */

interface Row {
  actvityId: number;
  title: string;
  priority: number;
  status: number;
}

async function mystart(page: Page): Promise<Row[]> {
  const res = await page.request.get('/singleMuseum/workflowInst/list?state=mystart&pageCount=100', {
    headers: { token: await tokenOf(page) },
  });
  const body = (await res.json()) as { success: boolean; result: { list: Row[] } };
  expect(body.success).toBe(true);
  return body.result.list;
}

async function openTemplate(page: Page, name: string) {
  await page.goto('/approve/start-approve');
  await page.getByTestId('start-template').filter({ hasText: name }).click();
  await expect(page.getByRole('heading', { name: `发起：${name}` })).toBeVisible();
}

test('请假: duration shown live, Chinese errors on the fields, the draft kept, then submitted', async ({
  page,
}) => {
  await signIn(page, 'staff02');
  await page.goto('/approve/start-approve');
  // Grouped as the seed groups them, each template with its name.
  const groups = page.getByTestId('start-group');
  await expect(groups.filter({ hasText: '人事' })).toContainText('请假');
  await expect(groups.filter({ hasText: '财务' })).toContainText('报销');
  await openTemplate(page, '请假');

  // An empty form: every required field says what is missing.
  await page.getByTestId('start-submit').click();
  await expect(page.getByTestId('start-failure')).toHaveText('请按红色提示修改后再提交');
  await expect(page.getByText('请填写“请假类型”')).toBeVisible();
  await expect(page.getByText('请填写“请假时间”')).toBeVisible();
  await expect(page.getByText('请填写“请假事由”')).toBeVisible();

  // An end before the start: the duration cannot be computed and the field says why.
  await page.getByLabel('请假时间开始').fill('2026-12-05');
  await page.getByLabel('请假时间结束').fill('2026-12-01');
  await expect(page.getByTestId('duration-period')).toHaveText('结束时间不能早于开始时间');
  await expect(page.getByText('“请假时间”的结束时间不能早于开始时间')).toBeVisible();
  await page.getByLabel('请假时间开始').fill('2026-12-01');
  await page.getByLabel('请假时间结束').fill('2026-12-05');
  await expect(page.getByTestId('duration-period')).toHaveText('时长：5 天');
  await expect(page.getByText('请填写“请假时间”')).toBeHidden();
  await page.getByRole('radio', { name: '年假' }).check();

  // Leaving the page and coming back keeps what was typed.
  await page.goto('/home/workbench');
  await openTemplate(page, '请假');
  await expect(page.getByLabel('请假时间结束')).toHaveValue('2026-12-05');
  await expect(page.getByRole('radio', { name: '年假' })).toBeChecked();
  await expect(page.getByTestId('duration-period')).toHaveText('时长：5 天');

  // A phone: the form fits 390 px without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('start-submit')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1024, height: 768 });

  await page.getByLabel('请假事由').fill('陪同家人就医');
  await page.getByTestId('start-priority').getByText('紧急', { exact: true }).click();
  await page.getByTestId('start-submit').click();
  await expect(page.getByText('提交成功')).toBeVisible();
  await expect(page).toHaveURL(/\/approve\/process-mystart\?state=mystart/);

  const mine = await mystart(page);
  const leave = mine.find((r) => r.title === '王芳的请假');
  expect(leave).toMatchObject({ priority: 2, status: 1 });
  // Started: the draft is gone.
  await openTemplate(page, '请假');
  await expect(page.getByLabel('请假时间开始')).toHaveValue('');
});

test('报销: a bad amount refused, a receipt uploaded (one removed), kept offline, then submitted', async ({
  page,
  context,
}) => {
  await signIn(page, 'staff02');
  const before = (await mystart(page)).filter((r) => r.title === '王芳的报销').length;
  await openTemplate(page, '报销');

  const amount = page.getByLabel('报销金额（元）');
  // Typing keeps at most 2 decimals; a negative amount is refused in the shared words.
  await amount.fill('12.345');
  await expect(amount).toHaveValue('12.34');
  await amount.fill('-5');
  await page.getByTestId('start-submit').click();
  await expect(page.getByText('“报销金额（元）”不能小于 0')).toBeVisible();
  await amount.fill('6000');
  await page.getByLabel('报销事由').fill('布展材料采购');

  const upload = async (name: string, text: string) => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('field-invoices').getByRole('button', { name: '上传附件' }).click();
    await (await chooser).setFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
    await expect(page.getByTestId('approval-attachment').filter({ hasText: name })).toBeVisible();
  };
  await upload('发票.txt', '发票 6000 元');
  await upload('多余.txt', '传错了');
  await page.getByRole('button', { name: '移除 多余.txt' }).click();
  await expect(page.getByTestId('approval-attachment')).toHaveCount(1);

  // Offline: a clear note, submit waits, nothing typed is lost.
  await context.setOffline(true);
  await expect(page.getByTestId('start-offline')).toContainText('当前离线，暂不能提交审批');
  await expect(page.getByTestId('start-submit')).toBeDisabled();
  await expect(amount).toHaveValue('6000');
  await context.setOffline(false);
  await expect(page.getByTestId('start-offline')).toBeHidden();

  await page.getByTestId('start-submit').click();
  await expect(page.getByText('提交成功')).toBeVisible();
  await expect(page).toHaveURL(/\/approve\/process-mystart\?state=mystart/);

  const mine = (await mystart(page)).filter((r) => r.title === '王芳的报销');
  expect(mine).toHaveLength(before + 1);
  const res = await page.request.post('/singleMuseum/workflowInst/data', {
    headers: { token: await tokenOf(page) },
    data: { actvityId: mine[0]!.actvityId },
  });
  const detail = (await res.json()) as { result: { fields: { label: string; value: string }[] } };
  const value = (label: string) => detail.result.fields.find((f) => f.label === label)?.value;
  expect(value('报销金额（元）')).toBe('6000.00元');
  expect(value('票据')).toBe('1 个附件');
});

test('报销: cancelling a chunked attachment upload drops it on the server at once', async ({ page }) => {
  await signIn(page, 'staff02');
  await openTemplate(page, '报销');
  // The first chunk goes through; the next waits, so the upload is caught running.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  let posts = 0;
  await page.route('**/singleMuseum/attach/chunk', async (route) => {
    if (route.request().method() !== 'POST' || ++posts === 1) return route.continue();
    await held;
    await route.abort();
  });
  const name = '展陈方案.bin';
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('field-invoices').getByRole('button', { name: '上传附件' }).click();
  await (
    await chooser
  ).setFiles({
    name,
    mimeType: 'application/octet-stream',
    buffer: Buffer.alloc(3 * 1024 * 1024, 7),
  });
  const running = page.getByTestId('approval-uploading').filter({ hasText: name });
  await expect(running).toBeVisible();
  await expect.poll(() => posts).toBe(2);
  const drop = page.waitForResponse(
    (r) => r.url().includes('/singleMuseum/attach/chunk') && r.request().method() === 'DELETE',
  );
  await page.getByRole('button', { name: `取消上传 ${name}` }).click();
  await expect(running).toHaveCount(0);
  const answer = await drop;
  expect(((await answer.json()) as { result: unknown }).result).toEqual({ cancelled: true });
  // Nothing of it is left on the server.
  const uploadId = new URL(answer.url()).searchParams.get('uploadId')!;
  const status = await page.request.get(`/singleMuseum/attach/chunk?uploadId=${uploadId}`, {
    headers: { token: await tokenOf(page) },
  });
  expect(((await status.json()) as { result: unknown }).result).toEqual({ done: false, uploaded: [] });
  release();
  await expect(page.getByTestId('approval-attachment')).toHaveCount(0);
});
