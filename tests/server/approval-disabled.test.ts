import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WF_MSG } from '../../src/shared/workflow/engine';
import { startServer, type TestServer } from './harness';
import { M } from './util';

/*
 * An approver disabled (人员管理 → 停用) while a request's current node awaits them: the request
 * moves on at once, as it would have had they been disabled before the node was reached. Real
 * server, demo museum; staff02 starts, staff01 (李明) and staff03 (赵磊) approve, admin
 * (系统管理员) is the only system administrator and disables people through /sysUser/enable.
 */

let s: TestServer;
const tok: Record<string, string> = {};
const uid: Record<string, number> = {};

beforeAll(async () => {
  s = await startServer();
  for (const a of ['admin', 'director', 'staff01', 'staff02', 'staff03', 'staff04']) {
    tok[a] = await s.login(a);
    uid[a] = (
      await s.db.selectFrom('user').select('id').where('account', '=', a).executeTakeFirstOrThrow()
    ).id;
  }
});
afterAll(() => s.close());

const post = async (who: string, path: string, body?: unknown) =>
  (await s.call('POST', `${M}${path}`, { token: tok[who], body: body ?? {} })).body;
const detail = async (who: string, id: number) =>
  (await post(who, '/workflowInst/data', { actvityId: id })).result;
const approve = (who: string, id: number, action: 2 | 3 = 2) =>
  post(who, '/workflowInst/approval', { actvityId: id, action });
const statusOf = async (id: number) =>
  (await s.db.selectFrom('approval_request').select('status').where('id', '=', id).executeTakeFirstOrThrow())
    .status;
/** Who has an open awaiting message for the request (read from the table: a disabled person cannot sign in). */
const awaiting = async (id: number) =>
  (
    await s.db
      .selectFrom('approval_message')
      .select('user_id')
      .where('actvity_id', '=', id)
      .where('type', '=', 'workflow')
      .where('status', '=', 1)
      .where('open', '=', 1)
      .orderBy('user_id')
      .execute()
  ).map((r) => r.user_id);
const pendingOf = async (who: string) =>
  ((await post(who, '/workflowActvity/message/list')).result as { actvityId: number; status: string }[])
    .filter((m) => m.status === '1')
    .map((m) => m.actvityId);

async function setEnabled(who: string, enabled: boolean) {
  const res = await post('admin', '/sysUser/enable', { userId: uid[who], enabled });
  expect(res.success, JSON.stringify(res)).toBe(true);
  // Disabling ends their sessions; sign in again once they are back.
  if (enabled) tok[who] = await s.login(who);
}

const person = (account: string, name: string) => ({ targetId: uid[account], type: 1, name });
/** A published template: one node of the given people (1 any-one, 2 all-must), optionally then the director. */
async function template(name: string, examineMode: 1 | 2, people: object[], thenDirector = false) {
  const node = (nodeName: string, mode: number, list: object[], childNode: object | null) => ({
    type: 1,
    nodeName,
    settype: 1,
    examineMode: mode,
    directorLevel: 1,
    nodeUserList: list,
    deptRoleList: [],
    childNode,
  });
  const save = await post('admin', '/workflowTemplate/save', {
    name,
    category: 'normal',
    definition: {
      fields: [],
      directorMaxLevel: 1,
      flowPermission: [],
      nodeConfig: {
        type: 0,
        nodeName: '发起人',
        childNode: node(
          '部门审批',
          examineMode,
          people,
          thenDirector ? node('馆长审批', 1, [person('director', '张国华')], null) : null,
        ),
      },
    },
  });
  expect(save.success, JSON.stringify(save)).toBe(true);
  expect((await post('admin', '/workflowTemplate/publish', { id: save.result.id })).success).toBe(true);
  return save.result.id as number;
}
async function startOn(templateId: number) {
  const res = await post('staff02', '/workflowInst/start', { templateId, form: {} });
  expect(res.success, JSON.stringify(res)).toBe(true);
  return res.result.actvityId as number;
}
const firstNode = async (id: number) => (await detail('staff02', id)).approval[0];
const people = (node: { nodeUserList: { name: string; statusText: string }[] }) =>
  node.nodeUserList.map((u) => [u.name, u.statusText]);

