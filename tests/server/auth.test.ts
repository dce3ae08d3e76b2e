import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startServer, type TestServer } from './harness';
import { M, clearLoginAttempts, demoPhone, failure, loginCall, sessionCount, userIdOf } from './util';

/*
 * Sign-in and its failures. The sign-in route allows 30 calls a minute per address and per
 * server (400s included), so this file keeps its sign-ins below that (22 today); the session
 * check is in session.test.ts and throttling in throttle.test.ts.
 */

let s: TestServer;
let admin: string;

const EXPIRED = { success: false, code: 999, message: '登录超时，请重新登录', result: null };
const wrong = (left: number) => failure(1001, `账号或密码错误，还可尝试 ${left} 次`);

beforeAll(async () => {
  s = await startServer();
  admin = await s.login('admin');
});
afterAll(() => s.close());
beforeEach(() => clearLoginAttempts(s));

describe('sign-in', () => {
  it('signs in by account: result shape and the 7-day token cookie', async () => {
    const res = await loginCall(s, 'staff01');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      code: 0,
      message: '成功',
      result: {
        token: expect.any(String),
        userId: await userIdOf(s, 'staff01'),
        userName: '李明',
        image: '',
        phone: demoPhone(1),
      },
    });
    const token = res.body.result.token as string;
    expect(token.length).toBeGreaterThanOrEqual(40);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`token=${token}`);
    expect(cookie).toContain('Max-Age=604800');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('SameSite=Lax');
    // The app reads the cookie to send the header, as the spec's token cookie.
    expect(cookie).not.toContain('HttpOnly');

    const info = await s.call('GET', `${M}/login/userInfo`, { token });
    expect(info.status).toBe(200);
    expect(info.body.result).toEqual({
      userId: res.body.result.userId,
      account: 'staff01',
      userName: '李明',
      image: '',
      phone: demoPhone(1),
      roles: ['deptHead'],
      roleNames: ['部门主任'],
      departments: [{ id: expect.any(Number), name: '办公室' }],
      mustChangePassword: false,
    });
  });

  it('signs in by phone number', async () => {
    const res = await loginCall(s, demoPhone(0));
    expect(res.body.success).toBe(true);
    expect(res.body.result).toMatchObject({
      userId: await userIdOf(s, 'director'),
      userName: '张国华',
      phone: '13800000000',
    });
  });

  it('ignores spaces around the account', async () => {
    const res = await loginCall(s, '  staff04 ');
    expect(res.body.success).toBe(true);
    expect(res.body.result.userName).toBe('陈静');
  });

  it('issues a different token for every sign-in', async () => {
    const a = await s.login('staff10');
    const b = await s.login('staff10');
    expect(a).not.toBe(b);
    expect((await s.call('GET', `${M}/login/userInfo`, { token: a })).status).toBe(200);
    expect((await s.call('GET', `${M}/login/userInfo`, { token: b })).status).toBe(200);
  });

  it('answers 400 with the field message for a missing account or password', async () => {
    const noPw = await s.call('POST', `${M}/login/webLogin`, { body: { username: 'staff01', password: '' } });
    expect(noPw.status).toBe(400);
    expect(noPw.body).toEqual(failure(400, '请输入密码'));
    const noUser = await s.call('POST', `${M}/login/webLogin`, { body: { username: '   ', password: 'x' } });
    expect(noUser.status).toBe(400);
    expect(noUser.body).toEqual(failure(400, '请输入账号或手机号'));
  });

  it('answers 400 for a body that is not valid JSON', async () => {
    const res = await s.call('POST', `${M}/login/webLogin`, { raw: '{"username": "staff01",' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(failure(400, '请求内容不是有效的 JSON，请检查后重试'));
    const empty = await s.call('POST', `${M}/login/webLogin`, { raw: '' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual(failure(400, '请求内容不是有效的 JSON，请检查后重试'));
  });
});

describe('sign-in failures', () => {
  it('refuses a wrong password with a falling count of tries left', async () => {
    for (const left of [4, 3, 2]) {
      const res = await loginCall(s, 'staff03', 'Wrong@123');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(wrong(left));
    }
    // A success clears the count.
    expect((await loginCall(s, 'staff03')).body.success).toBe(true);
    expect((await loginCall(s, 'staff03', 'Wrong@123')).body).toEqual(wrong(4));
  });

  it('answers an unknown account exactly as a wrong password, giving no hint it does not exist', async () => {
    const unknown = await loginCall(s, 'nobody99', DEMO_PASSWORD);
    await clearLoginAttempts(s);
    const known = await loginCall(s, 'staff06', 'Wrong@123');
    await clearLoginAttempts(s);
    const unknownPhone = await loginCall(s, '13999999999', DEMO_PASSWORD);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(wrong(4));
    expect(known.body).toEqual(unknown.body);
    expect(unknownPhone.body).toEqual(unknown.body);
  });

  it('refuses a disabled account and ends its sessions at once', async () => {
    const token = await s.login('staff05');
    const id = await userIdOf(s, 'staff05');
    expect(await sessionCount(s, id)).toBeGreaterThan(0);

    const off = await s.call('POST', `${M}/sysUser/enable`, {
      token: admin,
      body: { userId: id, enabled: false },
    });
    expect(off.body).toEqual({ success: true, code: 0, message: '成功', result: {} });
    expect(await sessionCount(s, id)).toBe(0);

    const after = await s.call('GET', `${M}/login/userInfo`, { token });
    expect(after.status).toBe(999);
    expect(after.body).toEqual(EXPIRED);

    expect((await loginCall(s, 'staff05')).body).toEqual(failure(1002, '该账号已停用，请联系管理员'));
    // A wrong password does not reveal that the account is disabled.
    expect((await loginCall(s, 'staff05', 'Wrong@123')).body).toEqual(wrong(4));

    const on = await s.call('POST', `${M}/sysUser/enable`, {
      token: admin,
      body: { userId: id, enabled: true },
    });
    expect(on.body.success).toBe(true);
    expect((await loginCall(s, demoPhone(5))).body.success).toBe(true);
  });
});
