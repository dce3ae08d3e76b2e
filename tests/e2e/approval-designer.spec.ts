import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { closePersonPages, DEMO_PASSWORD, personPage, signIn, tokenOf } from './helpers';
import { signInApi } from './users';

/*
 * 审批设置 and the workflow designer (issue 8), end to end: an administrator opens 报销, adds a
 * condition router after its flow, gives branch 1 (金额 > 5000) a named approver (吴昊) and a
 * copy-to (孙悦), sees the red marks before the targets are chosen, is refused on publishing the
 * incomplete flow with the problems listed, fixes it and publishes. The published definition is
 * then read back through the API, and 王芳 starts a 6,000 元 request whose planned approvers
 * include 吴昊.
 */

// The story test at the end continues from the flow the first test publishes.
test.describe.configure({ mode: 'serial' });
// Each person's browser goes when their test ends (helpers.ts, personPage).
test.afterEach(closePersonPages);

async function api<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  data?: unknown,
) {
  const res = await request.fetch(`/singleMuseum${path}`, { method, headers: { token }, data });
  const body = (await res.json()) as { success: boolean; message: string; result: T };
  expect(body.success, `${method} ${path}: ${body.message}`).toBe(true);
  return body.result;
}

const node = (page: Page, path: string) => page.locator(`[data-testid="designer-node"][data-path="${path}"]`);
const addAt = async (page: Page, path: string, kind: '审批人' | '抄送人' | '条件分支') => {
  await page.locator(`[data-testid="designer-add"][data-path="${path}"]`).click();
  await page.getByRole('menuitem', { name: kind }).click();
  // A closing menu stays in the DOM for its transition; the next add must not see two.
  await expect(page.getByRole('menu')).toHaveCount(0);
};
const openNode = (page: Page, path: string) => node(page, path).getByRole('button').last().click();
async function pick(page: Page, dialogName: string, who: string) {
  const picker = page.getByRole('dialog', { name: dialogName });
  await picker.getByRole('textbox', { name: '搜索名称' }).fill(who);
  await picker.getByRole('checkbox', { name: new RegExp(who) }).check();
  await picker.getByRole('button', { name: '确定' }).click();
  await expect(picker).toBeHidden();
}

