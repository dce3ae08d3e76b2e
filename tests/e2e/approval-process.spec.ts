import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { copyTo, definition, members } from '../../src/shared/workflow/build';
import { ADMIN_PASSWORD, closePersonPages, DEMO_PASSWORD, personPage, signIn } from './helpers';
import { signInApi } from './users';

/*
 * The approval lists, the detail panel and the action dialog (issue 8), with several people in
 * their own browser contexts. A template of this spec's own: the office heads 李明 (staff01) or
 * 赵磊 (staff03) approve (或签), then the director, and 刘洋 (staff05, a department head with the OA menu) is copied once passed.
 * Requests are started through the API as 王芳 (staff02).
 */

test.describe.configure({ mode: 'serial' });
// Each person's browser goes when their test ends (helpers.ts, personPage).
test.afterEach(closePersonPages);

const who = ['admin', 'director', 'staff01', 'staff02', 'staff03', 'staff05'] as const;
type Who = (typeof who)[number];
const tok = {} as Record<Who, string>;
const uid = {} as Record<Who, number>;
let templateId = 0;
let templateName = '';

async function api<T>(request: APIRequestContext, as: Who, path: string, data: unknown): Promise<T> {
  const body = await (
    await request.post(`/singleMuseum${path}`, { headers: { token: tok[as] }, data })
  ).json();
  expect(body.success, `${path}: ${body.message}`).toBe(true);
  return body.result as T;
}

test.beforeAll(async ({ request }) => {
  for (const a of who) {
    const r = await signInApi(request, a, a === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD);
    tok[a] = r.token;
    uid[a] = r.userId;
  }
  templateName = `巡检审批${Date.now().toString(36)}`;
  const def = definition(
    [
      members([uid.staff01, uid.staff03], 1, '部门负责人'),
      members([uid.director], 1, '馆长'),
      copyTo([uid.staff05], 1),
    ],
    { fields: [{ id: 'reason', type: 'textarea', label: '事由', required: true }] },
  );
  const saved = await api<{ id: number }>(request, 'admin', '/workflowTemplate/save', {
    name: templateName,
    category: 'normal',
    definition: def,
  });
  templateId = saved.id;
  await api(request, 'admin', '/workflowTemplate/publish', { id: templateId });
});

const start = async (request: APIRequestContext, reason: string, priority = 1) =>
  (
    await api<{ actvityId: number }>(request, 'staff02', '/workflowInst/start', {
      templateId,
      form: { reason },
      priority,
    })
  ).actvityId;

const detail = (request: APIRequestContext, as: Who, id: number) =>
  api<{
    status: number;
    approval: { nodeName: string; nodeUserList: { name: string; statusText: string }[] }[];
    readList: { name: string }[];
  }>(request, as, '/workflowInst/data', { actvityId: id });

async function open(browser: Browser, as: Who): Promise<Page> {
  const page = await personPage(browser, { viewport: { width: 1280, height: 900 } });
  await signIn(page, as);
  return page;
}

/** Opens the panel of a request from a list route, as the notice popup links to it. */
async function panelOf(page: Page, path: string, state: string, id: number) {
  await page.goto(`${path}?state=${state}&actvityId=${id}`);
  const panel = page.getByTestId('detail-panel');
  await expect(panel).toBeVisible();
  return panel;
}

async function act(page: Page, button: string, reason?: string) {
  await page.getByTestId(`panel-${button}`).click();
  const dialog = page.getByTestId('action-dialog');
  await expect(dialog).toBeVisible();
  if (reason !== undefined) await dialog.getByTestId('action-reason').fill(reason);
  await dialog.getByTestId('action-submit').click();
}

