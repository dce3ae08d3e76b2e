import { expect, test, type Page } from '@playwright/test';
import { signIn, tokenOf } from './helpers';

/*
 * 公文 can be started (issue 17 §4), end to end on the demo museum: 刘洋 (staff05, 陈列部's
 * head, who has the 公文 menu) finds 发文 under 公文 in 发起审批, gets the 文号 refused in
 * Chinese until it reads 机关代字〔年份〕序号号, uploads the 正文 and submits; the 发文 is in
 * 公文 → 我发起的 and 公文列表. Then the administrator marks a normal template as 公文 in
 * 审批设置 (基础设置 → 类别), and 发起审批 shows it under 公文.
 */

const M = '/singleMuseum';

async function api(page: Page, method: 'GET' | 'POST', path: string, data?: unknown) {
  const headers = { token: await tokenOf(page) };
  const res =
    method === 'GET'
      ? await page.request.get(M + path, { headers })
      : await page.request.post(M + path, { headers, data });
  const body = (await res.json()) as { success: boolean; message: string; result: any };
  expect(body.success, `${path}: ${body.message}`).toBe(true);
  return body.result;
}

test('staff start a 发文 from 发起审批: 文号 checked, 正文 uploaded, listed under 公文', async ({ page }) => {
  await signIn(page, 'staff05');
  await page.goto('/approve/start-approve');
  const gongwen = page.getByTestId('start-group-gongwen');
  await expect(gongwen).toContainText('公文');
  for (const name of ['发文', '收文', '签报']) await expect(gongwen).toContainText(name);
  // The 普通审批 stay in their own groups.
  await expect(gongwen).not.toContainText('请假');
  await gongwen.getByTestId('start-template').filter({ hasText: '发文' }).click();
  await expect(page.getByRole('heading', { name: '发起：发文' })).toBeVisible();

  const docNo = page.getByRole('textbox', { name: '文号', exact: true });
  await expect(docNo).toHaveAttribute('placeholder', '例如 馆办发〔2026〕12号');
  // No year in brackets: the field says how to write it.
  await docNo.fill('陈列发2026年3号');
  const title = `关于“丝路遗珍”特展布展安排的通知 ${Date.now() % 100000}`;
  await page.getByRole('textbox', { name: '标题', exact: true }).fill(title);
  await page.getByRole('radio', { name: '内部' }).check();
  await page.getByRole('textbox', { name: '主送', exact: true }).fill('馆内各部门');
  await page.getByTestId('start-submit').click();
  await expect(page.getByTestId('start-failure')).toHaveText('请按红色提示修改后再提交');
  const docNoMessage = '“文号”应写成 机关代字〔年份〕序号号，例如 馆办发〔2026〕12号（序号不加 0）';
  await expect(page.getByText(docNoMessage)).toBeVisible();
  await expect(page.getByText('请填写“正文”')).toBeVisible();

  // The brackets an input method gives are fine; the server keeps 〔〕.
  await docNo.fill('陈列发[2026]3号');
  await expect(page.getByText(docNoMessage)).toBeHidden();
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('field-body').getByRole('button', { name: '上传附件' }).click();
  await (
    await chooser
  ).setFiles({
    name: '布展通知.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('各部门：特展布展安排如下。'),
  });
  await expect(page.getByTestId('approval-attachment').filter({ hasText: '布展通知.txt' })).toBeVisible();
  await expect(page.getByText('请填写“正文”')).toBeHidden();

  await page.getByTestId('start-submit').click();
  await expect(page.getByText('提交成功')).toBeVisible();
  // 刘洋 has the 公文 menu: the 公文 我发起的 opens, with the new 发文.
  await expect(page).toHaveURL(/\/gongwen\/process-mystart/);
  const row = page.getByTestId('process-row').filter({ hasText: '刘洋的发文' }).first();
  await expect(row).toBeVisible({ timeout: 15_000 });

  await page.goto('/gongwen/process-list');
  await expect(page.getByTestId('process-row').filter({ hasText: '刘洋的发文' }).first()).toBeVisible({
    timeout: 15_000,
  });
  // What was stored is the 文号 as printed on the document.
  const mine = (await api(page, 'GET', '/workflowInst/list?state=mystart&category=gongwen&pageCount=100'))
    .list as { actvityId: number; title: string }[];
  const detail = await api(page, 'POST', '/workflowInst/data', { actvityId: mine[0]!.actvityId });
  const fields = detail.fields as { label: string; value: string }[];
  expect(fields.find((f) => f.label === '文号')?.value).toBe('陈列发〔2026〕3号');
  expect(fields.find((f) => f.label === '标题')?.value).toBe(title);
});

test('the administrator marks a template as 公文 in 审批设置; 发起审批 shows it under 公文', async ({
  page,
}) => {
  await signIn(page, 'admin');
  // A published normal template of our own, so no other spec's template changes category.
  const trip = ((await api(page, 'GET', '/workflowTemplate/list')) as { id: number; name: string }[]).find(
    (t) => t.name === '出差',
  )!;
  const { definition } = await api(page, 'GET', `/workflowTemplate/detail?id=${trip.id}`);
  const name = `外事接待${Date.now() % 100000}`;
  const { id } = await api(page, 'POST', '/workflowTemplate/save', {
    name,
    icon: 'users',
    groupName: '行政',
    category: 'normal',
    definition,
  });
  await api(page, 'POST', '/workflowTemplate/publish', { id });

  await page.goto('/approve/start-approve');
  await expect(page.getByTestId('start-group').filter({ hasText: '行政' })).toContainText(name);
  await expect(page.getByTestId('start-group-gongwen')).not.toContainText(name);

  await page.goto('/approve/dispose?pageType=setting');
  await page.getByRole('button', { name: `编辑 ${name}` }).click();
  const category = page.getByTestId('template-category');
  await expect(category.getByRole('radio', { name: '普通审批' })).toBeChecked();
  await category.getByRole('radio', { name: '公文' }).check();
  await page.getByRole('button', { name: '保存草稿' }).click();
  await expect(page.getByText('已保存草稿')).toBeVisible();
  await page.getByRole('button', { name: '返回审批列表' }).click();
  await expect(page.getByTestId('template-row').filter({ hasText: name })).toContainText('公文');

  // No new publish needed: the category is the template's, not a version's.
  await page.goto('/approve/start-approve');
  const gongwen = page.getByTestId('start-group-gongwen');
  await expect(gongwen).toContainText(name, { timeout: 15_000 });
  await expect(page.getByTestId('start-group').filter({ hasText: '行政' })).not.toContainText(name);
  await gongwen.getByTestId('start-template').filter({ hasText: name }).click();
  await expect(page.getByRole('heading', { name: `发起：${name}` })).toBeVisible();
});