test('admin adds an amount branch with a named approver and a copy-to to 报销, publishes; a 6,000 元 request plans it', async ({
  page,
  request,
}) => {
  await signIn(page, 'admin');
  await page.goto('/approve/dispose?pageType=setting');
  await page.getByRole('button', { name: '编辑 报销' }).click();
  await page.getByRole('tab', { name: '流程设计' }).click();

  // 报销 is 直接主管 (child), then the seeded amount router (child.child); add ours after its join.
  const router = 'child.child.child';
  await addAt(page, 'child.child', '条件分支');
  await expect(node(page, `${router}.0`)).toHaveAttribute('data-error', 'true');
  await expect(node(page, `${router}.1`)).toContainText('其他条件进入此流程');
  await addAt(page, `${router}.0`, '审批人');
  const approver = `${router}.0.child`;
  await expect(node(page, approver)).toHaveAttribute('data-error', 'true');
  await expect(node(page, approver)).toContainText('请选择审批人');
  await addAt(page, approver, '抄送人');
  const copy = `${approver}.child`;
  await expect(node(page, copy)).toHaveAttribute('data-error', 'true');

  // Publishing the incomplete flow is refused with the problems, node by node.
  await page.getByRole('button', { name: '发布' }).click();
  const problems = page.getByTestId('publish-problems');
  await expect(problems).toContainText('流程设置不完整，无法发布');
  await expect(problems).toContainText('条件1：请设置条件');
  await expect(problems).toContainText('审批人：请选择审批人');
  await expect(problems).toContainText('抄送人：请选择抄送人');

  // The condition: 报销金额 > 5000 (the amount input keeps only what a number may be).
  await openNode(page, `${router}.0`);
  const cond = page.getByRole('dialog', { name: '条件设置' });
  await cond.getByRole('button', { name: '添加条件' }).click();
  await page.getByRole('menuitem', { name: '报销金额（元）' }).click();
  await cond.getByRole('textbox', { name: '数值' }).fill('5千000');
  await expect(cond.getByRole('textbox', { name: '数值' })).toHaveValue('5000');
  await cond.getByRole('button', { name: '确定' }).click();
  await expect(node(page, `${router}.0`)).toHaveAttribute('data-error', 'false');
  await expect(node(page, `${router}.0`)).toContainText('报销金额（元） > 5000元');

  // The approver: a blank name falls back on blur; 吴昊 by name.
  await openNode(page, approver);
  const drawer = page.getByRole('dialog', { name: '审批人设置' });
  await drawer.getByRole('textbox', { name: '节点名称' }).fill('');
  await drawer.getByRole('textbox', { name: '节点名称' }).blur();
  await expect(drawer.getByRole('textbox', { name: '节点名称' })).toHaveValue('审批人');
  await drawer.getByRole('button', { name: '选择成员' }).click();
  await pick(page, '选择成员', '吴昊');
  await drawer.getByRole('button', { name: '确定' }).click();
  await expect(node(page, approver)).toHaveAttribute('data-error', 'false');
  await expect(node(page, approver)).toContainText('吴昊');

  await openNode(page, copy);
  const copyDrawer = page.getByRole('dialog', { name: '抄送人设置' });
  await copyDrawer.getByRole('button', { name: '选择抄送人' }).click();
  await pick(page, '选择抄送人', '孙悦');
  await copyDrawer.getByRole('button', { name: '确定' }).click();
  await expect(node(page, copy)).toContainText('孙悦（审批通过后通知）');

  await page.getByRole('button', { name: '发布' }).click();
  await expect(page.getByText('发布成功（版本 2）')).toBeVisible();
  await expect(problems).toBeHidden();
  // The refetches the publish triggers never surface as errors.
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: '错误' })).toHaveCount(0);

  // Through the API: the published draft has our branch.
  const token = await tokenOf(page);
  const list = await api<{ id: number; name: string; version: number }[]>(
    request,
    token,
    'GET',
    '/workflowTemplate/list',
  );
  const expense = list.find((t) => t.name === '报销')!;
  expect(expense.version).toBe(2);
  const detail = await api<{ definition: { nodeConfig: unknown } }>(
    request,
    token,
    'GET',
    `/workflowTemplate/detail?id=${expense.id}`,
  );
  const ours = (
    detail.definition.nodeConfig as { childNode: { childNode: { childNode: Record<string, unknown> } } }
  ).childNode.childNode.childNode as {
    type: number;
    conditionNodes: {
      conditionList: { columnId: string; optType: number; zdy1: string }[];
      childNode: {
        nodeUserList: { name: string }[];
        childNode: { type: number; nodeUserList: { name: string }[] };
      };
    }[];
  };
  expect(ours.type).toBe(4);
  expect(ours.conditionNodes[0]!.conditionList).toMatchObject([
    { columnId: 'amount', optType: 1, zdy1: '5000' },
  ]);
  expect(ours.conditionNodes[0]!.childNode.nodeUserList.map((u) => u.name)).toEqual(['吴昊']);
  expect(ours.conditionNodes[0]!.childNode.childNode.type).toBe(2);

  // 王芳 asks for 6,000 元: the planned approvers include 吴昊, and 孙悦 is on the copy list.
  const staff = await signInApi(request, 'staff02', DEMO_PASSWORD);
  const { actvityId } = await api<{ actvityId: number }>(
    request,
    staff.token,
    'POST',
    '/workflowInst/start',
    {
      templateId: expense.id,
      form: { amount: 6000, reason: '文物修复耗材' },
    },
  );
  const data = await api<{ approval: { type: number; nodeUserList: { name: string }[] }[] }>(
    request,
    staff.token,
    'POST',
    '/workflowInst/data',
    { actvityId },
  );
  const approvers = data.approval
    .filter((a) => a.type === 1)
    .flatMap((a) => a.nodeUserList.map((u) => u.name));
  expect(approvers).toContain('吴昊');
  const copied = data.approval.filter((a) => a.type !== 1).flatMap((a) => a.nodeUserList.map((u) => u.name));
  expect(copied).toContain('孙悦');
});

