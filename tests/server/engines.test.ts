import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { NUL_REFUSED } from '../../src/server/plugins/nul-guard';
import { driveServiceOf, startServer, type TestServer } from './harness';
import { driveUser, fullName, type DriveUser } from './drive-util';
import { M } from './util';

/*
 * What the two database engines must answer alike (README "Scale-out: PostgreSQL";
 * src/server/db/dialect.ts). This file runs in both passes: on SQLite under `npm run test:unit`
 * and on PostgreSQL under `npm run test:pg`, with the same expectations.
 */

let s: TestServer;
let me: DriveUser;

beforeAll(async () => {
  s = await startServer();
  me = await driveUser(s, 'staff02', driveServiceOf(s));
});
afterAll(() => s.close());

describe('the same answers on either engine', () => {
  it('bigint columns, counts and sums come back as numbers', async () => {
    await me.put('/', '数字.txt', '12345');
    const row = await s.db.selectFrom('user').select(['id', 'created_at']).executeTakeFirstOrThrow();
    expect(typeof row.id).toBe('number');
    expect(typeof row.created_at).toBe('number');
    const agg = await s.db
      .selectFrom('user_file')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('file_size').as('bytes')])
      .where('space', '=', `u:${me.userId}`)
      .executeTakeFirstOrThrow();
    expect(agg).toEqual({ n: 1, bytes: 5 });
    const list = (await me.get('/file/getfilelist', { filePath: '/', currentPage: 1, pageCount: 10 })).body;
    expect(list.data.total).toBe(1);
    expect(list.data.list[0].fileSize).toBe(5);
  });

  it('names are ordered byte for byte, capitals before small letters', async () => {
    const names = ['b', 'B', 'a', 'A', '_x', '中', 'é', 'Z9', 'z1'];
    for (const n of names) await me.mkdir('/', `序-${n}`);
    const rows = (
      await me.get('/file/getfilelist', { filePath: '/', currentPage: 1, pageCount: 50, sortField: 'name' })
    ).body.data.list.filter((r: any) => r.fileName.startsWith('序-'));
    // Code-unit order of these (all in the BMP) is UTF-8 byte order.
    expect(rows.map((r: any) => r.fileName)).toEqual(names.map((n) => `序-${n}`).sort());
  });

  it('search ignores the case of A–Z only, and LIKE wildcards in the text are plain characters', async () => {
    for (const n of ['Report.txt', 'report2.TXT', 'Ärger.txt', 'ärger.txt', '100%_done.txt', '100xxdone.txt'])
      await me.put('/查找/', n, 'x');
    const find = async (fileName: string) =>
      ((await me.get('/file/search', { fileName, currentPage: 1, pageCount: 50 })).body.data.list as any[])
        .filter((r) => r.filePath === '/查找/')
        .map(fullName);
    expect((await find('REPORT')).sort()).toEqual(['Report.txt', 'report2.TXT']);
    expect(await find('.TXT')).toHaveLength(6);
    expect(await find('ärger')).toEqual(['ärger.txt']);
    expect(await find('Ärger')).toEqual(['Ärger.txt']);
    expect(await find('%_')).toEqual(['100%_done.txt']);
    expect(await find('0_d')).toEqual([]);
  });

  it('keyword filters elsewhere ignore A–Z case too (people, by account)', async () => {
    const admin = await s.login('admin');
    const list = async (keyword: string) =>
      (
        await s.call(
          'GET',
          `${M}/sysUser/list?currentPage=1&pageCount=50&keyword=${encodeURIComponent(keyword)}`,
          {
            token: admin,
          },
        )
      ).body.result;
    const upper = await list('STAFF1');
    expect(upper.list.map((u: any) => u.account)).toEqual(['staff10']);
    expect((await list('staff1')).total).toBe(upper.total);
    expect((await list('staff_')).total).toBe(0);
  });

  it('a clash found by the unique index answers the conflict message, not a server error', async () => {
    // Two folders of one name created at once: the service's own check passes for both, the
    // unique live-name index refuses one (SQLITE_CONSTRAINT_UNIQUE or 23505), or it waits and
    // sees the first. Either way exactly one folder, and no 500.
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        me.post('/file/createfile', { filePath: '/', fileName: '同时建的', isDir: 1 }),
      ),
    );
    for (const a of answers) expect(a.status).toBe(200);
    expect(answers.filter((a) => a.body.success)).toHaveLength(1);
    for (const a of answers.filter((x) => !x.body.success)) expect(a.body.message).toBeTruthy();
    expect((await me.names('/')).filter((n) => n.startsWith('同时建的'))).toEqual(['同时建的/']);
  });
});