test('an approver agrees offline (待同步, then replayed once); the director agrees; the copy-to recipient reads it', async ({
  browser,
  request,
}) => {
  // Four people's pages and an offline replay: about 40 s on an idle two-core machine.
  test.setTimeout(120_000);
  const id = await start(request, '三号展厅恒温设备巡检', 2);

  // 李明 sees it in 待我审批, 紧急 and 审批中, and opens it from the list.
  const lm = await open(browser, 'staff01');
  await lm.goto('/approve/process-pending?state=pending');
  const row = lm.getByTestId('process-row').first();
  await expect(row).toContainText('王芳的' + templateName);
  await expect(row.getByTestId('row-priority')).toHaveText('紧急');
  await expect(row.getByTestId('row-status')).toHaveText('审批中');
  await row.click();
  const panel = lm.getByTestId('detail-panel');
  await expect(panel.getByTestId('detail-title')).toHaveText('王芳的' + templateName);
  await expect(panel.getByTestId('detail-fields')).toContainText('三号展厅恒温设备巡检');
  await expect(panel.getByTestId('detail-timeline')).toContainText('或签');
  await expect(panel.getByTestId('detail-buttons').getByRole('button')).toHaveText([
    '评论',
    '转交',
    '拒绝',
    '同意',
  ]);

  // Offline: the panel says so; transfer needs the network; agree is queued as 待同步.
  await lm.context().setOffline(true);
  await expect(panel.getByTestId('detail-offline')).toBeVisible();
  await expect(panel.getByTestId('panel-transfer')).toBeDisabled();
  await act(lm, 'agree', '同意，注意记录温湿度');
  await expect(lm.getByText('已保存在本机，联网后自动同步')).toBeVisible();
  await expect(panel.getByTestId('detail-sync-pending')).toBeVisible();
  await expect(panel.getByTestId('panel-agree')).toHaveCount(0);
  expect((await detail(request, 'staff02', id)).approval[0]!.nodeUserList[0]!.statusText).not.toBe('已同意');
  await lm.getByRole('button', { name: '关闭审批详情' }).click();
  await expect(lm.getByTestId('row-sync-pending').first()).toBeVisible();

  // Online: it replays once; the row leaves 待我审批 and the server has 李明's decision.
  await lm.context().setOffline(false);
  await expect(lm.getByTestId('row-sync-pending')).toHaveCount(0);
  await expect
    .poll(async () =>
      (await detail(request, 'staff02', id)).approval[0]!.nodeUserList.map((u) => u.statusText),
    )
    .toContain('已同意');
  await expect(lm.getByTestId('process-row').filter({ hasText: templateName })).toHaveCount(0);

  // The director agrees without an opinion (optional for agree): 审批通过, and print is offered.
  const director = await open(browser, 'director');
  const dPanel = await panelOf(director, '/approve/process-pending', 'pending', id);
  await act(director, 'agree');
  // The toast, not the first 审批通过 on the page: the status filter's options hold one too, hidden.
  await expect(director.getByRole('alert').filter({ hasText: '审批通过' })).toBeVisible();
  await expect(dPanel.getByTestId('detail-status')).toHaveText('审批通过');
  await expect(dPanel.getByTestId('detail-buttons').getByRole('button')).toHaveText(['打印', '评论']);

  // 刘洋 opens it from 抄送我的; opening marks it read.
  const cj = await open(browser, 'staff05');
  await cj.goto('/approve/process-copy?state=copy');
  await cj.getByTestId('process-row').filter({ hasText: templateName }).first().click();
  await expect(cj.getByTestId('detail-status')).toHaveText('审批通过');
  await expect
    .poll(async () => (await detail(request, 'staff02', id)).readList.map((u) => u.name))
    .toContain('刘洋');
  await expect(cj.getByTestId('copy-read')).toContainText('刘洋');
});

