import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { RouteOptions } from 'fastify';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOG_COLUMNS, type LogRow } from '../../src/shared/api/syslog';
import { parseMuseumTime } from '../../src/shared/rules/museum-time';
import { loadConfig } from '../../src/server/config';
import * as repo from '../../src/server/modules/syslog/syslog.repo';
import { createSyslog, pruneSystemLog } from '../../src/server/modules/syslog/syslog.service';
import { isPostgres } from '../../src/server/db/dialect';
import { startServer, type TestServer } from './harness';
import { M, deptIdByName } from './util';

/**
 * Issue 18, the system log, read side: who may read it, its filters and paging, the export, the
 * retention and its prune, that a failing writer never fails a request, and that no call edits
 * or deletes an entry.
 */

let s: TestServer;
let admin: string;
const routes: RouteOptions[] = [];

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' }, { onRoute: (r) => void routes.push(r) });
  admin = await s.login('admin');
});
afterAll(async () => s?.close());

const get = (token: string, p: string) => s.call('GET', `${M}${p}`, { token });
const qs = (q: Record<string, string | number>) =>
  new URLSearchParams(Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)]))).toString();
const at = (t: string) => parseMuseumTime(t)!;

/** A stored entry with defaults, for the filter tests (written as the writer writes). */
function row(r: Partial<repo.NewLogRow> & { time: number }): repo.NewLogRow {
  return {
    user_id: null,
    user_name: '',
    ip: '127.0.0.1',
    user_agent: 'test',
    module: '网盘',
    action: '新增',
    target_table: null,
    target_id: null,
    method: 'POST',
    path: '/wangpan/file/createfile',
    params: null,
    result: 1,
    error_message: null,
    duration_ms: 3,
    ...r,
  };
}

describe('who may read it', () => {
  let auditor: string;
  beforeAll(async () => {
    const auditorRole = await s.db
      .selectFrom('role')
      .select('id')
      .where('code', '=', 'auditor')
      .executeTakeFirstOrThrow();
    const made = await s.call('POST', `${M}/sysUser/save`, {
      token: admin,
      body: {
        account: 'audit01',
        password: 'Audit#2026',
        userName: '审计甲',
        phone: '13912340001',
        roleIds: [auditorRole.id],
      },
    });
    expect(made.body.success, JSON.stringify(made.body)).toBe(true);
    auditor = await s.login('audit01', 'Audit#2026');
  });

  const calls = ['/sysLog/pageList', '/sysLog/detail?id=1', '/sysLog/options', '/sysLog/export'];

  it('refuses staff, also an IT administrator who holds the rest of 系统管理', async () => {
    for (const account of ['staff02', 'staff01', 'staff09']) {
      const token = await s.login(account);
      for (const c of calls) {
        const res = await get(token, c);
        expect(res.body, `${account} ${c}`).toMatchObject({
          success: false,
          code: 1005,
          message: '无权限执行此操作，请联系管理员开通',
        });
      }
      const menu = await get(token, '/login/menu');
      expect(menu.body.result.grantedKeys).not.toContain('system.log');
    }
  });

  it('lets the auditor read, and the auditor sees only 系统日志', async () => {
    for (const c of calls.slice(0, 3)) {
      const res = await get(auditor, c.replace('id=1', `id=${await firstId()}`));
      expect(res.body.success, c).toBe(true);
    }
    const exp = await fetch(`${s.url}${M}/sysLog/export`, { headers: { token: auditor } });
    expect(exp.status).toBe(200);
    await exp.arrayBuffer();
    const menu = await get(auditor, '/login/menu');
    expect(menu.body.result.grantedKeys).toEqual(['system.log']);
    expect(menu.body.result.modules.map((m: { key: string }) => m.key)).toEqual(['system']);
  });

  it('lets the administrator read', async () => {
    expect((await get(admin, '/sysLog/pageList')).body.success).toBe(true);
    expect((await get(admin, '/sysLog/options')).body.result.actions).toContain('查看证件号');
  });

  it('keeps 系统日志 for the auditor role: granting it to another role is refused', async () => {
    const roles = (await get(admin, '/sysRole/list')).body.result as {
      roleId: number;
      code: string;
      menuKeys: string[];
    }[];
    const it = roles.find((r) => r.code === 'itAdmin')!;
    const res = await s.call('POST', `${M}/sysRole/setMenus`, {
      token: admin,
      body: { roleId: it.roleId, menuKeys: [...it.menuKeys, 'system.log'] },
    });
    expect(res.body).toMatchObject({
      success: false,
      message: '“系统日志”只能授予审计员角色，请取消勾选后再保存',
    });
    const aud = roles.find((r) => r.code === 'auditor')!;
    const ok = await s.call('POST', `${M}/sysRole/setMenus`, {
      token: admin,
      body: { roleId: aud.roleId, menuKeys: ['system.log', 'home.workbench'] },
    });
    expect(ok.body.success).toBe(true);
  });

  it('ignores a grant of 系统日志 left on another role from before', async () => {
    const it = await s.db
      .selectFrom('role')
      .select('id')
      .where('code', '=', 'itAdmin')
      .executeTakeFirstOrThrow();
    await s.db.insertInto('role_menu').values({ role_id: it.id, menu_key: 'system.log' }).execute();
    const token = await s.login('staff09');
    expect((await get(token, '/sysLog/pageList')).body.code).toBe(1005);
    expect((await get(token, '/login/menu')).body.result.grantedKeys).not.toContain('system.log');
    await s.db
      .deleteFrom('role_menu')
      .where('role_id', '=', it.id)
      .where('menu_key', '=', 'system.log')
      .execute();
  });
});