test('a new template: form fields, 请选择角色 blocks a department without a role, at most 5 members, unsaved changes ask before leaving', async ({
  page,
}) => {
  const name = `设备维修${Date.now().toString(36).slice(-4)}`;
  await signIn(page, 'admin');
  await page.goto('/approve/dispose?pageType=setting');
  await page.getByRole('button', { name: '新建审批' }).click();
  await page.getByRole('textbox', { name: '审批名称' }).fill(name);
  await page.getByRole('button', { name: '维修' }).click();
  await page.getByRole('textbox', { name: '分组' }).fill('后勤');
  // Repairs done out of hours count as overtime in 考勤统计, whatever the name says.
  await page.getByRole('combobox', { name: '考勤类别' }).click();
  await page.getByRole('option', { name: '加班', exact: true }).click();

  // The form: an amount and a single choice; the label changes, the id stays.
  await page.getByRole('tab', { name: '表单设计' }).click();
  await page.getByRole('button', { name: '金额', exact: true }).click();
  await page.getByRole('button', { name: '单选', exact: true }).click();
  const amount = page.getByTestId('form-field').first();
  await amount.getByRole('textbox', { name: '字段名称' }).fill('维修金额');
  await expect(amount).toContainText('字段标识 amount1');
  await page.getByTestId('form-field').nth(1).getByRole('button', { name: '上移' }).click();
  await expect(page.getByTestId('form-field').first()).toContainText('字段标识 radio1');

  // Department and role: a department alone is refused with 请选择角色 until a role is chosen.
  await page.getByRole('tab', { name: '流程设计' }).click();
  await page.locator('[data-testid="designer-add"][data-path=""]').click();
  await page.getByRole('menuitem', { name: '审批人' }).click();
  await node(page, 'child').getByRole('button').last().click();
  const drawer = page.getByRole('dialog', { name: '审批人设置' });
  await drawer.getByRole('radio', { name: '部门角色' }).check();
  await drawer.getByRole('combobox', { name: '部门' }).click();
  await page.getByRole('option', { name: '文保部' }).click();
  await expect(drawer.getByRole('alert').filter({ hasText: '请选择角色' })).toBeVisible();
  await expect(drawer.getByRole('button', { name: '确定' })).toBeDisabled();
  await drawer.getByRole('combobox', { name: '角色' }).click();
  await page.getByRole('option', { name: '文保专员' }).click();
  await expect(drawer.getByRole('button', { name: '确定' })).toBeEnabled();
  await drawer.getByRole('radio', { name: /会签/ }).check();
  await drawer.getByRole('button', { name: '确定' }).click();
  await expect(node(page, 'child')).toContainText('文保部·文保专员');
  await expect(node(page, 'child')).toHaveAttribute('data-error', 'false');

  // Named members: six picked, five kept, with the warning.
  await addAt(page, 'child', '审批人');
  await openNode(page, 'child.child');
  const second = page.getByRole('dialog', { name: '审批人设置' });
  await second.getByRole('button', { name: '选择成员' }).click();
  const picker = page.getByRole('dialog', { name: '选择成员' });
  for (const who of ['张国华', '李明', '王芳', '赵磊', '陈静', '刘洋']) {
    await picker.getByRole('checkbox', { name: new RegExp(who) }).check();
  }
  await picker.getByRole('button', { name: '确定' }).click();
  await expect(second.getByRole('alert')).toContainText('最多只能选择5人，已为您保留前5人');
  await expect(second.getByTestId('approver-members')).not.toContainText('刘洋');
  await second.getByRole('button', { name: '确定' }).click();
  await expect(node(page, 'child.child')).toContainText('5人或签');

  // Leaving with unsaved changes asks; staying keeps the work.
  await page.getByText('待我审批', { exact: true }).click();
  const leave = page.getByRole('dialog', { name: '未保存' });
  await expect(leave).toContainText('有未保存的修改');
  await leave.getByRole('button', { name: '取消' }).click();
  await expect(page).toHaveURL(/\/approve\/dispose/);
  await expect(node(page, 'child.child')).toContainText('5人或签');

  await page.getByRole('button', { name: '保存草稿' }).click();
  await expect(page.getByText('已保存草稿')).toBeVisible();
  await page.getByRole('button', { name: '返回审批列表' }).click();
  const row = page.getByTestId('template-row').filter({ hasText: name });
  await expect(row).toContainText('未发布');
  await expect(page.getByText('后勤')).toBeVisible();
  await row.getByRole('button', { name: `编辑 ${name}` }).click();
  await expect(page.getByRole('combobox', { name: '考勤类别' })).toHaveValue('加班');
});

/*
 * The story on the flow published above: 王芳 asks for 6,000 元 through the form; her
 * superior 李明 agrees offline (queued, then replayed online); the director and then 吴昊 (the
 * branch's named approver) agree; 孙悦 (copied after approval) hears through the bell and opens
 * the request, which marks it read; 王芳 sees 审批通过 and prints it.
 */
