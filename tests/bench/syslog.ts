/**
 * The system log's cost (issue 18), as ratios against references measured in the same run:
 *
 * 1. A logged write against the same write unlogged: two routes with one handler and one body
 *    (a nested form with a password and an ID number, as a real write has), one of them
 *    `config: { audit: false }`, 4,000 POSTs each with 8 in flight, alternating in rounds.
 *    What a request pays for its entry (capture, redaction, queueing; the insert is batched
 *    off the request path).
 * 2. The writer: 100,000 entries through its batches, against the same rows inserted one
 *    statement each in one transaction.
 * 3. Reading a year of log: 1,000,000 entries over 365 days, p50/p95 of sysLog/pageList
 *    (newest page; a week; one person; a module and action; part of a name) against the
 *    404-envelope reference of the same server, with the query plans of the page queries.
 *
 * Run alone with `npx tsx tests/bench/syslog.ts`, or as part of `npm run bench`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import SqliteDatabase from 'better-sqlite3';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/index';
import { createOrgService } from '../../src/server/modules/org/org.service';
import { ensureAdmin } from '../../src/server/modules/seed/seed';
import * as repo from '../../src/server/modules/syslog/syslog.repo';
import { createLogWriter } from '../../src/server/modules/syslog/writer';

const ADMIN = 'Bench@12345';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-bench-log-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  PORT: '0',
  DIST_DIR: path.join(dataDir, 'none'),
  RATE_LIMIT_PER_MINUTE: '100000000',
});
const db = await openDatabase(config.dbFile);
await ensureAdmin(db, createOrgService(db), ADMIN);
const app = await buildApp({ config, db });
const handler = async () => ({ ok: 1 });
app.post('/singleMuseum/benchLog/write', handler);
app.post('/singleMuseum/benchLog/quiet', { config: { audit: false } }, handler);
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
async function timeMany(n: number, concurrency: number, fn: () => Promise<unknown>) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < n) await fn();
    }),
  );
  return (performance.now() - t0) / n;
}
const line = (name: string, ms: number, ref?: number) =>
  console.log(
    `${name.padEnd(46)} ${ms.toFixed(3).padStart(9)} ms${ref ? `   ×${(ms / ref).toFixed(2)} of reference` : ''}`,
  );

try {
  const login = await fetch(`${base}/singleMuseum/login/webLogin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN }),
  });
  const token = ((await login.json()) as { result: { token: string } }).result.token;
  const body = JSON.stringify({
    id: 12,
    title: '藏品出库申请',
    password: 'Secret#2026',
    form: {
      reason: '外借展览，经办人证件 11010519491231002X',
      items: [
        { no: 'A-001', count: 2 },
        { no: 'A-002', count: 1 },
      ],
    },
    remark: '请于周五前完成'.repeat(10),
  });
  const post = (p: string) =>
    fetch(`${base}/singleMuseum/benchLog/${p}`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body,
    }).then((r) => r.arrayBuffer());

  // 1. A logged write against the same write unlogged.
  await timeMany(500, 8, () => post('write'));
  await timeMany(500, 8, () => post('quiet'));
  let logged = 0;
  let quiet = 0;
  const ROUNDS = 4;
  for (let i = 0; i < ROUNDS; i++) {
    quiet += await timeMany(1000, 8, () => post('quiet'));
    logged += await timeMany(1000, 8, () => post('write'));
  }
  console.log('\n馆务云 bench: the system log');
  line('reference: the same write, not logged (per req)', quiet / ROUNDS);
  line('write logged (per req)', logged / ROUNDS, quiet / ROUNDS);
  await app.audit.writer.flush();

  // 2. The writer's batches against one insert per row.
  const sample = (i: number): repo.NewLogRow => ({
    time: Date.now() - i,
    user_id: 1,
    user_name: '李明',
    ip: '192.168.1.20',
    user_agent: 'bench',
    module: '网盘',
    action: '新增',
    target_table: 'user_file',
    target_id: String(i),
    method: 'POST',
    path: '/wangpan/file/createfile',
    params: '{"filePath":"/","fileName":"x"}',
    result: 1,
    error_message: null,
    duration_ms: 3,
  });
  const N = 100_000;
  let t0 = performance.now();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < N; i++) await repo.insertMany(trx, [sample(i)]);
  });
  const single = performance.now() - t0;
  const w = createLogWriter<repo.NewLogRow>({
    insert: (rows) => repo.insertMany(db, rows),
    report: console.error,
    maxPending: N,
  });
  t0 = performance.now();
  for (let i = 0; i < N; i++) w.push(sample(i));
  await w.flush();
  const batched = performance.now() - t0;
  line('reference: 100,000 rows one insert each, 1 txn', single);
  line('100,000 rows through the writer', batched, single);

  // 3. A year of log: 1,000,000 entries over 365 days, read through the API.
  const raw = new SqliteDatabase(config.dbFile);
  raw.pragma('busy_timeout = 5000');
  const YEAR = 1_000_000;
  const now = Date.now();
  const ins = raw.prepare(
    `insert into system_log (time, user_id, user_name, ip, user_agent, module, action, target_table, target_id, method, path, params, result, error_message, duration_ms)
     values (?, ?, ?, ?, 'bench', ?, ?, 'user_file', ?, 'POST', '/wangpan/file/createfile', '{"a":1}', ?, null, 3)`,
  );
  const modules = ['网盘', '审批', '项目', '通知', '登录', '人员管理'];
  const actions = ['新增', '修改', '删除', '审批', '登录'];
  t0 = performance.now();
  raw.transaction(() => {
    for (let i = 0; i < YEAR; i++) {
      const u = (i % 120) + 1;
      ins.run(
        now - Math.floor((i / YEAR) * 365 * 86_400_000),
        u,
        `员工${u}`,
        `192.168.${u % 4}.${u}`,
        modules[i % 6],
        actions[i % 5],
        String(i),
        i % 50 === 0 ? 0 : 1,
      );
    }
  })();
  console.log(`(1,000,000 entries inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const week = new Date(now - 7 * 86_400_000 + 8 * 3600_000).toISOString().slice(0, 10);
  const get = (q: string) =>
    fetch(`${base}/singleMuseum/sysLog/pageList?${q}`, { headers: { token } }).then((r) => r.arrayBuffer());
  const runs = async (fn: () => Promise<unknown>, n = 60) => {
    for (let i = 0; i < 5; i++) await fn();
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await fn();
      out.push(performance.now() - t);
    }
    return out;
  };
  const ref = await runs(() => fetch(`${base}/singleMuseum/nope`).then((r) => r.arrayBuffer()), 200);
  const r50 = pct(ref, 50);
  line('reference: 404 envelope p50', r50);
  for (const [name, q] of [
    ['newest page (20)', ''],
    ['last 7 days', `startTime=${week}`],
    ['one person', 'userId=17'],
    [
      'module 审批 + action 审批',
      `module=${encodeURIComponent('审批')}&action=${encodeURIComponent('审批')}`,
    ],
    ['failed (result 0), last 7 days', `result=0&startTime=${week}`],
    ['part of a name (员工17)', `userName=${encodeURIComponent('员工17')}`],
  ] as const) {
    const xs = await runs(() => get(q));
    line(`pageList ${name} p50`, pct(xs, 50), r50);
    line(`pageList ${name} p95`, pct(xs, 95), r50);
  }
  const plan = (sql: string, ...args: unknown[]) =>
    (raw.prepare(`explain query plan ${sql}`).all(...args) as { detail: string }[])
      .map((r) => r.detail)
      .join('; ');
  console.log('plans:');
  console.log('  newest page  :', plan('select * from system_log order by time desc, id desc limit 20'));
  console.log(
    '  one person   :',
    plan('select * from system_log where user_id = ? order by time desc, id desc limit 20', 17),
  );
  console.log(
    '  module+action:',
    plan(
      'select * from system_log where module = ? and action = ? order by time desc, id desc limit 20',
      '审批',
      '审批',
    ),
  );
  console.log('  count person :', plan('select count(*) from system_log where user_id = ?', 17));
  raw.close();
} finally {
  await app.close();
  await db.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
