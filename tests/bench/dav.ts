/**
 * WebDAV speed and memory (issue 26): a 2 GiB file (BENCH_DAV_MB, default 2048) of random bytes
 * PUT and GET over /dav/ by curl (another process, as Explorer or Finder would be), against a
 * server in this process on a fresh data dir.
 *
 * - reference: one plain streamed POST of the same file to the same server (`/bench/sink`, a route
 *   added before it listens, piping the body to a file), and one plain streamed GET of the source
 *   file (`/bench/source`). Median of three each. The figures are the ratios:
 *   PUT / POST (the PUT also hashes the bytes for their MD5 and moves them under their key, then
 *   writes the row, checks the quota, the throttle's cached credentials, the locks…), and
 *   GET / plain GET (the row, the blob, Range headers).
 * - server memory: this process's RSS sampled every 50 ms during each PUT, over the RSS right
 *   before it (curl is another process). Flat means: independent of the file's size.
 * - each PUT is read back by GET and must hash to the source's MD5, or the bench fails.
 * - listing: PROPFIND Depth 1 (allprop, as Explorer asks) of a folder of 10,000 files
 *   (BENCH_DAV_LIST), median of five, against the web app reading the same folder through
 *   `file/getfilelist` in pages of 1,000. The answer streams 500 rows at a time from one query
 *   per page, so its cost grows with the rows, never with a query per row (Nextcloud's N+1,
 *   research drive-peers-security.md §4).
 *
 * Needs curl and about 3 × the size free in the temporary directory (source, sink, blob), removed
 * at the end. Run alone with `npx tsx tests/bench/dav.ts`; `npm run bench` runs it last.
 */
import { execFile } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/index';
import { areaOf } from '../../src/server/modules/drive/area';
import { createDriveService } from '../../src/server/modules/drive/drive.service';
import { createOrgService } from '../../src/server/modules/org/org.service';
import { ensureAdmin, seedDemo } from '../../src/server/modules/seed/seed';
import { createLocalBlobStore } from '../../src/server/storage/blob-store';
import { ADMIN_PASSWORD, DEMO_PASSWORD } from '../server/harness';

const run = promisify(execFile);
const SIZE = Number(process.env.BENCH_DAV_MB ?? 2048) * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_DAV_RUNS ?? 3);
const ACCOUNT = 'staff04';
const MB = (b: number) => b / 1e6;
const mbps = (bytes: number, ms: number) => MB(bytes) / (ms / 1000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-bench-dav-'));
const source = path.join(tmp, 'source.bin');
const sinkFile = path.join(tmp, 'sink.bin');

// ——— the file: random bytes, so nothing compresses or dedupes by accident ———
const hash = createHash('md5');
{
  const fd = fs.openSync(source, 'w');
  const block = Buffer.alloc(16 * 1024 * 1024);
  for (let left = SIZE; left > 0; left -= block.length) {
    const part = block.subarray(0, Math.min(block.length, left));
    randomFillSync(part);
    hash.update(part);
    fs.writeSync(fd, part);
  }
  fs.closeSync(fd);
}
const sourceMd5 = hash.digest('hex');

// ——— the server ———
const config = loadConfig({
  DATA_DIR: path.join(tmp, 'data'),
  PORT: '0',
  DIST_DIR: path.join(tmp, 'no-dist'),
  RATE_LIMIT_PER_MINUTE: '100000000',
});
fs.mkdirSync(config.dataDir, { recursive: true });
const db = await openDatabase(config.dbFile);
await ensureAdmin(db, createOrgService(db), ADMIN_PASSWORD);
await seedDemo(db, DEMO_PASSWORD);
const app = await buildApp({ config, db });
await app.register(async (bench) => {
  bench.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
  bench.post('/bench/sink', async (req) => {
    await pipeline(req.body as Readable, fs.createWriteStream(sinkFile));
    return { ok: true };
  });
  bench.get('/bench/source', async (_req, reply) =>
    reply.type('application/octet-stream').header('content-length', SIZE).send(fs.createReadStream(source)),
  );
});
await app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const userId = (
  await db.selectFrom('user').select('id').where('account', '=', ACCOUNT).executeTakeFirstOrThrow()
).id;
const driveSvc = createDriveService({
  db,
  store: createLocalBlobStore(config.blobDir),
  defaultQuotaBytes: config.defaultQuotaBytes,
});
// Room for every round's file (and the bin's copies of overwritten ones).
await driveSvc.setQuota(userId, SIZE * (ROUNDS + 4));

const login = await fetch(`${origin}/singleMuseum/login/webLogin`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: ACCOUNT, password: DEMO_PASSWORD }),
}).then((r) => r.json() as Promise<{ result: { token: string } }>);
const made = await fetch(`${origin}/singleMuseum/personal/appPassword/add`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', token: login.result.token },
  body: JSON.stringify({ name: 'bench', password: DEMO_PASSWORD }),
}).then((r) => r.json() as Promise<{ result: { appPassword: string } }>);
const creds = `${ACCOUNT}:${made.result.appPassword}`;
const davUrl = (name: string) =>
  `${origin}/dav/${encodeURIComponent('我的网盘')}/${encodeURIComponent(name)}`;

