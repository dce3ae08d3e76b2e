import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('session check', () => {
  it('answers HTTP 999 without a token', async () => {
    const res = await s.call('GET', '/singleMuseum/login/menu');
    expect(res.status).toBe(999);
    expect(res.body).toEqual({ success: false, code: 999, message: '登录超时，请重新登录', result: null });
  });
  it('signs in and reads the menu', async () => {
    const token = await s.login('staff02');
    const res = await s.call('GET', '/singleMuseum/login/menu', { token });
    expect(res.status).toBe(200);
    expect(res.body.result.modules.map((m: { key: string }) => m.key)).toEqual([
      'home',
      'oa',
      'book',
      'resources',
    ]);
  });
});
