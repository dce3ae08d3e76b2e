import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/index';
import { WF_MSG } from '../../src/shared/workflow/engine';
import { driveServiceOf, startServer, type TestServer } from './harness';
import { driveUser, W, type DriveUser } from './drive-util';
import { admin, withDatabase } from './postgres';
import { CHUNK, bytes, chunkOf, download, paramsOf, postChunk, testRequest } from './upload-util';
import { M, loginCall } from './util';

/*
 * PostgreSQL only (`npm run test:pg`): two server instances on one database, as a museum group
 * runs them (README "Scale-out: PostgreSQL"). Each instance has its own connection pool and its
 * own in-process locks, so what keeps these races right is the database alone: the row and
 * advisory locks and the conditional UPDATEs of src/server/db/dialect.ts and the repos. The two
 * share one data directory here, standing in for the shared blob store. SQLite is one process's
 * database, so there is nothing of this to run on it.
 */
const pgAdmin = process.env.GWY_TEST_PG;

describe.runIf(pgAdmin)('two instances on one PostgreSQL database', () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    a = await startServer();
    // The same data directory: the harness gives it the same database.
    b = await startServer({}, { dataDir: a.dataDir });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.close();
  });

  it('one upload finished through both at once makes one file', async () => {
    const ua = await driveUser(a, 'staff02', driveServiceOf(a));
    const tokenB = await b.login('staff02');
    for (let round = 0; round < 3; round++) {
      const file = bytes(3 * CHUNK + 17);
      const p = paramsOf(file, `双实例-${round}.bin`);
      expect((await testRequest(a, ua.token, p)).success).toBe(true);
      for (let n = 1; n < p.totalChunks; n++) await postChunk(a, ua.token, p, n, chunkOf(file, p, n));
      const last = chunkOf(file, p, p.totalChunks);
      const [ra, rb] = await Promise.all([
        postChunk(a, ua.token, p, p.totalChunks, last),
        postChunk(b, tokenB, p, p.totalChunks, last),
      ]);
      expect(ra.body, JSON.stringify(ra.body)).toMatchObject({ success: true, data: { done: true } });
      expect(rb.body, JSON.stringify(rb.body)).toMatchObject({ success: true, data: { done: true } });
      expect(rb.body.data.userFileId).toBe(ra.body.data.userFileId);
      expect((await ua.names('/')).filter((n) => n.startsWith(`双实例-${round}`))).toEqual([
        `双实例-${round}.bin`,
      ]);
      expect((await download(b, tokenB, ra.body.data.userFileId)).equals(file)).toBe(true);
    }
  });

  it('two uploads that each fit but not together, finished through different instances: one completes', async () => {
    const svc = driveServiceOf(a);
    const u: DriveUser = await driveUser(a, 'staff04', svc);
    await svc.setQuota(u.userId, 3 * CHUNK);
    const tokenB = await b.login('staff04');
    const fa = bytes(2 * CHUNK);
    const fb = bytes(2 * CHUNK);
    const pa = paramsOf(fa, '甲.bin');
    const pb = paramsOf(fb, '乙.bin');
    // Each session asks before any chunk, while both still fit alone.
    expect((await testRequest(a, u.token, pa)).success).toBe(true);
    expect((await testRequest(b, tokenB, pb)).success).toBe(true);
    const [ra, rb] = await Promise.all([
      postChunk(a, u.token, pa, 1, chunkOf(fa, pa, 1)),
      postChunk(b, tokenB, pb, 1, chunkOf(fb, pb, 1)),
    ]);
    // The room is held from the first chunk: one of the two holds it, the other is refused.
    const answers = [ra.body, rb.body];
    expect(answers.filter((r) => r.success)).toHaveLength(1);
    expect(answers.find((r) => !r.success).message).toMatch(/^存储空间不足/);
    const used = await a.db
      .selectFrom('upload_session')
      .select((eb) => eb.fn.sum<number>('reserved_bytes').as('n'))
      .where('user_id', '=', u.userId)
      .executeTakeFirstOrThrow();
    expect(used.n).toBe(2 * CHUNK);
  });

  it('two any-one approvers deciding through different instances: exactly one wins', async () => {
    const tok = async (s: TestServer, who: string) => s.login(who);
    const post = async (s: TestServer, token: string, p: string, body: unknown) =>
      (await s.call('POST', `${M}${p}`, { token, body })).body;
    const uid = async (account: string) =>
      (await a.db.selectFrom('user').select('id').where('account', '=', account).executeTakeFirstOrThrow())
        .id;
    const adminTok = await tok(a, 'admin');
    const save = await post(a, adminTok, '/workflowTemplate/save', {
      name: '双实例或签',
      category: 'normal',
      definition: {
        fields: [],
        directorMaxLevel: 1,
        flowPermission: [],
        nodeConfig: {
          type: 0,
          nodeName: '发起人',
          childNode: {
            type: 1,
            nodeName: '或签',
            settype: 1,
            examineMode: 1,
            directorLevel: 1,
            nodeUserList: [
              { targetId: await uid('staff01'), type: 1, name: '李明' },
              { targetId: await uid('staff03'), type: 1, name: '赵磊' },
            ],
            deptRoleList: [],
            childNode: null,
          },
        },
      },
    });
    expect(save.success, JSON.stringify(save)).toBe(true);
    expect((await post(a, adminTok, '/workflowTemplate/publish', { id: save.result.id })).success).toBe(true);
    const starter = await tok(a, 'staff02');
    const [t1, t3] = [await tok(a, 'staff01'), await tok(b, 'staff03')];
    for (let round = 0; round < 3; round++) {
      const id = (await post(a, starter, '/workflowInst/start', { templateId: save.result.id, form: {} }))
        .result.actvityId as number;
      const [x, y] = await Promise.all([
        post(a, t1, '/workflowInst/approval', { actvityId: id, action: 2 }),
        post(b, t3, '/workflowInst/approval', { actvityId: id, action: 3, reason: '不行' }),
      ]);
      expect([x.success, y.success].sort()).toEqual([false, true]);
      expect((x.success ? y : x).message).toBe(WF_MSG.settledByOther);
      const detail = await post(b, starter, '/workflowInst/data', { actvityId: id });
      const node = detail.result.approval[0];
      expect(node.nodeUserList.filter((p: any) => p.status !== null)).toHaveLength(1);
    }
  });

  it('one task edited from the same version through both instances: one edit applies, the other is told', async () => {
    const post = async (s: TestServer, token: string, p: string, body: unknown) =>
      (await s.call('POST', `${M}${p}`, { token, body })).body;
    const ta = await a.login('staff05');
    const tb = await b.login('staff05');
    const project = await post(a, ta, '/project/add', {
      name: '双实例项目',
      type: 'exhibition',
      userIds: [],
    });
    const board = (
      await a.call('GET', `${M}/project/board?projectId=${project.result.projectId}`, { token: ta })
    ).body.result;
    const task = (
      await post(a, ta, '/projectTask/addProjectTask', { taskName: '原名', blockId: board.blocks[0].blockId })
    ).result;
    const edit = (s: TestServer, token: string, taskName: string) =>
      post(s, token, '/projectTask/updateProjectTask', {
        taskId: task.taskId,
        ext1: 'taskName',
        taskName,
        version: task.version,
      });
    const [x, y] = await Promise.all([edit(a, ta, '甲改的'), edit(b, tb, '乙改的')]);
    expect([x.success, y.success].sort()).toEqual([false, true]);
    expect((x.success ? y : x).message).toMatch(/^该任务已被.+修改，请刷新后再试$/);
    const now = (await post(b, tb, '/projectTask/getProjectTask', { taskId: task.taskId })).result;
    expect(now.taskName).toBe(x.success ? '甲改的' : '乙改的');
    expect(now.version).toBe(task.version + 1);
  });

  it('one attachment sent with two requests at once, through both instances, is bound to one of them', async () => {
    const ta = await a.login('staff02');
    const tb = await b.login('staff02');
    const tplId = (
      await a.db
        .selectFrom('approval_template')
        .select('id')
        .where('name', '=', '报销')
        .executeTakeFirstOrThrow()
    ).id;
    for (let round = 0; round < 3; round++) {
      const fd = new FormData();
      fd.append('tableName', 'approval');
      fd.append('file', new Blob([`票据${round}`]), '发票.pdf');
      const up = (await (
        await fetch(`${a.url}${M}/attach/upload`, { method: 'POST', headers: { token: ta }, body: fd })
      ).json()) as any;
      expect(up.success, JSON.stringify(up)).toBe(true);
      const attId = up.result.attId as number;
      const start = (s: TestServer, token: string) =>
        s.call('POST', `${M}/workflowInst/start`, {
          token,
          body: { templateId: tplId, form: { amount: 100, reason: '购买展陈材料', invoices: [attId] } },
        });
      const [x, y] = await Promise.all([start(a, ta), start(b, tb)]);
      expect([x.body.success, y.body.success].sort()).toEqual([false, true]);
      const won = (x.body.success ? x : y).body.result.actvityId as number;
      const row = await a.db
        .selectFrom('attachment')
        .select('record_id')
        .where('id', '=', attId)
        .executeTakeFirstOrThrow();
      expect(row.record_id).toBe(won);
      expect(
        await a.db.selectFrom('approval_request').select('id').where('id', '=', won).execute(),
      ).toHaveLength(1);
    }
  });

  it('departments changed through both instances at once keep their rules: one name per parent, no cycles', async () => {
    const ta = await a.login('admin');
    const tb = await b.login('admin');
    const save = (s: TestServer, token: string, body: unknown) =>
      s.call('POST', `${M}/sysDept/save`, { token, body }).then((r) => r.body);
    const update = (s: TestServer, token: string, body: unknown) =>
      s.call('POST', `${M}/sysDept/update`, { token, body }).then((r) => r.body);
    for (let round = 0; round < 3; round++) {
      const [x, y] = await Promise.all([
        save(a, ta, { name: `库房${round}`, parentId: null }),
        save(b, tb, { name: `库房${round}`, parentId: null }),
      ]);
      expect([x.success, y.success].sort()).toEqual([false, true]);
      expect((x.success ? y : x).message).toBe(`同一上级下已有部门“库房${round}”`);
    }
    for (let round = 0; round < 3; round++) {
      const p = (await save(a, ta, { name: `甲${round}`, parentId: null })).result.id as number;
      const q = (await save(a, ta, { name: `乙${round}`, parentId: null })).result.id as number;
      // p under q and q under p at the same moment: each alone is fine, both make a cycle.
      const [x, y] = await Promise.all([
        update(a, ta, { id: p, name: `甲${round}`, parentId: q }),
        update(b, tb, { id: q, name: `乙${round}`, parentId: p }),
      ]);
      expect([x.success, y.success].sort()).toEqual([false, true]);
      expect((x.success ? y : x).message).toBe('不能把部门移动到它自己或它的下级部门之下');
    }
  });

  it('a burst of wrong passwords through both instances is counted one by one', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => loginCall(i % 2 ? b : a, 'staff06', 'Wrong#password1')),
    );
    const messages = answers.map((r) => r.body.message as string);
    expect(messages.filter((m) => m.startsWith('账号或密码错误')).sort()).toEqual(
      [4, 3, 2, 1].map((n) => `账号或密码错误，还可尝试 ${n} 次`).sort(),
    );
    expect(messages.filter((m) => m.startsWith('登录失败次数过多'))).toHaveLength(8);
  });

  it('the folder listing answers the same through either instance', async () => {
    const u = await driveUser(a, 'staff10', driveServiceOf(a));
    await u.mkdir('/', '共同');
    const tokenB = await b.login('staff10');
    const viaB = await b.call('GET', `${W}/file/getfilelist?filePath=/&currentPage=1&pageCount=10`, {
      token: tokenB,
    });
    expect(viaB.body.data.list.map((r: any) => r.fileName)).toEqual(['共同']);
  });
});