/** Runs curl; answers the HTTP status and the wall time it took (its own measure). */
async function curl(args: string[]): Promise<{ status: number; ms: number }> {
  const { stdout } = await run(
    'curl',
    ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', '-H', 'Expect:', ...args],
    {
      maxBuffer: 1024 * 1024,
    },
  );
  const [code, secs] = stdout.trim().split(' ');
  return { status: Number(code), ms: Number(secs) * 1000 };
}

/** Runs `fn` while sampling this process's RSS every 50 ms: the RSS right before, and the peak. */
async function observe<T>(fn: () => Promise<T>) {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  try {
    const result = await fn();
    return { result, grew: Math.max(peak, process.memoryUsage().rss) - baseline };
  } finally {
    clearInterval(timer);
  }
}

function expectStatus(what: string, got: number, want: number) {
  if (got !== want) throw new Error(`${what}: HTTP ${got}, expected ${want}`);
}

async function getMd5(url: string, auth: boolean): Promise<string> {
  const res = await fetch(
    url,
    auth ? { headers: { authorization: `Basic ${Buffer.from(creds).toString('base64')}` } } : {},
  );
  const h = createHash('md5');
  for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) h.update(c);
  return h.digest('hex');
}

/** PROPFIND Depth 1 of a folder of LIST files against the web app's pages of the same folder. */
async function listing() {
  const LIST = Number(process.env.BENCH_DAV_LIST ?? 10_000);
  const area = areaOf(userId, 'personal');
  const one = await driveSvc.addFile({
    area,
    filePath: '/',
    fullName: '样本.txt',
    content: Buffer.from('样本'),
  });
  await driveSvc.createFolder(area, { fileName: '藏品清单', filePath: '/' });
  const items = Array.from({ length: LIST }, (_, i) => ({
    dir: [],
    name: `藏品-${String(i).padStart(5, '0')}.txt`,
    isDir: false,
    blob: { md5: one.md5, size: one.size },
    dims: null,
  }));
  await driveSvc.placeExisting(area, '/藏品清单/', items);
  const auth = { authorization: `Basic ${Buffer.from(creds).toString('base64')}` };
  const propfind = async () => {
    const t0 = performance.now();
    const res = await fetch(`${davUrl('藏品清单')}/`, {
      method: 'PROPFIND',
      headers: { ...auth, depth: '1' },
    });
    const text = await res.text();
    if (res.status !== 207) throw new Error(`PROPFIND: HTTP ${res.status}`);
    return { ms: performance.now() - t0, rows: text.split('<D:response>').length - 2, bytes: text.length };
  };
  const pages = async () => {
    const t0 = performance.now();
    let rows = 0;
    for (let page = 1; rows < LIST; page++) {
      const q = new URLSearchParams({ filePath: '/藏品清单/', currentPage: String(page), pageCount: '1000' });
      const res = await fetch(`${origin}/wangpan/file/getfilelist?${q}`, {
        headers: { token: login.result.token },
      });
      const got = (await res.json()) as { data: { list: unknown[] } };
      if (!got.data.list.length) break;
      rows += got.data.list.length;
    }
    return { ms: performance.now() - t0, rows };
  };
  await propfind();
  await pages();
  const dav: number[] = [];
  const web: number[] = [];
  let last = { rows: 0, bytes: 0 };
  for (let i = 0; i < 5; i++) {
    const d = await propfind();
    dav.push(d.ms);
    last = d;
    web.push((await pages()).ms);
  }
  if (last.rows !== LIST) throw new Error(`PROPFIND listed ${last.rows} of ${LIST}`);
  return { LIST, dav: median(dav), web: median(web), bytes: last.bytes };
}