test('refusal needs a reason; cancel asks first; transfer through 选择联系人; a replay after someone else settled it says 已被他人处理', async ({
  browser,
  request,
}) => {
  const refused = await start(request, '更换展柜灯具');
  const lm = await open(browser, 'staff01');
  const panel = await panelOf(lm, '/approve/process-pending', 'pending', refused);
  await act(lm, 'refuse', '');
  await expect(lm.getByTestId('action-dialog')).toContainText('必填');
  await lm.getByTestId('action-reason').fill('预算不足，下季度再议');
  await expect(lm.getByTestId('action-counter')).toHaveText('10/200');
  await lm.getByTestId('action-submit').click();
  await expect(lm.getByText('审批拒绝')).toBeVisible();
  await expect(panel.getByTestId('detail-status')).toHaveText('已拒绝');
  await expect(panel.getByTestId('detail-buttons').getByRole('button')).toHaveText(['评论']);
  expect((await detail(request, 'staff02', refused)).status).toBe(3);

  // 王芳 cancels her own request: the reason, then 确定撤销该申请吗.
  const cancelled = await start(request, '借用会议室投影仪');
  const wf = await open(browser, 'staff02');
  const mine = await panelOf(wf, '/approve/process-mystart', 'mystart', cancelled);
  await expect(mine.getByTestId('detail-buttons').getByRole('button')).toHaveText(['撤销', '评论']);
  await act(wf, 'cancel', '已改期');
  await expect(wf.getByText('确定撤销该申请吗？')).toBeVisible();
  await wf.getByTestId('cancel-confirm').click();
  await expect(wf.getByText('撤销成功')).toBeVisible();
  await expect(mine.getByTestId('detail-status')).toHaveText('已撤销');
  expect((await detail(request, 'staff02', cancelled)).status).toBe(4);

  // 李明 hands his decision to 刘洋 through 选择联系人 (searched by name).
  const handed = await start(request, '临展布展人员调配');
  const p2 = await panelOf(lm, '/approve/process-pending', 'pending', handed);
  await p2.getByTestId('panel-transfer').click();
  const picker = lm.getByTestId('contact-picker');
  await picker.getByTestId('contact-submit').click();
  await expect(picker).toContainText('请选择联系人');
  await picker.getByTestId('contact-search').fill('刘洋');
  await expect(picker.getByTestId('contact-row')).toHaveCount(1);
  await picker.getByTestId('contact-row').click();
  await picker.getByTestId('contact-submit').click();
  await expect(lm.getByText('转交成功')).toBeVisible();
  await expect(p2.getByTestId('detail-timeline')).toContainText('转交');
  const node = (await detail(request, 'staff02', handed)).approval[0]!.nodeUserList;
  expect(node.find((u) => u.name === '李明')!.statusText).toBe('已转交');
  expect(node.map((u) => u.name)).toContain('刘洋');

  // 李明 agrees offline; meanwhile 赵磊 settles the 或签 node; the replay is refused and shown.
  const raced = await start(request, '库房除湿机维修');
  const p3 = await panelOf(lm, '/approve/process-pending', 'pending', raced);
  await lm.context().setOffline(true);
  await expect(p3.getByTestId('detail-offline')).toBeVisible();
  await act(lm, 'agree', '同意');
  await expect(p3.getByTestId('detail-sync-pending')).toBeVisible();
  await api(request, 'staff03', '/workflowInst/approval', { actvityId: raced, action: 2 });
  await lm.context().setOffline(false);
  const note = p3.getByTestId('detail-refused');
  await expect(note).toContainText('已被他人处理');
  await expect(p3.getByTestId('detail-sync-pending')).toHaveCount(0);
  // The server's truth: 赵磊 agreed, 李明 did not (nothing applied twice or at all).
  const users = (await detail(request, 'staff02', raced)).approval[0]!.nodeUserList;
  expect(users.find((u) => u.name === '赵磊')!.statusText).toBe('已同意');
  expect(users.find((u) => u.name === '李明')!.statusText).not.toBe('已同意');
  await note.getByRole('button', { name: '知道了' }).click();
  await expect(note).toHaveCount(0);
});
