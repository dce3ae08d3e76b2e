/**
 * `npm run move-data` (issue 19): an embedded installation holding one file of a small and one
 * of a large size, moved onto PostgreSQL (a throw-away cluster of Debian's postgresql) and the
 * bucket (s3rver in its own process). Prints the move's time against the plainest way to put
 * the same bytes into the store (one streamed PUT, no hashing, no database) in the same run, the
 * time of a second run (which only checks), and what the move held alive beyond what it held
 * before, for the small and the large file: flat memory means about the same for both.
 * Alone: `npx tsx tests/bench/move-data.ts` (BENCH_MOVE_MIB=16,256 sets the sizes).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../src/server/db/index';
import { moveData } from '../../src/server/db/move-data';
import type { S3Settings } from '../../src/server/scale-config';
import { createS3Bucket } from '../../src/server/storage/s3';
import { startS3rver } from '../scale/services';
import { S3_TEST } from '../server/scale-env';
import { admin, startCluster } from '../server/postgres';

const MIB = 1024 * 1024;
const sizes = (process.env.BENCH_MOVE_MIB ?? '16,256').split(',').map(Number);

/** A data dir of this version holding one drive file of `mib` MiB (written 1 MiB at a time). */
async function sourceWith(root: string, mib: number): Promise<string> {
  const dir = path.join(root, `source-${mib}`);
  await (await openDatabase(path.join(dir, 'museum.sqlite'))).destroy();
  const tmp = path.join(dir, 'file');
  const h = createHash('md5');
  const fd = fs.openSync(tmp, 'w');
  for (let i = 0; i < mib; i++) {
    const b = randomBytes(MIB);
    h.update(b);
    fs.writeSync(fd, b);
  }
  fs.closeSync(fd);
  const m = h.digest('hex');
  fs.mkdirSync(path.join(dir, 'blobs', m.slice(0, 2), m.slice(2, 4)), { recursive: true });
  fs.renameSync(tmp, path.join(dir, 'blobs', m.slice(0, 2), m.slice(2, 4), m));
  return dir;
}

/** Runs `fn`, sampling heap and Buffers every 10 ms; answers its time and peak above the start. */
async function measured(fn: () => Promise<unknown>) {
  const live = () => {
    const u = process.memoryUsage();
    return u.heapUsed + u.arrayBuffers;
  };
  const base = live();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, live())), 10);
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  clearInterval(timer);
  return { ms, extra: Math.max(0, peak - base) };
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-bench-move-'));
const [cluster, s3rver] = await Promise.all([startCluster(), startS3rver()]);
try {
  const s3 = (prefix: string): S3Settings => ({
    endpoint: s3rver.url,
    bucket: S3_TEST.bucket,
    region: 'us-east-1',
    credentials: { accessKeyId: S3_TEST.accessKeyId, secretAccessKey: S3_TEST.secretAccessKey },
    forcePathStyle: true,
    prefix: `${prefix}/`,
  });
  console.log(`\nmove-data: one file onto PostgreSQL and s3rver (sizes ${sizes.join(', ')} MiB)`);
  for (const mib of sizes) {
    const dir = await sourceWith(root, mib);
    const file = (function find(d: string): string {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory() && e.name !== 'tmp') return find(p);
        if (e.isFile()) return p;
      }
      throw new Error('no file');
    })(path.join(dir, 'blobs'));
    // Reference: the same bytes in one streamed PUT.
    const bucket = createS3Bucket(s3(`ref-${mib}`));
    const ref = await measured(() => bucket.put('x', fs.createReadStream(file), mib * MIB));
    const db = `bench_move_${mib}`;
    await admin(cluster.url('postgres'), `create database ${db}`);
    const opts = { dataDir: dir, databaseUrl: cluster.url(db), s3: s3(`move-${mib}`) };
    const first = await measured(() => moveData(opts));
    const again = await measured(() => moveData(opts));
    const row = (name: string, r: { ms: number; extra: number }) =>
      console.log(
        `  ${`${mib} MiB ${name}`.padEnd(40)} ${(r.ms / 1000).toFixed(2).padStart(7)} s  ×${(r.ms / ref.ms).toFixed(2)} of one PUT   held ${(r.extra / MIB).toFixed(1)} MiB (${((100 * r.extra) / (mib * MIB)).toFixed(1)} % of the file)`,
      );
    row('one streamed PUT (reference)', ref);
    row('move-data', first);
    row('move-data again (checks only)', again);
  }
} finally {
  await Promise.all([cluster.stop(), s3rver.stop()]);
  fs.rmSync(root, { recursive: true, force: true });
}