const loadBefore = os.loadavg()[0]!;
const post: number[] = [];
const postMem: number[] = [];
const put: number[] = [];
const putMem: number[] = [];
const rawGet: number[] = [];
const get: number[] = [];
try {
  const list = await listing();
  console.log(
    `\nWebDAV listing: PROPFIND Depth 1 of ${list.LIST} files ${list.dav.toFixed(0)} ms (${MB(list.bytes).toFixed(1)} MB of XML); ` +
      `the web app's getfilelist in pages of 1,000 for the same folder ${list.web.toFixed(0)} ms: ×${(list.dav / list.web).toFixed(2)} (median of 5)`,
  );

  // Warm both paths once with a small body so JIT and SQLite caches are comparable.
  fs.writeFileSync(path.join(tmp, 'small.bin'), Buffer.alloc(1024 * 1024, 1));
  await curl(['-T', path.join(tmp, 'small.bin'), '-X', 'POST', `${origin}/bench/sink`]);
  await curl(['-T', path.join(tmp, 'small.bin'), '-u', creds, davUrl('warm.bin')]);

  for (let i = 0; i < ROUNDS; i++) {
    // Alternating rounds, so a change in the machine's load falls on both alike.
    const p = await observe(() => curl(['-T', source, '-X', 'POST', `${origin}/bench/sink`]));
    expectStatus('POST /bench/sink', p.result.status, 200);
    post.push(p.result.ms);
    postMem.push(p.grew);
    fs.rmSync(sinkFile, { force: true });

    const d = await observe(() => curl(['-T', source, '-u', creds, davUrl(`大文件-${i}.bin`)]));
    expectStatus('PUT /dav/', d.result.status, 201);
    put.push(d.result.ms);
    putMem.push(d.grew);

    const r = await curl([`${origin}/bench/source`]);
    expectStatus('GET /bench/source', r.status, 200);
    rawGet.push(r.ms);
    const g = await curl(['-u', creds, davUrl(`大文件-${i}.bin`)]);
    expectStatus('GET /dav/', g.status, 200);
    get.push(g.ms);
  }
  const back = await getMd5(davUrl('大文件-0.bin'), true);
  if (back !== sourceMd5) throw new Error(`the file read back hashes to ${back}, not ${sourceMd5}`);

  const row = (name: string, ms: number, ref?: number) =>
    console.log(
      `${name.padEnd(44)} ${mbps(SIZE, ms).toFixed(0).padStart(6)} MB/s  ${ms.toFixed(0).padStart(7)} ms${ref ? `   ×${(ref / ms).toFixed(2)} of the reference's speed` : ''}`,
    );
  console.log(
    `\nWebDAV (issue 26): ${(SIZE / 1024 ** 3).toFixed(2)} GiB of random bytes by curl over loopback, median of ${ROUNDS}; load ${loadBefore.toFixed(1)} on ${os.availableParallelism()} CPUs`,
  );
  row('reference: plain streamed POST to a file', median(post));
  row('PUT /dav/… (hash, blob, row, quota)', median(put), median(post));
  row('reference: plain streamed GET of a file', median(rawGet));
  row('GET /dav/… (row, blob, Range headers)', median(get), median(rawGet));
  console.log(`GET /dav/ against the POST reference: ×${(median(post) / median(get)).toFixed(2)}`);
  console.log(
    `server RSS peak − baseline during the PUT: ${putMem.map((m) => `${MB(m).toFixed(0)} MB`).join(', ')} (the plain POST: ${postMem.map((m) => `${MB(m).toFixed(0)} MB`).join(', ')}) for a ${MB(SIZE).toFixed(0)} MB file`,
  );
  console.log(`read back over WebDAV: MD5 ${back} = the source's`);
} finally {
  await app.close();
  await db.destroy();
  fs.rmSync(tmp, { recursive: true, force: true });
}