describe('an approver disabled while a request awaits them', () => {
  it('any-one node with a second approver: the other decides; re-enabled, they do not get it back', async () => {
    const id = await startOn(
      await template('停用或签', 1, [person('staff01', '李明'), person('staff03', '赵磊')]),
    );
    expect(await awaiting(id)).toEqual([uid.staff01, uid.staff03].sort((a, b) => a! - b!));

    await setEnabled('staff01', false);
    expect(await awaiting(id)).toEqual([uid.staff03]);
    const node = await firstNode(id);
    expect(people(node)).toEqual([['赵磊', '审批中']]);
    expect(node.note).toBe('已跳过 1 位已停用或不存在的审批人');
    expect((await detail('staff02', id)).detail[1].arr[2]).toEqual({ label: '当前审批人', value: '赵磊' });

    await setEnabled('staff01', true);
    expect(await pendingOf('staff01')).not.toContain(id);
    expect((await approve('staff01', id)).message).toBe(WF_MSG.notApprover);
    expect(await awaiting(id)).toEqual([uid.staff03]);
    expect((await approve('staff03', id)).success).toBe(true);
    expect(await statusOf(id)).toBe(6);
  });

  it('single-approver node: escalates to the administrators with the timeline note; admin agrees', async () => {
    const id = await startOn(await template('停用单人', 1, [person('staff01', '李明')]));
    expect(await pendingOf('admin')).not.toContain(id);

    await setEnabled('staff01', false);
    expect(await awaiting(id)).toEqual([uid.admin]);
    expect(await pendingOf('admin')).toContain(id);
    const node = await firstNode(id);
    expect(node.note).toBe('原审批人已停用或不存在，已转由系统管理员审批');
    expect(node.examineMode).toBe(1);
    expect(people(node)).toEqual([['系统管理员', '审批中']]);
    expect(await statusOf(id)).toBe(1);

    expect((await approve('admin', id)).success).toBe(true);
    expect(await statusOf(id)).toBe(6);
    expect(await awaiting(id)).toEqual([]);
    await setEnabled('staff01', true);
  });

  it('all-must node: a vote no longer needed; the last one pending after the others agreed moves the request on', async () => {
    const tpl = await template('停用会签', 2, [person('staff01', '李明'), person('staff03', '赵磊')], true);

    // Both pending: staff03's vote is still needed, and alone it passes the node.
    const a = await startOn(tpl);
    await setEnabled('staff01', false);
    expect(await awaiting(a)).toEqual([uid.staff03]);
    expect(people(await firstNode(a))).toEqual([['赵磊', '审批中']]);
    expect((await approve('staff03', a)).success).toBe(true);
    expect(await awaiting(a)).toEqual([uid.director]);
    await setEnabled('staff01', true);

    // staff03 agreed; staff01 was the last one pending: the node passes, the director decides.
    const b = await startOn(tpl);
    expect((await approve('staff03', b)).success).toBe(true);
    expect(await awaiting(b)).toEqual([uid.staff01]);
    await setEnabled('staff01', false);
    expect(await awaiting(b)).toEqual([uid.director]);
    expect(await pendingOf('director')).toContain(b);
    const d = await detail('staff02', b);
    expect(d.approval.map((n: { statusText: string }) => n.statusText)).toEqual(['已同意', '审批中']);
    expect(people(d.approval[0])).toEqual([['赵磊', '已同意']]);
    expect(d.approval[0].note).toBe('已跳过 1 位已停用或不存在的审批人');
    expect((await approve('director', b)).success).toBe(true);
    expect(await statusOf(b)).toBe(6);
    await setEnabled('staff01', true);
  });

  it('a transferred decision follows the same rule: the taker disabled sends it to the administrators', async () => {
    const id = await startOn(await template('停用转交', 1, [person('staff01', '李明')]));
    expect(
      (await post('staff01', '/workflowInst/deliver', { actvityId: id, target: uid.staff03 })).success,
    ).toBe(true);
    await setEnabled('staff03', false);
    expect(await awaiting(id)).toEqual([uid.admin]);
    expect(people(await firstNode(id))).toEqual([
      ['李明', '已转交'],
      ['系统管理员', '审批中'],
    ]);
    await setEnabled('staff03', true);
  });

  it('with nobody left and no administrator to take over, the disabling is refused and nothing changes', async () => {
    const id = await startOn(await template('停用无管理员', 1, [person('staff01', '李明')]));
    // staff04 gets 人员管理 through a role of its own; then the only administrator loses the role.
    const role = await post('admin', '/sysRole/save', { code: 'personnel', name: '人事', remark: '' });
    expect(role.success, JSON.stringify(role)).toBe(true);
    await post('admin', '/sysRole/setMenus', { roleId: role.result.roleId, menuKeys: ['system.person'] });
    await s.db
      .insertInto('user_role')
      .values({ user_id: uid.staff04!, role_id: role.result.roleId })
      .execute();
    const adminRoles = await s.db
      .selectFrom('user_role')
      .selectAll()
      .where('user_id', '=', uid.admin!)
      .execute();
    await s.db.deleteFrom('user_role').where('user_id', '=', uid.admin!).execute();
    try {
      const res = await post('staff04', '/sysUser/enable', { userId: uid.staff01, enabled: false });
      expect(res.message).toBe('“王芳的停用无管理员”正等待该员工审批，且没有可接手的系统管理员，暂不能停用');
      const still = await s.db
        .selectFrom('user')
        .select('enabled')
        .where('id', '=', uid.staff01!)
        .executeTakeFirst();
      expect(still?.enabled).toBe(1);
      expect(await awaiting(id)).toEqual([uid.staff01]);
    } finally {
      await s.db.insertInto('user_role').values(adminRoles).execute();
    }
    expect((await approve('staff01', id)).success).toBe(true);
  });

  it('disabling someone with no pending work changes no request and no message', async () => {
    const id = await startOn(await template('停用无关', 1, [person('staff01', '李明')]));
    const snapshot = async () => ({
      requests: await s.db.selectFrom('approval_request').selectAll().orderBy('id').execute(),
      messages: await s.db.selectFrom('approval_message').selectAll().orderBy('id').execute(),
    });
    const before = await snapshot();
    await setEnabled('staff04', false);
    expect(await snapshot()).toEqual(before);
    expect(await awaiting(id)).toEqual([uid.staff01]);
    // Disabling again (already disabled) is just as quiet.
    await setEnabled('staff04', false);
    expect(await snapshot()).toEqual(before);
    await setEnabled('staff04', true);
  });
});
