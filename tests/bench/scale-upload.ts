/**
 * Upload throughput of a scale-out installation (issue 19): the same file through the API in
 * 1 MiB chunks, three in flight (as the browser sends it), to one instance directly and to two
 * instances behind nginx (round robin), each instance its own process as `npm start` runs it,
 * on PostgreSQL, Redis and s3rver (all started here). The reference, in the same run, is the
 * same bytes as one plain streamed POST to a bare Node server that writes them to a file: the
 * cost of moving the bytes at all on this machine.
 * Alone: `npx tsx tests/bench/scale-upload.ts` (BENCH_SCALE_MIB=64 sets the size).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import pgSetup from '../server/pg-setup';
import scaleSetup from '../scale/global-setup';
import { startInstallation, type Client } from '../scale/behind-nginx';
import { bigFile, downloadMd5, uploadBig, type BigFile } from '../scale/big-file';

const MIB = 1024 * 1024;
const mib = Number(process.env.BENCH_SCALE_MIB ?? 64);

/** The reference: the file as one streamed POST, written to disk by a bare server. */
async function plainPost(f: BigFile): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-plain-'));
  const server = http.createServer((req, res) => {
    void pipeline(req, fs.createWriteStream(path.join(dir, 'upload.bin'))).then(() => res.end('ok'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  try {
    async function* body() {
      for (let n = 1; n <= f.totalChunks; n++) yield f.chunk(n);
    }
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      body: Readable.toWeb(Readable.from(body())) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    await res.text();
    const ms = performance.now() - t0;
    if (fs.statSync(path.join(dir, 'upload.bin')).size !== f.size) throw new Error('plain POST lost bytes');
    return f.size / MIB / (ms / 1000);
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function through(c: Client, f: BigFile, name: string): Promise<number> {
  const token = await c.login('admin');
  const t0 = performance.now();
  const id = await uploadBig(c, token, f, name);
  const ms = performance.now() - t0;
  const got = await downloadMd5(c, token, id);
  if (got.md5 !== f.md5) throw new Error(`${name}: the download does not match the upload`);
  return f.size / MIB / (ms / 1000);
}

const stopPg = await pgSetup();
const stopScale = await scaleSetup();
try {
  const f = bigFile(mib * MIB);
  const warm = bigFile(4 * MIB);
  const one = await startInstallation(1);
  let single: number;
  try {
    // Straight to the instance, no balancer.
    const direct = { ...one.front, url: `http://${one.upstreams[0]}` } as Client;
    await through(direct, warm, 'warm.bin');
    single = await through(direct, f, 'one.bin');
  } finally {
    await one.close();
  }
  const two = await startInstallation(2);
  let pair: number;
  try {
    await through(two.front, warm, 'warm.bin');
    pair = await through(two.front, f, 'two.bin');
  } finally {
    await two.close();
  }
  const plain = await plainPost(f);
  console.log(
    `\n扩展部署上传 bench (${mib} MiB, 1 MiB chunks, three in flight; PostgreSQL, Redis, s3rver; each instance its own process)`,
  );
  console.log(`plain streamed POST to a bare server: ${plain.toFixed(1)} MB/s (reference)`);
  console.log(
    `one instance, direct:                ${single.toFixed(1)} MB/s (×${(single / plain).toFixed(3)})`,
  );
  console.log(
    `two instances behind nginx:          ${pair.toFixed(1)} MB/s (×${(pair / plain).toFixed(3)}; ×${(pair / single).toFixed(2)} of one instance)`,
  );
} finally {
  await stopScale();
  await stopPg();
}