describe.runIf(pgAdmin)('the frozen migrations on PostgreSQL', () => {
  it('make the same tables, columns and indexes as on SQLite', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-schema-'));
    const lite = await openDatabase(path.join(dir, 'museum.sqlite'));
    const s = await startServer();
    try {
      const liteTables = await sql<{ name: string }>`
        select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(
        lite,
      );
      const sqliteShape: Record<string, string[]> = {};
      for (const { name } of liteTables.rows) {
        const cols = await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(lite);
        sqliteShape[name] = cols.rows.map((c) => c.name).sort();
      }
      const pgCols = await sql<{ table_name: string; column_name: string }>`
        select table_name, column_name from information_schema.columns
        where table_schema = 'public' order by table_name, column_name`.execute(s.db);
      const pgShape: Record<string, string[]> = {};
      for (const c of pgCols.rows) (pgShape[c.table_name] ??= []).push(c.column_name);
      for (const cols of Object.values(pgShape)) cols.sort();
      expect(pgShape).toEqual(sqliteShape);

      const liteIdx = await sql<{ name: string }>`
        select name from sqlite_master where type = 'index' and sql is not null order by name`.execute(lite);
      const pgIdx = await sql<{ indexname: string }>`
        select indexname from pg_indexes where schemaname = 'public' order by indexname`.execute(s.db);
      // PostgreSQL also names the indexes behind its primary keys and unique columns; every
      // index a migration creates by name is there on both.
      expect(pgIdx.rows.map((r) => r.indexname)).toEqual(
        expect.arrayContaining(liteIdx.rows.map((r) => r.name)),
      );
    } finally {
      await s.close();
      await lite.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(pgAdmin)('a PostgreSQL database the server cannot serve like SQLite', () => {
  const made: string[] = [];
  afterAll(async () => {
    for (const name of made) await admin(pgAdmin!, `drop database if exists "${name}" with (force)`);
  });
  async function refused(name: string, options: string) {
    made.push(name);
    await admin(pgAdmin!, `create database "${name}" template template0 ${options}`);
    const opening = openDatabase({ dbFile: '', databaseUrl: withDatabase(pgAdmin!, name) });
    await expect(opening).rejects.toThrow(/馆务云需要 UTF8 编码和 C 排序规则/);
    // Refused before any migration: nothing was created in it.
    const tables = await admin(
      withDatabase(pgAdmin!, name),
      "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
    );
    expect(tables[0].n).toBe(0);
  }

  it('is refused at start when its collation is not C', () =>
    refused(`gwy_collate_${process.pid}`, "encoding 'UTF8' lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8'"));

  it('is refused at start when it is not UTF-8', () =>
    refused(`gwy_ascii_${process.pid}`, "encoding 'SQL_ASCII' lc_collate 'C' lc_ctype 'C'"));

  it('an unreachable server says so, naming DATABASE_URL', async () => {
    const u = new URL(pgAdmin!);
    u.port = '1';
    await expect(openDatabase({ dbFile: '', databaseUrl: u.href })).rejects.toThrow(
      /无法连接 PostgreSQL（DATABASE_URL）/,
    );
  });
});