async function firstId(): Promise<number> {
  const r = await s.db.selectFrom('system_log').select('id').orderBy('id').executeTakeFirst();
  if (r) return r.id;
  await repo.insertMany(s.db, [row({ time: Date.now() })]);
  return firstId();
}

describe('filters and paging', () => {
  const W = { startTime: '2020-06-01', endTime: '2020-06-03' };
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    const rows: [string, repo.NewLogRow][] = [
      ['r1', row({ time: at('2020-06-01 09:00:00'), user_id: 2, user_name: '李明', ip: '192.168.1.20' })],
      [
        'r2',
        row({
          time: at('2020-06-01 10:00:00'),
          user_id: 3,
          user_name: '王芳',
          ip: '192.168.1.21',
          module: '审批',
          action: '审批',
        }),
      ],
      [
        'r3',
        row({
          time: at('2020-06-02 23:59:59'),
          user_name: 'staff99',
          ip: '10.0.0.5',
          module: '登录',
          action: '登录失败',
          result: 0,
          error_message: '账号或密码错误，还可尝试 4 次',
        }),
      ],
      [
        'r4',
        row({
          time: at('2020-06-03 00:00:00'),
          user_id: 2,
          user_name: '李明',
          ip: '192.168.2.7',
          action: '删除',
        }),
      ],
      [
        'r5',
        row({
          time: at('2020-06-03 12:00:00'),
          user_id: 3,
          user_name: '王芳',
          ip: '10.0.0.5',
          action: '修改',
          result: 0,
        }),
      ],
      ['outside', row({ time: at('2020-06-04 00:00:00'), user_id: 2, user_name: '李明' })],
    ];
    await repo.insertMany(
      s.db,
      rows.map(([, r]) => r),
    );
    for (const [name, r] of rows) {
      const got = await s.db
        .selectFrom('system_log')
        .select('id')
        .where('time', '=', r.time)
        .executeTakeFirstOrThrow();
      ids[name] = got.id;
    }
  });

  async function list(q: Record<string, string | number>) {
    const res = await get(admin, `/sysLog/pageList?${qs({ ...W, ...q })}`);
    expect(res.body.success, JSON.stringify(res.body)).toBe(true);
    const { list, total } = res.body.result as { list: LogRow[]; total: number };
    const names = list.map((r) => Object.entries(ids).find(([, id]) => id === r.id)?.[0]);
    return { names, total, list };
  }

  it('lists a time range newest first; a date alone as the end means that whole day', async () => {
    expect(await list({})).toMatchObject({ names: ['r5', 'r4', 'r3', 'r2', 'r1'], total: 5 });
    expect((await list({ endTime: '2020-06-02' })).names).toEqual(['r3', 'r2', 'r1']);
    expect((await list({ startTime: '2020-06-01 09:30' })).names).toEqual(['r5', 'r4', 'r3', 'r2']);
    expect((await list({ endTime: '2020-06-03 00:00:00' })).names).toEqual(['r4', 'r3', 'r2', 'r1']);
  });

  it('filters by person, module, action, result and address', async () => {
    expect((await list({ userId: 2 })).names).toEqual(['r4', 'r1']);
    expect((await list({ userName: '王' })).names).toEqual(['r5', 'r2']);
    expect((await list({ userName: 'staff' })).names).toEqual(['r3']);
    expect((await list({ userName: '%' })).names).toEqual([]);
    expect((await list({ module: '网盘' })).names).toEqual(['r5', 'r4', 'r1']);
    expect((await list({ action: '登录失败' })).names).toEqual(['r3']);
    expect((await list({ result: 0 })).names).toEqual(['r5', 'r3']);
    expect((await list({ ip: '192.168.1.' })).names).toEqual(['r2', 'r1']);
    expect((await list({ ip: '10.0.0.5' })).names).toEqual(['r5', 'r3']);
    expect((await list({ userId: 2, action: '删除' })).names).toEqual(['r4']);
    // Empty filters, as a form sends them, filter nothing.
    expect((await list({ userId: '', module: '', action: '', result: '', ip: '' })).total).toBe(5);
  });

  it('pages with currentPage and pageCount, the total on every page', async () => {
    expect(await list({ pageCount: 2, currentPage: 1 })).toMatchObject({ names: ['r5', 'r4'], total: 5 });
    expect(await list({ pageCount: 2, currentPage: 2 })).toMatchObject({ names: ['r3', 'r2'], total: 5 });
    expect(await list({ pageCount: 2, currentPage: 3 })).toMatchObject({ names: ['r1'], total: 5 });
    expect(await list({ pageCount: 2, currentPage: 4 })).toMatchObject({ names: [], total: 5 });
  });

  it('refuses bad filters in words a person can act on', async () => {
    const bad = async (q: Record<string, string | number>) => {
      const res = await get(admin, `/sysLog/pageList?${qs(q)}`);
      expect(res.status).toBe(400);
      return res.body.message as string;
    };
    expect(await bad({ startTime: '2020-06-03', endTime: '2020-06-01' })).toBe('开始时间不能晚于结束时间');
    expect(await bad({ startTime: '2020-13-01' })).toBe(
      '开始时间“2020-13-01”不正确，格式应为 yyyy-MM-dd 或 yyyy-MM-dd HH:mm:ss',
    );
    expect(await bad({ action: '看看' })).toContain('操作只能是登录、登出');
    expect(await bad({ result: 2 })).toBe('结果只能是 1（成功）或 0（失败）');
    expect(await bad({ ip: '1.2.3.4;drop' })).toContain('地址只能包含');
    expect(await bad({ pageCount: 500 })).toContain('每页条数');
  });

  it('answers one entry in detail, and says when it does not exist', async () => {
    const res = await get(admin, `/sysLog/detail?id=${ids.r3}`);
    expect(res.body.result).toMatchObject({
      id: ids.r3,
      time: '2020-06-02 23:59:59',
      userId: null,
      userName: 'staff99',
      action: '登录失败',
      result: 0,
      errorMessage: '账号或密码错误，还可尝试 4 次',
    });
    expect((await get(admin, '/sysLog/detail?id=99999999')).body).toMatchObject({
      success: false,
      code: 404,
      message: '该日志不存在，请刷新后重试',
    });
  });

  it('offers the known modules and any other the log holds', async () => {
    await repo.insertMany(s.db, [row({ time: at('2020-01-01 00:00:00'), module: 'somethingNew' })]);
    const { modules, actions } = (await get(admin, '/sysLog/options')).body.result as {
      modules: string[];
      actions: string[];
    };
    expect(modules.slice(0, 3)).toEqual(['登录', '个人中心', '通知']);
    expect(modules).toContain('somethingNew');
    expect(actions).toEqual([
      '登录',
      '登出',
      '登录失败',
      '新增',
      '修改',
      '删除',
      '审批',
      '导出',
      '下载',
      '查看证件号',
    ]);
  });

  it('exports the filtered entries as xlsx, newest first, with the column titles', async () => {
    const res = await fetch(`${s.url}${M}/sysLog/export?${qs(W)}`, { headers: { token: admin } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(decodeURIComponent(res.headers.get('content-disposition') ?? '')).toMatch(/系统日志_\d{14}\.xlsx/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(new Uint8Array(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('系统日志')!;
    const values = (n: number) => (ws.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual(LOG_COLUMNS.map((c) => c.title));
    expect(ws.rowCount).toBe(6);
    expect(values(2).slice(0, 2)).toEqual(['2020-06-03 12:00:00', '王芳']);
    const resultCol = LOG_COLUMNS.findIndex((c) => c.key === 'result');
    expect(values(2)[resultCol]).toBe('失败');
    expect(values(6)[resultCol]).toBe('成功');
  });

  it('refuses an export wider than the limit, saying how many and what to do', async () => {
    const small = createSyslog({ db: s.db, report: () => {}, exportMax: 3 });
    await expect(
      small.exportRows({ startTime: at('2020-06-01 00:00:00'), endTime: at('2020-06-03 23:59:59') }),
    ).rejects.toThrow('符合条件的日志共 5 条，超过单次导出上限 3 条，请缩小时间范围或增加筛选条件后再导出');
  });
});

describe('retention', () => {
  const DAY = 86_400_000;

  it('prunes entries older than the setting and keeps the newer', async () => {
    const now = Date.now();
    const ages = [400, 366, 364, 1];
    await repo.insertMany(
      s.db,
      ages.map((d) => row({ time: now - d * DAY, module: '保留测试', target_id: String(d) })),
    );
    // The two of these, and the 2020 entries of the filter tests.
    expect(await pruneSystemLog(s.db, 365, now)).toBeGreaterThanOrEqual(2);
    const left = await s.db
      .selectFrom('system_log')
      .select('target_id')
      .where('module', '=', '保留测试')
      .execute();
    expect(left.map((r) => r.target_id).sort()).toEqual(['1', '364']);
  });

  it('prunes at start with LOG_RETENTION_DAYS', async () => {
    const other = await startServer();
    const dataDir = other.dataDir;
    const now = Date.now();
    await repo.insertMany(other.db, [
      row({ time: now - 300 * DAY, target_id: 'old' }),
      row({ time: now - 100 * DAY, target_id: 'young' }),
    ]);
    await other.stop();
    const again = await startServer({ LOG_RETENTION_DAYS: '200' }, { dataDir });
    try {
      const left = await again.db
        .selectFrom('system_log')
        .select('target_id')
        .where('target_id', 'in', ['old', 'young'])
        .execute();
      expect(left.map((r) => r.target_id)).toEqual(['young']);
    } finally {
      await again.close();
    }
  });

  it('refuses a retention under 180 days at start, citing the law', () => {
    expect(loadConfig({}).logRetentionDays).toBe(365);
    expect(loadConfig({ LOG_RETENTION_DAYS: '180' }).logRetentionDays).toBe(180);
    expect(() => loadConfig({ LOG_RETENTION_DAYS: '179' })).toThrow(
      /系统日志保留天数不能少于 180 天：《网络安全法》第二十一条要求网络日志留存不少于六个月/,
    );
    expect(() => loadConfig({ LOG_RETENTION_DAYS: '30' })).toThrow(/LOG_RETENTION_DAYS/);
    expect(() => loadConfig({ LOG_RETENTION_DAYS: 'abc' })).toThrow(/LOG_RETENTION_DAYS 必须是天数/);
  });
});

describe('a failing writer', () => {
  it('never fails the request; the failure is in the server log, and the entry is written once it can be', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = await startServer({}, { logger: { level: 'error', stream } });
    try {
      const token = await t.login('admin');
      await sql`alter table system_log rename to system_log_away`.execute(t.db);
      const root = await deptIdByName(t, token, '博物馆');
      const res = await t.call('POST', `${M}/sysDept/save`, {
        token,
        body: { name: '断电测试部', parentId: root },
      });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      await vi.waitFor(() => expect(lines.join('')).toContain('system log write failed'), { timeout: 5000 });
      await sql`alter table system_log_away rename to system_log`.execute(t.db);
      await vi.waitFor(
        async () => {
          const list = (
            await t.call('GET', `${M}/sysLog/pageList?module=${encodeURIComponent('组织架构')}`, { token })
          ).body.result.list as LogRow[];
          expect(list.map((r) => r.params)).toContainEqual({ name: '断电测试部', parentId: root });
        },
        { timeout: 10_000, interval: 100 },
      );
    } finally {
      await t.close();
    }
  });
});

describe('nobody edits or deletes an entry', () => {
  it('has no call that changes the log: /sysLog has only reads', () => {
    const own = routes.filter((r) => String(r.url).startsWith(`${M}/sysLog/`) && r.method !== 'HEAD');
    expect(own.map((r) => `${String(r.method)} ${r.url}`).sort()).toEqual([
      'GET /singleMuseum/sysLog/detail',
      'GET /singleMuseum/sysLog/export',
      'GET /singleMuseum/sysLog/options',
      'GET /singleMuseum/sysLog/pageList',
    ]);
  });

  it('names the table for a change only in its repo, whose only delete is the retention prune', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts')) files.push(p);
      }
    };
    walk(path.resolve('src'));
    const changes =
      /(updateTable|deleteFrom|insertInto)\(\s*'system_log'|\b(update|delete\s+from|insert\s+into|drop\s+table|alter\s+table)\s+"?system_log\b/gi;
    const found: string[] = [];
    for (const f of files) {
      for (const m of fs.readFileSync(f, 'utf8').matchAll(changes))
        found.push(`${path.relative(process.cwd(), f)}: ${m[0]}`);
    }
    expect(found.sort()).toEqual([
      "src/server/modules/syslog/syslog.repo.ts: deleteFrom('system_log'",
      "src/server/modules/syslog/syslog.repo.ts: insertInto('system_log'",
    ]);
  });

  // Every route of the product, one call each: seconds of work that grows with each module, so it
  // has a limit of its own rather than the suite's 20 s per test.
  it('walks every registered route as the administrator and none updates or deletes an entry', async () => {
    await sql`create table log_tamper (kind text)`.execute(s.db);
    if (isPostgres(s.db)) {
      // The same watch in PostgreSQL's words (a trigger runs a function there).
      await sql`create function log_tamper_watch() returns trigger language plpgsql as $$
        begin insert into log_tamper values (lower(tg_op)); return null; end $$`.execute(s.db);
      await sql`create trigger system_log_watch after update or delete on system_log
        for each row execute function log_tamper_watch()`.execute(s.db);
    } else {
      await sql`create trigger system_log_watch_update after update on system_log begin insert into log_tamper values ('update'); end`.execute(
        s.db,
      );
      await sql`create trigger system_log_watch_delete after delete on system_log begin insert into log_tamper values ('delete'); end`.execute(
        s.db,
      );
    }
    const before = await repo.count(s.db, {});
    const walker = await s.login('admin');
    const walked = routes
      .filter((r) => !String(r.url).endsWith('/notice/stream'))
      .flatMap((r) =>
        (Array.isArray(r.method) ? r.method : [r.method]).map((m) => ({ method: m, url: String(r.url) })),
      )
      .filter((r) => r.method !== 'HEAD')
      // Signing out last, so the walk keeps its session.
      .sort((a, b) => Number(a.url.endsWith('/logout')) - Number(b.url.endsWith('/logout')));
    for (const r of walked) {
      const url = r.url.replace(/:(\w+)/g, '1').replace(/\*$/, '');
      await fetch(`${s.url}${url}?id=1`, {
        method: r.method,
        headers: { token: walker, ...(r.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
        body: r.method === 'GET' ? undefined : '{}',
        signal: AbortSignal.timeout(15_000),
      })
        .then((res) => res.arrayBuffer())
        .catch(() => undefined);
    }
    expect(walked.length).toBeGreaterThan(150);
    const tamper = await sql<{ kind: string }>`select kind from log_tamper`.execute(s.db);
    expect(tamper.rows).toEqual([]);
    // The watch works: the prune's delete is seen.
    await repo.insertMany(s.db, [row({ time: 0 })]);
    expect(await repo.pruneOlderThan(s.db, 1)).toBe(1);
    expect((await sql<{ kind: string }>`select kind from log_tamper`.execute(s.db)).rows).toEqual([
      { kind: 'delete' },
    ]);
    // The walk's writes were logged (inserted), while nothing was updated or deleted.
    await vi.waitFor(async () => expect(await repo.count(s.db, {})).toBeGreaterThan(before + 50), {
      timeout: 5000,
    });
    if (isPostgres(s.db)) {
      await sql`drop trigger system_log_watch on system_log`.execute(s.db);
    } else {
      await sql`drop trigger system_log_watch_update`.execute(s.db);
      await sql`drop trigger system_log_watch_delete`.execute(s.db);
    }
  }, 60_000);
});