test('the story: 报销 6,000 元 through superior (offline), director and the branch approver; copy read; requester prints', async ({
  browser,
}) => {
  // Six people in turn, each in their own browser: longer than one page's default minute.
  test.setTimeout(180_000);
  const reason = `三号展厅布展耗材${Date.now().toString(36).slice(-4)}`;
  const contextOf = async (b: Browser, who: string) => {
    const p = await personPage(b, { viewport: { width: 1024, height: 768 } });
    await signIn(p, who);
    return p;
  };
  const wang = await contextOf(browser, 'staff02');
  await wang.goto('/approve/start-approve');
  await wang.getByRole('button', { name: /报销/ }).first().click();
  await wang.getByLabel('报销金额（元）').fill('6000');
  await wang.getByLabel('报销事由').fill(reason);
  const chooser = wang.waitForEvent('filechooser');
  await wang.getByTestId('field-invoices').getByRole('button', { name: '上传附件' }).click();
  await (
    await chooser
  ).setFiles({ name: '发票.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 发票') });
  await expect(wang.getByTestId('approval-attachment')).toHaveCount(1);
  await wang.getByTestId('start-submit').click();
  await expect(wang.getByText('提交成功')).toBeVisible();
  await expect(wang).toHaveURL(/\/approve\/process-mystart/);
  // Ours is the newest of 王芳's requests; its form carries this run's reason.
  const wangToken = await tokenOf(wang);
  const listed = await api<{ list: { actvityId: number; title: string }[] }>(
    wang.request,
    wangToken,
    'GET',
    '/workflowInst/list?state=mystart',
  );
  const id = listed.list.find((r) => r.title === '王芳的报销')!.actvityId;
  const form = await api<{ fields: { value: string }[] }>(
    wang.request,
    wangToken,
    'POST',
    '/workflowInst/data',
    {
      actvityId: id,
    },
  );
  expect(form.fields.map((f) => f.value)).toContain(reason);

  /** Opens the request as the notice popup links to it, checks the form, and agrees. */
  const decideOurs = async (p: Page, offline = false) => {
    await p.goto(`/approve/process-pending?state=pending&actvityId=${id}`);
    const panel = p.getByTestId('detail-panel');
    await expect(panel.getByTestId('detail-fields')).toContainText(reason);
    await expect(panel.getByTestId('detail-fields')).toContainText('6000.00元');
    await expect(panel.getByTestId('detail-fields')).toContainText('发票.pdf');
    if (offline) await p.context().setOffline(true);
    await panel.getByTestId('panel-agree').click();
    await p.getByTestId('action-dialog').getByTestId('action-submit').click();
    return panel;
  };

  const li = await contextOf(browser, 'staff01');
  const liPanel = await decideOurs(li, true);
  await expect(liPanel.getByTestId('detail-sync-pending')).toBeVisible();
  await li.context().setOffline(false);
  await expect(liPanel.getByTestId('detail-sync-pending')).toBeHidden();
  // Each person leaves once done: fewer live pages and streams for the small CI machine.
  await li.context().close();

  const director = await contextOf(browser, 'director');
  await decideOurs(director);
  await expect(director.getByText('已同意').first()).toBeVisible();
  await director.context().close();
  const wu = await contextOf(browser, 'staff08');
  await decideOurs(wu);
  await expect(wu.getByTestId('detail-status')).toHaveText('审批通过');
  await wu.context().close();

  // 孙悦 is copied after approval: the bell, the 审批流 tab, and opening it marks it read.
  const sun = await contextOf(browser, 'staff06');
  await sun.getByTestId('notice-centre').click();
  await sun.getByRole('tab', { name: /审批流/ }).click();
  // Only ours is copied to 孙悦 yet (the first test's request is still with 李明).
  await sun.getByTestId('approval-row').filter({ hasText: '王芳的报销' }).first().click();
  await expect(sun).toHaveURL(/\/approve\/process-copy/);
  await expect(sun.getByTestId('detail-status')).toHaveText('审批通过');
  await expect(sun.getByTestId('copy-read')).toContainText('孙悦');

  // 王芳: 审批通过 in 我发起的, and the printable page has the form and every decision.
  await wang.goto(`/approve/process-mystart?state=mystart&actvityId=${id}`);
  await expect(wang.getByTestId('detail-status')).toHaveText('审批通过');
  const printed = wang.context().waitForEvent('page');
  await wang.getByTestId('panel-print').click();
  const print = await printed;
  await print.waitForLoadState();
  await expect(print.locator('body')).toContainText(reason);
  await expect(print.locator('body')).toContainText('审批通过');
  for (const name of ['李明', '张国华', '吴昊']) await expect(print.locator('body')).toContainText(name);
  await expect(print.locator('body')).toContainText('发票.pdf');
});
