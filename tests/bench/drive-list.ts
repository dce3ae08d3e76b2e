/**
 * Drive listing speed (issue 3 "Speed"): p50 and p95 of
 * `GET /wangpan/file/getfilelist?filePath=/big/&currentPage=1&pageCount=100` for a folder of
 * 1,000, 10,000 and 100,000 entries, against a bare SELECT of the same page of rows run in the
 * same process (the very SQL the repo issues, as a prepared better-sqlite3 statement), and the
 * ratio of the two. Page 1 holds the folder's 20 sub-folders and its first 80 files, so it runs
 * the two-part (folders, then files) page query: the harder case.
 *
 * Also prints the query plans, so a lost index shows up here before it shows up as a slow page.
 */
import { performance } from 'node:perf_hooks';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import type { DB } from '../../src/server/db/schema';
import * as repo from '../../src/server/modules/drive/drive.repo';
import { startServer } from '../server/harness';
import { userIdOf } from '../server/util';

const SIZES = [1_000, 10_000, 100_000];
const FOLDERS = 20;
const RUNS = 200;
const WARMUP = 30;
const PAGE = {
  sort: 'name',
  order: 'asc',
  dirOffset: 0,
  dirLimit: FOLDERS,
  fileOffset: 0,
  fileLimit: 100 - FOLDERS,
} as const;

function pct(samples: number[], p: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
async function sample(n: number, fn: () => unknown) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const s = await startServer({ RATE_LIMIT_PER_MINUTE: '100000000' });
// A second connection to the same file: for bulk inserts, the bare SELECT and the plans.
const raw = new SqliteDatabase(s.config.dbFile);
raw.pragma('busy_timeout = 5000');
try {
  const token = await s.login('staff02');
  const userId = await userIdOf(s, 'staff02');
  const space = `u:${userId}`;
  const url = `${s.url}/wangpan/file/getfilelist?filePath=${encodeURIComponent('/big/')}&currentPage=1&pageCount=100`;

  // Capture the SQL the repo runs for the page and the count, to replay it bare and explain it.
  const captured: CompiledQuery[] = [];
  const spy = new Kysely<DB>({
    dialect: new SqliteDialect({ database: raw }),
    log: (e) => void captured.push(e.query),
  });
  await repo.countFolder(spy, space, '/big/');
  await repo.listFolderPage(spy, space, '/big/', PAGE);
  const [countQ, pageQ] = captured;
  const pageStmt = raw.prepare(pageQ!.sql);
  const countStmt = raw.prepare(countQ!.sql);

  const insert = raw.prepare(
    `insert into user_file (space, file_path, file_name, extend_name, is_dir, blob_id, file_size, upload_time, delete_flag, created_by)
     values (?, ?, ?, ?, ?, null, ?, ?, 0, ?)`,
  );
  const now = Date.now();
  raw.transaction(() => {
    insert.run(space, '/', 'big', '', 1, 0, now, userId);
    for (let i = 0; i < FOLDERS; i++)
      insert.run(space, '/big/', `目录-${String(i).padStart(3, '0')}`, '', 1, 0, now, userId);
  })();
  let have = FOLDERS;

  const httpOnce = (u: string) => async () => {
    const res = await fetch(u, { headers: { token } });
    await res.arrayBuffer();
  };
  // The fixed cost of any listing call: the same request on a folder holding one entry.
  await s.call('POST', '/wangpan/file/createfile', {
    token,
    body: { filePath: '/', fileName: 'small', isDir: 1 },
  });
  await s.call('POST', '/wangpan/file/createfile', {
    token,
    body: { filePath: '/small/', fileName: 'x', isDir: 1 },
  });
  const small = url.replace(encodeURIComponent('/big/'), encodeURIComponent('/small/'));
  await sample(WARMUP, httpOnce(small));
  const floor = await sample(RUNS, httpOnce(small));

  const fmt = (ms: number) => `${ms.toFixed(2)} ms`.padStart(9);
  const x = (r: number) => `×${r.toFixed(1)}`.padStart(7);
  console.log(`\n馆务云 drive bench: getfilelist page 1 (pageCount 100), ${RUNS} sequential requests each`);
  console.log(
    `HTTP floor (same call, 1-entry folder): p50 ${fmt(pct(floor, 50))}  p95 ${fmt(pct(floor, 95))}`,
  );
  console.log(
    `${'entries'.padStart(8)} ${'HTTP p50'.padStart(9)} ${'HTTP p95'.padStart(9)} ${'SEL p50'.padStart(9)} ${'SEL p95'.padStart(9)} ${'CNT p50'.padStart(9)} ${'CNT p95'.padStart(9)} ${'r p50'.padStart(7)} ${'r p95'.padStart(7)} ${'rSQL p95'.padStart(8)}`,
  );
  for (const size of SIZES) {
    raw.transaction(() => {
      for (let i = have; i < size; i++) {
        const ext = ['jpg', 'docx', 'pdf', 'mp4', 'txt'][i % 5]!;
        // Shuffled names, so the rows' insertion order is not the listing order.
        const key = String((i * 7919) % 1_000_003).padStart(7, '0');
        insert.run(space, '/big/', `藏品照片-${key}-${i}`, ext, 0, 1000 + i, now - i * 1000, userId);
      }
    })();
    have = size;

    const body = (await (await fetch(url, { headers: { token } })).json()) as {
      data: { total: number; list: unknown[] };
    };
    if (body.data.total !== size || body.data.list.length !== 100) throw new Error('unexpected page');
    if (pageStmt.all(...pageQ!.parameters).length !== 100)
      throw new Error('bare select returned another page');

    await sample(WARMUP, httpOnce(url));
    await sample(WARMUP, () => pageStmt.all(...pageQ!.parameters));
    const http = await sample(RUNS, httpOnce(url));
    const select = await sample(RUNS, () => pageStmt.all(...pageQ!.parameters));
    const count = await sample(RUNS, () => countStmt.get(...countQ!.parameters));
    const both = await sample(RUNS, () => {
      countStmt.get(...countQ!.parameters);
      pageStmt.all(...pageQ!.parameters);
    });
    const [h50, h95, s50, s95] = [pct(http, 50), pct(http, 95), pct(select, 50), pct(select, 95)];
    console.log(
      `${String(size).padStart(8)} ${fmt(h50)} ${fmt(h95)} ${fmt(s50)} ${fmt(s95)} ${fmt(pct(count, 50))} ${fmt(pct(count, 95))} ${x(h50 / s50)} ${x(h95 / s95)} ${x(h95 / pct(both, 95)).padStart(8)}`,
    );
  }
  console.log(
    'SEL: the bare page SELECT; CNT: the bare count; r: HTTP / SEL; rSQL: HTTP / (count + page), i.e. what HTTP,\n' +
      'the session check and JSON add to the SQL the call needs. Target: HTTP p95 under 30 ms at 100,000 entries.',
  );

  const plan = (q: CompiledQuery) =>
    (raw.prepare(`explain query plan ${q.sql}`).all(...q.parameters) as { detail: string }[])
      .map((r) => `    ${r.detail}`)
      .join('\n');
  console.log(`\nplan of the page query:\n${plan(pageQ!)}`);
  console.log(`plan of the count:\n${plan(countQ!)}`);
} finally {
  raw.close();
  await s.close();
}