describe('U+0000, which PostgreSQL text cannot hold', () => {
  it('is refused at the door, in a body or a query, with the same words on both engines', async () => {
    const refused = { success: false, code: 400, message: NUL_REFUSED };
    const project = await s.call('POST', `${M}/project/add`, {
      token: await s.login('staff05'),
      body: { name: '项目', type: 'exhibition', userIds: [], description: 'a\u0000b' },
    });
    expect(project.status).toBe(400);
    expect(project.body).toMatchObject(refused);
    const nested = await me.post('/file/createfile', { filePath: '/', fileName: 'x\u0000', isDir: 1 });
    expect(nested.body).toMatchObject(refused);
    const search = await me.get('/file/search', { fileName: 'a\u0000b', currentPage: 1, pageCount: 10 });
    expect(search.status).toBe(400);
    expect(search.body).toMatchObject(refused);
    const login = await s.call('POST', `${M}/login/webLogin`, {
      body: { username: 'staff01\u0000', password: 'x' },
    });
    expect(login.body).toMatchObject(refused);
    expect(await s.db.selectFrom('project').select('id').where('name', '=', '项目').execute()).toEqual([]);
  });
});

describe('the system log on either engine', () => {
  it('keeps a sign-in typed with U+0000 (the character dropped), and the entries beside it', async () => {
    const admin = await s.login('admin');
    const bad = await s.call('POST', `${M}/login/webLogin`, {
      body: { username: 'ghost\u0000x', password: 'x' },
    });
    expect(bad.body).toMatchObject({ success: false, message: NUL_REFUSED });
    await s.login('staff03');
    await vi.waitFor(
      async () => {
        const res = await s.call('GET', `${M}/sysLog/pageList?pageCount=200`, { token: admin });
        const list = res.body.result.list as { userName: string; action: string }[];
        expect(list).toContainEqual(expect.objectContaining({ userName: 'ghostx', action: '登录失败' }));
        expect(list).toContainEqual(expect.objectContaining({ userName: '赵磊', action: '登录' }));
      },
      { timeout: 8000, interval: 100 },
    );
    // The name filter ignores A–Z case on both engines, as the other keyword filters do.
    const byName = await s.call('GET', `${M}/sysLog/pageList?pageCount=50&userName=GHOST`, { token: admin });
    expect(byName.body.result.list.map((r: { userName: string }) => r.userName)).toEqual(['ghostx']);
  });
});

describe('DATABASE_URL', () => {
  const base = { DATA_DIR: '/tmp/gwy-config-test' };
  it('selects PostgreSQL only for a postgres:// or postgresql:// URL with a database', () => {
    expect(loadConfig(base).databaseUrl).toBeUndefined();
    expect(loadConfig({ ...base, DATABASE_URL: '' }).databaseUrl).toBeUndefined();
    const url = 'postgres://guanwuyun:p%40ss@db.museum.example:5432/guanwuyun?sslmode=require';
    expect(loadConfig({ ...base, DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(loadConfig({ ...base, DATABASE_URL: 'postgresql://u@h/db' }).databaseUrl).toBe(
      'postgresql://u@h/db',
    );
    for (const bad of ['mysql://u@h/db', 'postgres://u@h/', 'db.museum.example', 'sqlite:museum.db'])
      expect(() => loadConfig({ ...base, DATABASE_URL: bad }), bad).toThrow(
        /DATABASE_URL 必须是 PostgreSQL 连接地址/,
      );
  });
  it('keeps the pool between 2 and 500 connections', () => {
    expect(loadConfig(base).databasePoolMax).toBe(10);
    expect(loadConfig({ ...base, DATABASE_POOL_MAX: '40' }).databasePoolMax).toBe(40);
    for (const bad of ['1', '501', 'many'])
      expect(() => loadConfig({ ...base, DATABASE_POOL_MAX: bad }), bad).toThrow(/DATABASE_POOL_MAX/);
  });
  it('prepares statements unless DATABASE_PREPARED is 0 or false', () => {
    expect(loadConfig(base).databasePrepared).toBe(true);
    for (const on of ['', '1', 'true'])
      expect(loadConfig({ ...base, DATABASE_PREPARED: on }).databasePrepared).toBe(true);
    for (const off of ['0', 'false'])
      expect(loadConfig({ ...base, DATABASE_PREPARED: off }).databasePrepared).toBe(false);
    expect(() => loadConfig({ ...base, DATABASE_PREPARED: 'no' })).toThrow(/DATABASE_PREPARED 只能是 1 或 0/);
  });
});
