/**
 * `npm run bench`: measures the cost of the plumbing every call pays, against a reference
 * measured in the same run on the same server, and prints ratios (not absolute targets).
 *
 * - session check: an authenticated GET (/login/userInfo: token hash lookup, roles, user row)
 *   against the cheapest route there is (an unknown API path answered with a 404 envelope,
 *   which runs the same plugins minus the session).
 * - idempotent mutation replay: a replayed POST with the same Idempotency-Key against the
 *   first, real execution.
 * - sign-in: scrypt hashing dominates on purpose; reported per sign-in.
 */
import { performance } from 'node:perf_hooks';
import { startServer } from '../server/harness';
import { report } from './report';

/**
 * Runs one bench after another. A bench that throws (a browser that timed out, a cluster that
 * did not start) is reported as a NOT MET row of its own and the run goes on, so one failure
 * does not cost the table every later bench's rows; the run then exits non-zero.
 */
const failed: string[] = [];
async function section(name: string, load: () => Promise<unknown>): Promise<void> {
  try {
    await load();
  } catch (err) {
    failed.push(name);
    console.error(`\n${name} failed:`, err);
    const why = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 120);
    report({
      measure: `${name}: the bench failed (${why})`,
      setup: '—',
      product: '—',
      reference: '—',
      target: 'runs',
      met: false,
    });
  }
}

async function timeMany(n: number, concurrency: number, fn: (i: number) => Promise<unknown>) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await fn(next++);
    }),
  );
  return (performance.now() - t0) / n;
}

const s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
try {
  const token = await s.login('admin');
  const N = 3000;
  // Warm up both paths so JIT and SQLite caches are comparable.
  await timeMany(300, 8, () => s.call('GET', '/singleMuseum/nope'));
  await timeMany(300, 8, () => s.call('GET', '/singleMuseum/login/userInfo', { token }));

  const ref = await timeMany(N, 8, () => s.call('GET', '/singleMuseum/nope'));
  const authed = await timeMany(N, 8, () => s.call('GET', '/singleMuseum/login/userInfo', { token }));

  const M = 500;
  const first = await timeMany(M, 8, (i) =>
    s.call('POST', '/singleMuseum/sysRole/update', {
      token,
      body: { roleId: 1, name: '超级管理员', remark: '可见全部模块' },
      headers: { 'idempotency-key': `bench-key-${i}` },
    }),
  );
  const replay = await timeMany(M, 8, (i) =>
    s.call('POST', '/singleMuseum/sysRole/update', {
      token,
      body: { roleId: 1, name: '超级管理员', remark: '可见全部模块' },
      headers: { 'idempotency-key': `bench-key-${i}` },
    }),
  );

  const logins = 20;
  const login = await timeMany(logins, 1, () => s.login('staff01'));

  const row = (name: string, ms: number, ratio?: number) =>
    console.log(
      `${name.padEnd(38)} ${ms.toFixed(3).padStart(9)} ms/req${ratio ? `   ×${ratio.toFixed(2)} of reference` : ''}`,
    );
  console.log(`\n馆务云 bench (${N} GETs, ${M} mutations, ${logins} sign-ins; concurrency 8)`);
  row('reference: 404 envelope, no session', ref);
  row('authenticated GET /login/userInfo', authed, authed / ref);
  row('mutation, first execution', first, first / ref);
  row('mutation, idempotent replay', replay, replay / ref);
  row('sign-in (scrypt N=16384)', login, login / ref);
  console.log(`replay / first execution: ×${(replay / first).toFixed(2)}`);
} finally {
  await s.close();
}

// The drive's listing bench (issue 3 "Speed") runs after the plumbing bench, on its own server.
await section('drive-list', () => import('./drive-list'));

// The same listing on PostgreSQL (issue 19), in a throw-away cluster of Debian's postgresql.
await section('drive-list-pg', () => import('./drive-list-pg'));

// The upload's MD5 speed (issue 4): hash-wasm and spark-md5 in a Chromium worker, node:crypto.
await section('md5', () => import('./md5'));

// The upload itself (issue 4): 500 MiB through the real client in Chromium against one streamed
// POST, instant upload, resume after a cut, server memory.
await section('upload', () => import('./upload'));

// List thumbnails (issue 5): made, cached and revalidated, against serving the originals.
await section('thumbs', () => import('./thumbs'));

// Unzip (issue 6): an archive of 2,000 files against storing the same files one by one.
await section('unzip', () => import('./unzip'));

// The object store (issue 19): a large file through S3 against the local store, and the
// server's memory for a small and a large file.
await section('s3-memory', () => import('./s3-memory'));
// The system log (issue 18): a logged write against the same write unlogged, the batched writer,
// and reading a year (1,000,000 entries) through sysLog/pageList.
await section('syslog', () => import('./syslog'));

// Batch import (issue 18): 5,000 duty roster rows through scheme/batchImport, its wall time
// against the bare multi-row inserts and the latency of reads waiting behind it.
await section('records-import', () => import('./records-import'));
// WebDAV (issue 26): a 2 GiB PUT and GET over /dav/ against plain streamed requests, server memory.
await section('dav', () => import('./dav'));
// Scale-out (issue 19): upload throughput through one instance and through two behind nginx,
// against one plain streamed POST.
await section('scale-upload', () => import('./scale-upload'));
// Moving an embedded installation onto PostgreSQL and the bucket (issue 19): against one PUT.
await section('move-data', () => import('./move-data'));
// The holiday rush (issue 21): 2,000 bookings at once for 350 places, on SQLite and PostgreSQL,
// bookings per second and p95, against reads of the same slot fired the same way.
await section('reservation-rush', () => import('./reservation-rush'));
// The first load (issue 25): the bytes of the sign-in page, precompressed against uncompressed,
// and the JavaScript moved before sign-in and through to the workbench.
await section('first-load', () => import('./first-load'));
// First paint of the installed app on a slow phone link (issue 25), online and offline, against
// the same HTML without scripts under the same throttles.
await section('first-paint', () => import('./first-paint'));
// Image search (issue 24): a picture search over 100,000 images against a bare pass over the
// same memory, and hashing the query.
await section('photo-search', () => import('./photo-search'));
// Server start and memory at rest (issue 25): `npm start` (the built server) to the first answer
// against a bare node http server, the tsx start for comparison, and the idle RSS.
await section('server-start', () => import('./server-start'));

if (failed.length) console.error(`\n${failed.length} bench(es) failed: ${failed.join(', ')}.`);
// Explicit: a failed bench may have left a browser or a server open that would keep the process
// alive; the report prints on 'exit'.
process.exit(failed.length ? 1 : 0);
