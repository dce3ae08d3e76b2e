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
import { Kysely, type CompiledQuery } from 'kysely';
import { sqliteDialect } from '../../src/server/db/dialect';
import type { DB } from '../../src/server/db/schema';
import * as repo from '../../src/server/modules/drive/drive.repo';
import { startServer } from '../server/harness';
import { userIdOf } from '../server/util';
import { median, report } from './report';
import http from 'node:http';

const SIZES = [1_000, 10_000, 100_000];
const FOLDERS = 20;
const RUNS = 200;
const ROUNDS = 3;
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

  // Capture the SQL the repo runs for the page and the count, to replay it bare and explain it;
  // through the server's own dialect, so the text is the server's (its LIMIT written in).
  const captured: CompiledQuery[] = [];
  const spy = new Kysely<DB>({
    dialect: sqliteDialect(raw),
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

  // Every statement one listing call runs (session, roles, count, page), caught on the
  // server's own connection, to replay bare: the call's SQL.
  const calls: { sql: string; params: unknown[] }[] = [];
  const stmtProto = Object.getPrototypeOf(raw.prepare('select 1')) as Record<
    string,
    (...a: unknown[]) => unknown
  >;
  const orig = { all: stmtProto.all!, get: stmtProto.get!, run: stmtProto.run! };
  let catching = false;
  for (const k of ['all', 'get', 'run'] as const) {
    stmtProto[k] = function (this: { source: string }, ...a: unknown[]) {
      if (catching) calls.push({ sql: this.source, params: a.flat() });
      return orig[k].apply(this, a);
    };
  }
  catching = true;
  await httpOnce(small)();
  catching = false;
  Object.assign(stmtProto, orig);
  const bareCall = calls.map((c) => ({ stmt: raw.prepare(c.sql), params: c.params }));
  const runBare = () => {
    for (const b of bareCall) if (b.stmt.reader) b.stmt.all(...b.params);
  };
  // The transport alone: a bare node:http server answering the same bytes to the same client.
  const body = Buffer.from(await (await fetch(small, { headers: { token } })).arrayBuffer());
  const bare = http.createServer((_q, r) => {
    r.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    r.end(body);
  });
  await new Promise<void>((ok) => bare.listen(0, '127.0.0.1', ok));
  const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`;
  await sample(WARMUP, httpOnce(bareUrl));
  const fixed: number[] = [];
  const parts: { call: number; transport: number; sql: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const call = pct(await sample(RUNS, httpOnce(small)), 50);
    const transport = pct(await sample(RUNS, httpOnce(bareUrl)), 50);
    const sql = pct(await sample(RUNS, runBare), 50);
    parts.push({ call, transport, sql });
    fixed.push(call - transport - sql);
  }
  bare.close();
  const fx = median(fixed);
  const mid = parts[fixed.indexOf([...fixed].sort((a, b) => a - b)[1]!)] ?? parts[0]!;
  console.log(
    `\nfixed cost of a signed-in call (getfilelist on a 1-entry folder; ${bareCall.length} statements):` +
      ` call p50 ${mid.call.toFixed(3)} ms − bare HTTP p50 ${mid.transport.toFixed(3)} ms − its SQL p50 ${mid.sql.toFixed(3)} ms` +
      ` = ${fx.toFixed(3)} ms (median of ${ROUNDS} rounds)`,
  );
  report({
    measure:
      'fixed cost of a signed-in call over its SQL and HTTP (getfilelist p50 − bare node:http p50 − its SQL p50)',
    product: `${fx.toFixed(3)} ms`,
    reference: '—',
    target: '≤ 0.3 ms',
    met: fx <= 0.3,
  });

  const fmt = (ms: number) => `${ms.toFixed(2)} ms`.padStart(9);
  const x = (r: number) => `×${r.toFixed(1)}`.padStart(7);
  console.log(
    `\n馆务云 drive bench: getfilelist (pageCount 100), ${RUNS} sequential requests each, ${ROUNDS} rounds (medians)`,
  );
  console.log(
    `${'entries'.padStart(8)} ${'HTTP p50'.padStart(9)} ${'HTTP p95'.padStart(9)} ${'SEL p50'.padStart(9)} ${'SEL p95'.padStart(9)} ${'CNT p50'.padStart(9)} ${'COUNT(*)'.padStart(9)} ${'r p95'.padStart(7)}`,
  );
  const countOf = raw.prepare('select total, dirs from folder_count where space = ? and file_path = ?');
  const countRows = new Map<number, number>();
  let lastQ: CompiledQuery | undefined;
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
    raw.exec('analyze');

    const body = (await (await fetch(url, { headers: { token } })).json()) as {
      data: { total: number; list: unknown[] };
    };
    if (body.data.total !== size || body.data.list.length !== 100) throw new Error('unexpected page');
    if (pageStmt.all(...pageQ!.parameters).length !== 100)
      throw new Error('bare select returned another page');

    await sample(WARMUP, httpOnce(url));
    await sample(WARMUP, () => pageStmt.all(...pageQ!.parameters));
    const r: { h50: number; h95: number; s50: number; s95: number; c50: number; real50: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const http = await sample(RUNS, httpOnce(url));
      const select = await sample(RUNS, () => pageStmt.all(...pageQ!.parameters));
      const stored = await sample(RUNS, () => countOf.get(space, '/big/'));
      const real = await sample(Math.min(RUNS, 50), () => countStmt.get(...countQ!.parameters));
      r.push({
        h50: pct(http, 50),
        h95: pct(http, 95),
        s50: pct(select, 50),
        s95: pct(select, 95),
        c50: pct(stored, 50),
        real50: pct(real, 50),
      });
    }
    const m = (k: keyof (typeof r)[number]) => median(r.map((o) => o[k]));
    const ratio = median(r.map((o) => o.h95 / o.s95));
    countRows.set(size, m('c50'));
    console.log(
      `${String(size).padStart(8)} ${fmt(m('h50'))} ${fmt(m('h95'))} ${fmt(m('s50'))} ${fmt(m('s95'))} ${fmt(m('c50'))} ${fmt(m('real50'))} ${x(ratio)}`,
    );
    report({
      measure: `folder listing ${size.toLocaleString('en')} entries, page 1: HTTP p95 / bare page SELECT p95`,
      product: `${m('h95').toFixed(2)} ms`,
      reference: `${m('s95').toFixed(3)} ms`,
      ratio,
      target: '≤ ×3',
      met: ratio <= 3,
    });

    if (size === SIZES[SIZES.length - 1]) {
      // The last page (page 1,000 of 100): the repo's SQL for it, captured, replayed bare.
      const lastPage = Math.ceil(size / 100);
      const lastUrl = url.replace('currentPage=1', `currentPage=${lastPage}`);
      const want = size - (lastPage - 1) * 100;
      const lb = (await (await fetch(lastUrl, { headers: { token } })).json()) as {
        data: { list: unknown[] };
      };
      if (lb.data.list.length !== want) throw new Error('unexpected last page');
      const cap: CompiledQuery[] = [];
      const spy2 = new Kysely<DB>({
        dialect: sqliteDialect(raw),
        log: (e) => void cap.push(e.query),
      });
      const { total, dirs } = await repo.folderCounts(spy2, space, '/big/');
      const offset = (lastPage - 1) * 100;
      await repo.listFolderPage(spy2, space, '/big/', {
        sort: 'name',
        order: 'asc',
        dirOffset: dirs,
        dirLimit: 0,
        fileOffset: offset - dirs,
        fileLimit: 100,
        dirs,
        files: total - dirs,
      });
      lastQ = cap[1]!;
      const lastStmt = raw.prepare(lastQ.sql);
      await sample(WARMUP, httpOnce(lastUrl));
      const rr: { l95: number; f95: number; s95: number }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        rr.push({
          l95: pct(await sample(RUNS, httpOnce(lastUrl)), 95),
          f95: pct(await sample(RUNS, httpOnce(url)), 95),
          s95: pct(await sample(RUNS, () => lastStmt.all(...lastQ!.parameters)), 95),
        });
      }
      const l95 = median(rr.map((o) => o.l95));
      const f95 = median(rr.map((o) => o.f95));
      console.log(
        `last page (${lastPage}) of ${size.toLocaleString('en')}: HTTP p95 ${fmt(l95)}, first page ${fmt(f95)}, bare SELECT p95 ${fmt(median(rr.map((o) => o.s95)))}`,
      );
      report({
        measure: `last page of ${size.toLocaleString('en')} entries (page ${lastPage} of 100): HTTP p95 / first page p95`,
        product: `${l95.toFixed(2)} ms`,
        reference: `${f95.toFixed(2)} ms`,
        ratio: l95 / f95,
        target: '≤ 10 ms p95, same as the first page',
        met: l95 <= 10,
      });
      report({
        measure: `first page of ${size.toLocaleString('en')} entries: HTTP p95`,
        product: `${f95.toFixed(2)} ms`,
        reference: '—',
        target: '(information)',
        met: null,
      });
    }
  }
  const c1 = countRows.get(SIZES[0]!)!;
  const cN = countRows.get(SIZES[SIZES.length - 1]!)!;
  report({
    measure: `folder count (folder_count row) at ${SIZES[SIZES.length - 1]!.toLocaleString('en')} / at ${SIZES[0]!.toLocaleString('en')} entries, p50`,
    product: `${(cN * 1000).toFixed(1)} µs`,
    reference: `${(c1 * 1000).toFixed(1)} µs`,
    ratio: cN / c1,
    target: 'O(1): ≈ ×1',
    met: cN / c1 <= 2,
  });
  console.log(
    'SEL: the bare page SELECT; CNT: the stored count (folder_count); COUNT(*): counting the rows, as the call\n' +
      'did before issue 25; r: HTTP p95 / SEL p95 (target ≤ ×3).',
  );

  const plan = (q: CompiledQuery) =>
    (raw.prepare(`explain query plan ${q.sql}`).all(...q.parameters) as { detail: string }[])
      .map((r) => `    ${r.detail}`)
      .join('\n');
  console.log(`\nplan of the page query:\n${plan(pageQ!)}`);
  console.log(`plan of the COUNT(*):\n${plan(countQ!)}`);
  if (lastQ) console.log(`plan of the last page:\n${plan(lastQ)}`);
} finally {
  raw.close();
  await s.close();
}
