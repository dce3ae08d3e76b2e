/**
 * Drive listing speed on PostgreSQL (issue 19): the same measurement as `drive-list.ts` on a
 * server whose DATABASE_URL points at a throw-away PostgreSQL cluster (Debian's `postgresql`,
 * started by tests/server/postgres.ts, the test cluster's settings). p50 and p95 of
 * `GET /wangpan/file/getfilelist?filePath=/big/&currentPage=1&pageCount=100` for folders of
 * 1,000, 10,000 and 100,000 entries, against the bare SELECT of the same page (the very SQL and
 * parameters the repo sends, captured, then run as a named prepared statement on a connection
 * of its own to the same database), in the same run, and their ratio. Rows are loaded with one
 * INSERT … SELECT generate_series per size, then VACUUM ANALYZEd, as autovacuum soon does after
 * a bulk of inserts (the visibility map lets the count read the index alone).
 *
 * Also prints the plans (EXPLAIN ANALYZE), so a lost index shows up here first.
 */
import { performance } from 'node:perf_hooks';
import { Kysely, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { postgresDialect } from '../../src/server/db/dialect';
import type { DB } from '../../src/server/db/schema';
import * as repo from '../../src/server/modules/drive/drive.repo';
import { startServer } from '../server/harness';
import { admin, startCluster } from '../server/postgres';
import { userIdOf } from '../server/util';
import { median, report } from './report';

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

const cluster = await startCluster();
try {
  await admin(cluster.url('postgres'), 'create database bench');
  const url = cluster.url('bench');
  const s = await startServer({ RATE_LIMIT_PER_MINUTE: '100000000', DATABASE_URL: url });
  // A connection of its own: the bulk inserts, the bare SELECTs and the plans.
  const raw = new pg.Client({ connectionString: url });
  await raw.connect();
  // The repo's own SQL for the page and the count, captured to replay bare and to explain.
  const captured: CompiledQuery[] = [];
  const spyDb = new Kysely<DB>({ dialect: postgresDialect(url, 2), log: (e) => void captured.push(e.query) });
  try {
    const token = await s.login('staff02');
    const userId = await userIdOf(s, 'staff02');
    const space = `u:${userId}`;
    const listUrl = `${s.url}/wangpan/file/getfilelist?filePath=${encodeURIComponent('/big/')}&currentPage=1&pageCount=100`;

    await repo.countFolder(spyDb, space, '/big/');
    await repo.listFolderPage(spyDb, space, '/big/', PAGE);
    const [countQ, pageQ] = captured;
    const bare = (name: string, q: CompiledQuery) => () =>
      raw.query({ name, text: q.sql, values: q.parameters as unknown[] });
    const pageOnce = bare('page', pageQ!);
    const countOnce = bare('count', countQ!);

    const now = Date.now();
    await raw.query(
      `insert into user_file (space, file_path, file_name, extend_name, is_dir, blob_id, file_size, upload_time, delete_flag, created_by)
       values ($1, '/', 'big', '', 1, null, 0, $2, 0, $3)`,
      [space, now, userId],
    );
    await raw.query(
      `insert into user_file (space, file_path, file_name, extend_name, is_dir, blob_id, file_size, upload_time, delete_flag, created_by)
       select $1, '/big/', '目录-' || lpad(i::text, 3, '0'), '', 1, null, 0, $2, 0, $3 from generate_series(0, $4::int - 1) i`,
      [space, now, userId, FOLDERS],
    );
    let have = FOLDERS;

    const httpOnce = (u: string) => async () => {
      const res = await fetch(u, { headers: { token } });
      await res.arrayBuffer();
    };
    await s.call('POST', '/wangpan/file/createfile', {
      token,
      body: { filePath: '/', fileName: 'small', isDir: 1 },
    });
    await s.call('POST', '/wangpan/file/createfile', {
      token,
      body: { filePath: '/small/', fileName: 'x', isDir: 1 },
    });
    const small = listUrl.replace(encodeURIComponent('/big/'), encodeURIComponent('/small/'));
    await sample(WARMUP, httpOnce(small));
    const floor = await sample(RUNS, httpOnce(small));

    const fmt = (ms: number) => `${ms.toFixed(2)} ms`.padStart(9);
    const x = (r: number) => `×${r.toFixed(1)}`.padStart(7);
    console.log(
      `\n馆务云 drive bench on PostgreSQL: getfilelist page 1 (pageCount 100), ${RUNS} sequential requests each`,
    );
    console.log(
      `HTTP floor (same call, 1-entry folder): p50 ${fmt(pct(floor, 50))}  p95 ${fmt(pct(floor, 95))}`,
    );
    console.log(
      `${'entries'.padStart(8)} ${'HTTP p50'.padStart(9)} ${'HTTP p95'.padStart(9)} ${'SEL p50'.padStart(9)} ${'SEL p95'.padStart(9)} ${'CNT p50'.padStart(9)} ${'CNT p95'.padStart(9)} ${'r p50'.padStart(7)} ${'r p95'.padStart(7)} ${'rSQL p95'.padStart(8)}`,
    );
    const countAt = new Map<number, number>();
    for (const size of SIZES) {
      // Shuffled names, so the rows' insertion order is not the listing order.
      await raw.query(
        `insert into user_file (space, file_path, file_name, extend_name, is_dir, blob_id, file_size, upload_time, delete_flag, created_by)
         select $1, '/big/', '藏品照片-' || lpad(((i::bigint * 7919) % 1000003)::text, 7, '0') || '-' || i,
                (array['jpg','docx','pdf','mp4','txt'])[i % 5 + 1], 0, null, 1000 + i, $2::bigint - i * 1000, 0, $3
         from generate_series($4::int, $5::int - 1) i`,
        [space, now, userId, have, size],
      );
      have = size;
      await raw.query('vacuum analyze user_file');

      const body = (await (await fetch(listUrl, { headers: { token } })).json()) as {
        data: { total: number; list: unknown[] };
      };
      if (body.data.total !== size || body.data.list.length !== 100) throw new Error('unexpected page');
      if ((await pageOnce()).rows.length !== 100) throw new Error('bare select returned another page');

      await sample(WARMUP, httpOnce(listUrl));
      await sample(WARMUP, pageOnce);
      const http = await sample(RUNS, httpOnce(listUrl));
      const select = await sample(RUNS, pageOnce);
      const count = await sample(RUNS, countOnce);
      const both = await sample(RUNS, async () => {
        await countOnce();
        await pageOnce();
      });
      const [h50, h95, s50, s95] = [pct(http, 50), pct(http, 95), pct(select, 50), pct(select, 95)];
      // Issue 25's report: HTTP p95 / SELECT p95, median of three rounds (this one and two more).
      const ratios = [h95 / s95];
      const h95s = [h95];
      const s95s = [s95];
      for (let round = 1; round < 3; round++) {
        const h = pct(await sample(RUNS, httpOnce(listUrl)), 95);
        const sel = pct(await sample(RUNS, pageOnce), 95);
        ratios.push(h / sel);
        h95s.push(h);
        s95s.push(sel);
      }
      report({
        measure: `folder listing ${size.toLocaleString('en')} entries, page 1: HTTP p95 / bare page SELECT p95`,
        setup: 'PostgreSQL',
        product: `${median(h95s).toFixed(2)} ms`,
        reference: `${median(s95s).toFixed(3)} ms`,
        ratio: median(ratios),
        target: '≤ ×3',
        met: median(ratios) <= 3,
      });
      const storedCount = bare('stored', {
        sql: 'select total, dirs from folder_count where space = $1 and file_path = $2',
        parameters: [space, '/big/'],
      } as unknown as CompiledQuery);
      const storedP50: number[] = [];
      for (let round = 0; round < 3; round++) storedP50.push(pct(await sample(RUNS, storedCount), 50));
      countAt.set(size, median(storedP50));
      if (size === SIZES[SIZES.length - 1]) {
        const lastUrl = listUrl.replace('currentPage=1', `currentPage=${Math.ceil(size / 100)}`);
        await sample(WARMUP, httpOnce(lastUrl));
        const l95: number[] = [];
        const f95: number[] = [];
        for (let round = 0; round < 3; round++) {
          l95.push(pct(await sample(RUNS, httpOnce(lastUrl)), 95));
          f95.push(pct(await sample(RUNS, httpOnce(listUrl)), 95));
        }
        report({
          measure: `last page of ${size.toLocaleString('en')} entries (page ${Math.ceil(size / 100)} of 100): HTTP p95 / first page p95`,
          setup: 'PostgreSQL',
          product: `${median(l95).toFixed(2)} ms`,
          reference: `${median(f95).toFixed(2)} ms`,
          ratio: median(l95) / median(f95),
          target: '≤ 10 ms p95, same as the first page',
          met: median(l95) <= 10,
        });
        const [c1, cN] = [countAt.get(SIZES[0]!)!, countAt.get(size)!];
        report({
          measure: `folder count (folder_count row) at ${size.toLocaleString('en')} / at ${SIZES[0]!.toLocaleString('en')} entries, p50`,
          setup: 'PostgreSQL',
          product: `${(cN * 1000).toFixed(0)} µs`,
          reference: `${(c1 * 1000).toFixed(0)} µs`,
          ratio: cN / c1,
          target: 'O(1): ≈ ×1',
          met: cN / c1 <= 2,
        });
      }
      console.log(
        `${String(size).padStart(8)} ${fmt(h50)} ${fmt(h95)} ${fmt(s50)} ${fmt(s95)} ${fmt(pct(count, 50))} ${fmt(pct(count, 95))} ${x(h50 / s50)} ${x(h95 / s95)} ${x(h95 / pct(both, 95)).padStart(8)}`,
      );
    }
    console.log(
      'SEL: the bare page SELECT (prepared, own connection); CNT: the bare count; r: HTTP / SEL; rSQL: HTTP /\n' +
        '(count + page), i.e. what HTTP, the session check and JSON add to the SQL the call needs.',
    );

    const plan = async (q: CompiledQuery) =>
      (
        await raw.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off, timing off) ${q.sql}`, [
          ...(q.parameters as unknown[]),
        ])
      ).rows
        .map((r) => `    ${r['QUERY PLAN']}`)
        .join('\n');
    console.log(`\nplan of the page query:\n${await plan(pageQ!)}`);
    console.log(`plan of the count:\n${await plan(countQ!)}`);
  } finally {
    await spyDb.destroy();
    await raw.end();
    await s.close();
  }
} finally {
  await cluster.stop();
}
