import { LOGIN_CALLS_PER_MINUTE } from '../../src/server/modules/auth/auth.routes';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M, demoPhone, failure, loginCall } from './util';

/*
 * Sign-in throttling. Counters are kept per account and per address, and every request here
 * comes from 127.0.0.1, so one locked test would lock the next: each test gets its own server
 * (and so its own database and its own per-route rate limiter).
 */

let s: TestServer;
beforeEach(async () => {
  s = await startServer();
});
afterEach(() => s.close());

const BAD = 'Wrong@123';
const wrong = (left: number) => failure(1001, `账号或密码错误，还可尝试 ${left} 次`);
const locked = (seconds: number) =>
  failure(1003, `登录失败次数过多，请 ${seconds} 秒后再试`, { retryAfter: seconds });
const LOCKED_RE = /^登录失败次数过多，请 (\d+) 秒后再试$/;

/** As if the lock's time had run out (the counters stay). */
async function endLocks() {
  await s.db.updateTable('login_attempt').set({ locked_until: 0 }).execute();
}
/** As if the next attempts came from another address. */
async function forgetAddress() {
  await s.db.deleteFrom('login_attempt').where('key', 'like', 'ip:%').execute();
}

describe('sign-in throttling', () => {
  it('locks after five failures and refuses even the right password while locked', async () => {
    for (const left of [4, 3, 2, 1]) expect((await loginCall(s, 'staff01', BAD)).body).toEqual(wrong(left));
    const fifth = await loginCall(s, 'staff01', BAD);
    expect(fifth.status).toBe(200);
    expect(fifth.body).toEqual(locked(30));

    const sixth = await loginCall(s, 'staff01');
    expect(sixth.status).toBe(200);
    expect(sixth.body.success).toBe(false);
    expect(sixth.body.code).toBe(1003);
    const seconds = Number(LOCKED_RE.exec(sixth.body.message)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(30);
    expect(sixth.body.result).toEqual({ retryAfter: seconds });
    expect(sixth.headers.get('set-cookie')).toBeNull();

    // Attempts during the lock are refused before the password is checked and count nothing.
    expect((await loginCall(s, 'staff01', BAD)).body.code).toBe(1003);
    // One counter for the account, one for the address, each at five.
    const rows = await s.db.selectFrom('login_attempt').select('failures').execute();
    expect(rows.map((r) => r.failures)).toEqual([5, 5]);
  });

  it('keeps the account locked for sign-ins from another address', async () => {
    for (let i = 0; i < 5; i++) await loginCall(s, 'staff03', BAD);
    await forgetAddress();
    const res = await loginCall(s, 'staff03');
    expect(res.body.code).toBe(1003);
    expect(res.body.message).toMatch(LOCKED_RE);
    // Other accounts are not affected.
    expect((await loginCall(s, 'staff04')).body.success).toBe(true);
  });

  it('locks the address after twenty failures spread over many accounts', async () => {
    // An address gets four times an account's five free failures (several tablets may share
    // the museum's router), so spraying one guess over many accounts still ends in a lock.
    const answers = [];
    for (let i = 1; i <= 20; i++) answers.push((await loginCall(s, `nobody${i}`, BAD)).body);
    expect(answers.slice(0, 16)).toEqual(Array.from({ length: 16 }, () => wrong(4)));
    expect(answers.slice(16)).toEqual([wrong(3), wrong(2), wrong(1), locked(30)]);
    const other = await loginCall(s, 'staff10');
    expect(other.body.code).toBe(1003);
    expect(other.body.message).toMatch(LOCKED_RE);
  });

  it('doubles the delay for each failure after the lock; a success resets the person, not the address', async () => {
    for (let i = 0; i < 5; i++) await loginCall(s, 'staff06', BAD);
    await endLocks();
    expect((await loginCall(s, 'staff06', BAD)).body).toEqual(locked(60));
    await endLocks();
    expect((await loginCall(s, 'staff06', BAD)).body).toEqual(locked(120));
    await endLocks();
    expect((await loginCall(s, 'staff06')).body.success).toBe(true);
    // The address keeps its count: one valid sign-in must not launder a spraying run.
    const left = await s.db.selectFrom('login_attempt').select(['key', 'failures']).execute();
    expect(left).toEqual([{ key: 'ip:127.0.0.1', failures: 7 }]);
    expect((await loginCall(s, 'staff06', BAD)).body).toEqual(wrong(4));
  });

  it('counts failures by phone number and by account against the same person', async () => {
    // staff09's phone is 13800000009. A lock earned under one name must hold under the other,
    // or an attacker doubles their guesses and walks into a locked account by its alias.
    for (let i = 0; i < 5; i++) await loginCall(s, 'staff09', BAD);
    await forgetAddress();
    const byPhone = await loginCall(s, demoPhone(9));
    expect(byPhone.body.code).toBe(1003);
    expect(byPhone.body.message).toMatch(LOCKED_RE);
  });

  it('counts a burst of parallel guesses before checking them: five are checked, the rest refused', async () => {
    // Each guess is counted before its password is checked, so parallel guesses cannot all be
    // checked before the first of them locks the account.
    const answers = await Promise.all(Array.from({ length: 12 }, () => loginCall(s, 'staff07', BAD)));
    const messages = answers.map((a) => a.body.message as string);
    const wrongs = messages.filter((m) => m.startsWith('账号或密码错误'));
    expect(wrongs.sort()).toEqual([4, 3, 2, 1].map((n) => `账号或密码错误，还可尝试 ${n} 次`).sort());
    const locks = messages.filter((m) => LOCKED_RE.test(m));
    expect(locks).toHaveLength(8);
    const rows = await s.db.selectFrom('login_attempt').select(['key', 'failures']).orderBy('key').execute();
    expect(rows.map((r) => r.failures)).toEqual([5, 5]);
  });

  it('a right password from an address past its allowance neither counts nor locks it', async () => {
    for (let i = 1; i <= 20; i++) await loginCall(s, `nobody${i}`, BAD);
    await endLocks();
    // The attempt is counted (21st: a 60 s lock) before its password is checked; being right,
    // it is taken back, lock included, so the next person in the same museum gets in.
    expect((await loginCall(s, 'staff01')).body.success).toBe(true);
    expect((await loginCall(s, 'staff02')).body.success).toBe(true);
    const rows = await s.db.selectFrom('login_attempt').selectAll().where('key', 'like', 'ip:%').execute();
    expect(rows).toMatchObject([{ key: 'ip:127.0.0.1', failures: 20, locked_until: 0 }]);
    // A wrong one still counts: the 21st failure locks for 60 s.
    expect((await loginCall(s, 'nobody99', BAD)).body).toEqual(locked(60));
  });

  it('lets twenty people behind one address sign in at once, and leaves no count behind', async () => {
    const accounts = [
      'director',
      ...Array.from({ length: 10 }, (_, i) => `staff${String(i + 1).padStart(2, '0')}`),
    ];
    const answers = await Promise.all([...accounts, ...accounts.slice(0, 9)].map((a) => loginCall(s, a)));
    expect(answers.map((a) => a.body.success)).toEqual(Array<boolean>(20).fill(true));
    const rows = await s.db.selectFrom('login_attempt').select(['key', 'failures']).execute();
    expect(rows).toEqual([]);
  });

  it('limits sign-in calls per minute per address', async () => {
    for (let i = 0; i < LOGIN_CALLS_PER_MINUTE; i++) {
      const res = await s.call('POST', `${M}/login/webLogin`, { body: {} });
      expect(res.status).toBe(400);
    }
    const res = await s.call('POST', `${M}/login/webLogin`, { body: {} });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ success: false, code: 1008, result: null });
    expect(res.body.message).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
