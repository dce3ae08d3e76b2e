import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M, failure, loginCall, roleIdByCode, userIdOf } from './util';

/**
 * Someone trusted with the staff list (staff09, 信息管理员, who has the system module) must not
 * be able to make themselves super administrator or lock the real one out.
 */
let s: TestServer;
let it09: string;
let adminRoleId: number;
let adminId: number;
let staff09Id: number;
const GUARD = failure(1005, '只有超级管理员可以授予、修改或停用超级管理员账号');

beforeAll(async () => {
  s = await startServer();
  it09 = await s.login('staff09');
  adminRoleId = await roleIdByCode(s, await s.login('admin'), 'viviHignAdmin');
  adminId = await userIdOf(s, 'admin');
  staff09Id = await userIdOf(s, 'staff09');
});
afterAll(() => s.close());

describe('the super-administrator guard', () => {
  it('refuses granting viviHignAdmin to oneself', async () => {
    const res = await s.call('POST', `${M}/sysUser/update`, {
      token: it09,
      body: {
        userId: staff09Id,
        userName: '郑凯',
        phone: '13800000009',
        deptIds: [],
        roleIds: [adminRoleId],
      },
    });
    expect(res.body).toEqual(GUARD);
  });

  it('refuses creating a new super administrator', async () => {
    const res = await s.call('POST', `${M}/sysUser/save`, {
      token: it09,
      body: { account: 'sneaky', userName: '某人', phone: '', password: 'abc12345', roleIds: [adminRoleId] },
    });
    expect(res.body).toEqual(GUARD);
  });

  it('refuses editing, resetting or disabling the administrator', async () => {
    const edit = await s.call('POST', `${M}/sysUser/update`, {
      token: it09,
      body: { userId: adminId, userName: '系统管理员', phone: '', deptIds: [], roleIds: [] },
    });
    expect(edit.body).toEqual(GUARD);
    const reset = await s.call('POST', `${M}/sysUser/resetPassword`, {
      token: it09,
      body: { userId: adminId, password: 'taken0ver' },
    });
    expect(reset.body).toEqual(GUARD);
    // The administrator still signs in with the original password.
    expect((await loginCall(s, 'admin', 'Admin@12345')).body.success).toBe(true);
  });

  it('still lets the same person manage ordinary staff', async () => {
    const id = await userIdOf(s, 'staff10');
    const res = await s.call('POST', `${M}/sysUser/resetPassword`, {
      token: it09,
      body: { userId: id, password: 'newpass123' },
    });
    expect(res.body.success).toBe(true);
  });
});

describe('accounts are case-insensitive', () => {
  it('refuses Director beside director, and signs in Staff01 as staff01', async () => {
    const admin = await s.login('admin');
    const res = await s.call('POST', `${M}/sysUser/save`, {
      token: admin,
      body: { account: 'Director', userName: '冒名', phone: '', password: 'abc12345' },
    });
    expect(res.body).toEqual(failure(1007, '账号 Director 已存在，请换一个账号'));
    const login = await loginCall(s, 'STAFF01');
    expect(login.body.success).toBe(true);
    expect(login.body.result.userName).toBe('李明');
  });
});
