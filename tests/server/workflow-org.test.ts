import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CopytoUserList } from '../../src/shared/api/workflow';
import { loadOrgSnapshot } from '../../src/server/modules/workflow/org-snapshot';
import { startServer, type TestServer } from './harness';
import { M, userIdOf } from './util';

/*
 * The organisation as approvals route against it (issue 8 groundwork): superior chains with
 * their gaps, department membership with ancestors, role holders, administrators; and the
 * pickers' data calls.
 */

let s: TestServer;
const id: Record<string, number> = {};

beforeAll(async () => {
  s = await startServer();
  for (const a of ['admin', 'director', 'staff01', 'staff02', 'staff03', 'staff04', 'staff08'])
    id[a] = await userIdOf(s, a);
});
afterAll(() => s.close());

const deptId = async (name: string) =>
  (await s.db.selectFrom('department').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
const roleId = async (code: string) =>
  (await s.db.selectFrom('role').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;

describe('the org snapshot', () => {
  it('walks superiors nearest first, and stops at the top', async () => {
    const org = await loadOrgSnapshot(s.db);
    expect(org.superiorsOf(id.staff02!)).toEqual([id.staff01, id.director]);
    expect(org.superiorsOf(id.staff04!)).toEqual([id.staff03, id.director]);
    expect(org.superiorsOf(id.director!)).toEqual([]);
  });

  it('skips nobody but stops at a disabled superior and at a cycle', async () => {
    await s.db.updateTable('user').set({ enabled: 0 }).where('id', '=', id.staff01!).execute();
    let org = await loadOrgSnapshot(s.db);
    expect(org.superiorsOf(id.staff02!)).toEqual([]);
    expect(org.isActive(id.staff01!)).toBe(false);
    await s.db.updateTable('user').set({ enabled: 1 }).where('id', '=', id.staff01!).execute();

    // Bad data: a loop of superiors ends instead of spinning.
    await s.db.updateTable('user').set({ superior_id: id.staff02! }).where('id', '=', id.director!).execute();
    org = await loadOrgSnapshot(s.db);
    expect(org.superiorsOf(id.staff02!)).toEqual([id.staff01, id.director]);
    await s.db.updateTable('user').set({ superior_id: null }).where('id', '=', id.director!).execute();
  });

  it('knows departments with their ancestors, role holders and administrators', async () => {
    const org = await loadOrgSnapshot(s.db);
    const keeping = await deptId('典藏部');
    expect(org.deptsOf(id.staff04!)).toContain(keeping);
    expect(org.deptsOf(id.staff04!).length).toBeGreaterThan(1);
    expect(org.ownDeptsOf(id.staff04!)).toEqual([keeping]);
    expect(org.holders(keeping, await roleId('deptHead'))).toEqual([id.staff03]);
    expect(org.holders(keeping, await roleId('keeper')).sort()).toEqual([id.staff03, id.staff04].sort());
    expect(org.holders(keeping, await roleId('conservator'))).toEqual([]);
    expect(org.admins()).toEqual([id.admin]);
    expect(org.person(id.staff03!)).toEqual({ name: '赵磊', image: '' });
  });
});

describe('the pickers', () => {
  it('copytoUserList: everyone, or the named people, with departments and roles', async () => {
    const token = await s.login('staff02');
    const all = await s.call('POST', `${M}/workflowConfig/copytoUserList`, { token, body: {} });
    expect(CopytoUserList.parse(all.body.result).userlist.length).toBeGreaterThan(10);
    const row = all.body.result.userlist.find((u: { userId: number }) => u.userId === id.staff03);
    expect(row).toEqual({ userId: id.staff03, name: '赵磊', userImage: '', departmentNames: '典藏部' });
    expect(all.body.result.deptlist.map((d: { deptName: string }) => d.deptName)).toContain('文保部');
    expect(all.body.result.deptrolelist.map((r: { roleName: string }) => r.roleName)).toContain('典藏管理员');

    const some = await s.call('POST', `${M}/workflowConfig/copytoUserList`, {
      token,
      body: { userIds: `${id.staff08},${id.staff03}` },
    });
    expect(some.body.result.userlist.map((u: { userId: number }) => u.userId)).toEqual([
      id.staff08,
      id.staff03,
    ]);
    const bad = await s.call('POST', `${M}/workflowConfig/copytoUserList`, {
      token,
      body: { userIds: '1,x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('人员列表第 2 项必须是数字');
  });

  it('approverUserList lists every enabled person; both need a session', async () => {
    const token = await s.login('staff04');
    const res = await s.call('GET', `${M}/workflowConfig/approverUserList`, { token });
    expect(res.body.result.userlist.map((u: { name: string }) => u.name)).toContain('张国华');
    expect((await s.call('GET', `${M}/workflowConfig/approverUserList`)).status).toBe(999);
    expect((await s.call('POST', `${M}/workflowConfig/copytoUserList`, { body: {} })).status).toBe(999);
  });
});
