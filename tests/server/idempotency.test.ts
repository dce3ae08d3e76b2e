import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M, deptTree, failure, flatten } from './util';

/*
 * `Idempotency-Key` on mutations (ARCHITECTURE.md §3): a replay by the same user answers the
 * first answer verbatim and changes nothing; the offline outbox relies on it.
 */

let s: TestServer;
let admin: string;
let staff09: string;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login('admin');
  staff09 = await s.login('staff09');
});
afterAll(() => s.close());

function save(body: unknown, key: string, token = admin, path = '/sysDept/save') {
  return s.call('POST', `${M}${path}`, { token, body, headers: { 'idempotency-key': key } });
}
async function countNamed(name: string) {
  return flatten(await deptTree(s, admin)).filter((d) => d.name === name).length;
}

describe('Idempotency-Key', () => {
  it('answers a replay with the first answer and creates only once', async () => {
    const key = randomUUID();
    const first = await save({ name: '幂等部' }, key);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      success: true,
      code: 0,
      message: '成功',
      result: { id: expect.any(Number) },
    });
    expect(first.headers.get('idempotent-replay')).toBeNull();

    const second = await save({ name: '幂等部' }, key);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replay')).toBe('true');
    expect(second.headers.get('content-type')).toMatch(/^application\/json/);

    const third = await save({ name: '幂等部' }, key);
    expect(third.body.result.id).toBe(first.body.result.id);
    expect(await countNamed('幂等部')).toBe(1);
  });

  it('keeps keys per user: the same key by another user runs on its own', async () => {
    const key = randomUUID();
    const mine = await save({ name: '甲组' }, key);
    const theirs = await save({ name: '乙组' }, key, staff09);
    expect(mine.body.success).toBe(true);
    expect(theirs.body.success).toBe(true);
    expect(theirs.headers.get('idempotent-replay')).toBeNull();
    expect(theirs.body.result.id).not.toBe(mine.body.result.id);
    expect(await countNamed('甲组')).toBe(1);
    expect(await countNamed('乙组')).toBe(1);
  });

  it('refuses a key reused on another path with HTTP 422', async () => {
    const key = randomUUID();
    const first = await save({ name: '丙组' }, key);
    expect(first.body.success).toBe(true);
    const id = first.body.result.id;
    const other = await save({ id, name: '丁组', parentId: null }, key, admin, '/sysDept/update');
    expect(other.status).toBe(422);
    expect(other.body).toEqual(failure(1010, '该 Idempotency-Key 已用于另一个请求'));
    const role = await save({ code: 'idemRole', name: '某角色' }, key, admin, '/sysRole/save');
    expect(role.status).toBe(422);
    expect(await countNamed('丁组')).toBe(0);
    const roles = (await s.call('GET', `${M}/sysRole/list`, { token: admin })).body.result;
    expect(roles.some((r: { code: string }) => r.code === 'idemRole')).toBe(false);
  });

  it('refuses a malformed key with HTTP 400 and runs nothing', async () => {
    const message = 'Idempotency-Key 格式不正确（8–100 位字母、数字或 _.:-）';
    for (const key of [
      'x',
      'short',
      'has space in it',
      'slash/slash/slash',
      'percent%20key',
      'k'.repeat(101),
    ]) {
      const res = await save({ name: '坏键部' }, key);
      expect(res.status, key).toBe(400);
      expect(res.body, key).toEqual(failure(400, message));
    }
    expect(await countNamed('坏键部')).toBe(0);
    // Keys of the allowed alphabet and lengths pass.
    for (const key of ['abcdefgh', 'a_b.c:d-e', 'K'.repeat(100)]) {
      const res = await save({ name: `好键部${key.length}${key.slice(0, 3)}` }, key);
      expect(res.body.success, key).toBe(true);
    }
  });

  it('replays a business failure as the same failure, even after its cause is gone', async () => {
    const seed = await save({ name: '重名部' }, randomUUID());
    expect(seed.body.success).toBe(true);
    const key = randomUUID();
    const first = await save({ name: '重名部' }, key);
    expect(first.body).toEqual(failure(1007, '同一上级下已有部门“重名部”'));
    const again = await save({ name: '重名部' }, key);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replay')).toBe('true');

    await s.call('POST', `${M}/sysDept/delete`, { token: admin, body: { id: seed.body.result.id } });
    const afterDelete = await save({ name: '重名部' }, key);
    expect(afterDelete.body).toEqual(first.body);
    expect(await countNamed('重名部')).toBe(0);
  });

  it('answers the first answer for the same key and path even with another body', async () => {
    const key = randomUUID();
    const first = await save({ name: '戊组' }, key);
    const second = await save({ name: '己组' }, key);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replay')).toBe('true');
    expect(await countNamed('己组')).toBe(0);
  });

  it('does not spend a key on a request refused by validation', async () => {
    const key = randomUUID();
    const bad = await save({ name: '' }, key);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(failure(400, '请输入部门名称'));
    const good = await save({ name: '庚组' }, key);
    expect(good.body.success).toBe(true);
    expect(good.headers.get('idempotent-replay')).toBeNull();
  });

  it('answers 409 to a second request with the key while the first is still running', async () => {
    const key = randomUUID();
    const body = { account: 'idem01', password: 'Abc@123', userName: '幂等', phone: '' };
    const answers = await Promise.all([
      save(body, key, admin, '/sysUser/save'),
      save(body, key, admin, '/sysUser/save'),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409]);
    const done = answers.find((a) => a.status === 200)!;
    const busy = answers.find((a) => a.status === 409)!;
    expect(done.body).toEqual({
      success: true,
      code: 0,
      message: '成功',
      result: { userId: expect.any(Number) },
    });
    expect(busy.body).toEqual(failure(1009, '相同的请求正在处理中，请稍候'));

    const replay = await save(body, key, admin, '/sysUser/save');
    expect(replay.body).toEqual(done.body);
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    const list = await s.call('GET', `${M}/sysUser/list?keyword=idem01`, { token: admin });
    expect(list.body.result.total).toBe(1);
  });

  it('ignores the key on reads and checks the session first', async () => {
    const read = await s.call('GET', `${M}/sysDept/tree`, {
      token: admin,
      headers: { 'idempotency-key': 'x' },
    });
    expect(read.status).toBe(200);
    const anon = await s.call('POST', `${M}/sysDept/save`, {
      body: { name: '匿名部' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(anon.status).toBe(999);
  });
});
