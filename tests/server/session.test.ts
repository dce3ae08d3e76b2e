import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/modules/auth/auth.service';
import { startServer, type TestServer } from './harness';
import { M, expireSession } from './util';

/*
 * The session check: missing, forged, expired and ended tokens answer HTTP 999, and the token
 * cookie authorises reads only (CSRF). Apart from auth.test.ts because the sign-in route allows
 * only 30 calls a minute per address and per server.
 */

let s: TestServer;

const EXPIRED = { success: false, code: 999, message: '登录超时，请重新登录', result: null };

beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('session check', () => {
  it('answers HTTP 999 without a token, for reads and writes', async () => {
    for (const [method, path] of [
      ['GET', `${M}/login/userInfo`],
      ['POST', `${M}/login/getRoleFunction`],
      ['POST', `${M}/login/logout`],
      ['GET', `${M}/sysUser/list`],
    ] as const) {
      const res = await s.call(method, path);
      expect(res.status, path).toBe(999);
      expect(res.body, path).toEqual(EXPIRED);
    }
  });

  it('answers HTTP 999 for a forged token', async () => {
    for (const token of ['forged', 'x'.repeat(43), hashToken('something')]) {
      const res = await s.call('GET', `${M}/login/userInfo`, { token });
      expect(res.status).toBe(999);
      expect(res.body).toEqual(EXPIRED);
    }
  });

  it('answers HTTP 999 for an expired token, and a later sign-in purges the expired session', async () => {
    const token = await s.login('staff06');
    expect((await s.call('GET', `${M}/login/userInfo`, { token })).status).toBe(200);
    await expireSession(s, token);
    const res = await s.call('GET', `${M}/login/userInfo`, { token });
    expect(res.status).toBe(999);
    expect(res.body).toEqual(EXPIRED);

    await s.login('staff06');
    const row = await s.db
      .selectFrom('session')
      .select('token_hash')
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('logs out only the session that asks, and clears the cookie', async () => {
    const t1 = await s.login('staff07');
    const t2 = await s.login('staff07');
    const out = await s.call('POST', `${M}/login/logout`, { token: t1 });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true, code: 0, message: '成功', result: {} });
    const cookie = out.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^token=;/);
    expect(cookie).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);

    const gone = await s.call('GET', `${M}/login/userInfo`, { token: t1 });
    expect(gone.status).toBe(999);
    expect(gone.body).toEqual(EXPIRED);
    expect((await s.call('GET', `${M}/login/userInfo`, { token: t2 })).status).toBe(200);
  });

  it('accepts the cookie for reads but never for a change (CSRF)', async () => {
    const token = await s.login('staff08');
    const cookie = `token=${token}`;

    const read = await s.call('GET', `${M}/login/userInfo`, { headers: { cookie } });
    expect(read.status).toBe(200);
    expect(read.body.result.account).toBe('staff08');

    for (const path of [`${M}/login/logout`, `${M}/login/getRoleFunction`, `${M}/personal/update`]) {
      const res = await s.call('POST', path, {
        headers: { cookie },
        body: { userName: '被篡改', phone: '' },
      });
      expect(res.status, path).toBe(999);
      expect(res.body, path).toEqual(EXPIRED);
    }
    // The cookie-only logout changed nothing: the session still works.
    const still = await s.call('GET', `${M}/login/userInfo`, { token });
    expect(still.status).toBe(200);
    expect(still.body.result.userName).toBe('吴昊');
  });

  it('prefers the header to the cookie', async () => {
    const token = await s.login('staff09');
    const res = await s.call('GET', `${M}/login/userInfo`, {
      token: 'forged',
      headers: { cookie: `token=${token}` },
    });
    expect(res.status).toBe(999);
  });
});

describe('session check against the account', () => {
  it('refuses a live session once its account is disabled, even if the session row remains', async () => {
    const token = await s.login('staff10');
    expect((await s.call('GET', `${M}/login/userInfo`, { token })).status).toBe(200);
    await s.db.updateTable('user').set({ enabled: 0 }).where('account', '=', 'staff10').execute();
    const res = await s.call('GET', `${M}/login/userInfo`, { token });
    expect(res.status).toBe(999);
    expect(res.body).toEqual(EXPIRED);
    await s.db.updateTable('user').set({ enabled: 1 }).where('account', '=', 'staff10').execute();
    expect((await s.call('GET', `${M}/login/userInfo`, { token })).status).toBe(200);
  });
});
