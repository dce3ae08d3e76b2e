/**
 * MD5 speed for uploads (issues 4 and 25): the same 256 MiB of random bytes hashed three ways,
 * each digest checked against the others (the bench fails if they differ):
 *
 * - hash-wasm: the real `workers/hash.worker.ts`, bundled with esbuild and started in Chromium
 *   from a Blob URL, called through Comlink with a progress callback, as the app calls it. It
 *   reads the Blob as a stream (src/shared/md5-feed.ts), progress about every 100 ms.
 * - spark-md5: the very same worker bundle with `hash-wasm` swapped for a shim over
 *   `SparkMD5.ArrayBuffer`, so the reading loop, progress and Comlink are identical and only
 *   the MD5 code differs. The stream's chunks are whole ArrayBuffers, so the shim hands them to
 *   spark-md5 without a copy, as it did the 1 MiB slices before. This is the ratio that
 *   justified hash-wasm (ARCHITECTURE.md §1: about 3x).
 * - node:crypto (OpenSSL) in this process over the same bytes in 1 MiB slices: the reference
 *   for what native MD5 does on this machine; against it, the worker's figure is end to end
 *   (reading, Comlink, progress and hashing), where node:crypto only hashes.
 *
 * Where the time goes, printed after the medians: on the first 32 MiB in a diagnostic worker,
 * reading alone as a stream (BYOB into one reused buffer, as the worker reads now, and the
 * default reader it used before) and as 1 MiB `slice().arrayBuffer()` reads with one read ahead
 * (the loop before issue 25), hashing alone from memory (hash-wasm, spark-md5), and each of the two
 * behind both loops (the earlier one awaited progress after every slice): so the reference's
 * figure before and after the new loop is shown side by side, not assumed.
 *
 * The bytes reach the page over loopback HTTP (fetch → Blob), never as evaluate() arguments.
 * Each way runs ROUNDS times after a warm-up, the ways interleaved so that a busy moment of
 * the machine does not land on one way only; the median is reported, with the rounds' range,
 * and the two target rows go to the report table (tests/bench/report.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { build, type Plugin } from 'esbuild';
import { chromium } from 'playwright-core';
import { median, report } from './report';

const SIZE = 256 * 1024 * 1024;
const WARMUP_BYTES = 16 * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_MD5_ROUNDS ?? 3);
/** The slice of the loop before issue 25, and node:crypto's update size. */
const SLICE = 1024 * 1024;
const DIAG_BYTES = 32 * 1024 * 1024;
const DIAG_ROUNDS = 5;
const root = path.resolve(import.meta.dirname, '../..');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** hash-wasm's createMD5() over spark-md5, for the comparison worker. */
const SPARK_SHIM = `
import SparkMD5 from 'spark-md5';
const utf8 = new TextEncoder();
export async function createMD5() {
  let spark = new SparkMD5.ArrayBuffer();
  const hasher = {
    init() { spark = new SparkMD5.ArrayBuffer(); return hasher; },
    update(data) {
      const bytes = typeof data === 'string' ? utf8.encode(data) : data;
      spark.append(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
        ? bytes.buffer : bytes.slice().buffer);
      return hasher;
    },
    digest() { return spark.end(); },
  };
  return hasher;
}`;

/**
 * The diagnostic worker: each part of the work alone, and the reading loop the worker had before
 * issue 25 (1 MiB slices, one read ahead, progress awaited after each), with hash-wasm.
 */
const DIAG = `
import { expose } from 'comlink';
import { createMD5 } from 'hash-wasm';
import SparkMD5 from 'spark-md5';
import { feedBlob } from './src/shared/md5-feed';
const SLICE = ${SLICE};
const timed = async (work) => { const t0 = performance.now(); const digest = await work(); return { digest, ms: performance.now() - t0 }; };
async function slices(blob, each) {
  const read = (a) => blob.slice(a, Math.min(a + SLICE, blob.size)).arrayBuffer();
  let next = blob.size ? read(0) : null;
  for (let a = 0; next; a += SLICE) {
    const bytes = await next;
    const end = Math.min(a + SLICE, blob.size);
    next = end < blob.size ? read(end) : null;
    await each(bytes, end);
  }
}
expose({
  readStream: (blob) => timed(async () => {
    const reader = blob.stream().getReader();
    while (!(await reader.read()).done);
  }),
  readByob: (blob) => timed(async () => {
    const reader = blob.stream().getReader({ mode: 'byob' });
    for (let buf = new Uint8Array(SLICE); ; ) {
      const { done, value } = await reader.read(buf);
      if (done) break;
      buf = new Uint8Array(value.buffer);
    }
  }),
  readSlices: (blob) => timed(() => slices(blob, () => undefined)),
  async hashWasm(blob) {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const h = (await createMD5()).init();
    return timed(() => { for (let a = 0; a < bytes.length; a += SLICE) h.update(bytes.subarray(a, a + SLICE)); return h.digest('hex'); });
  },
  async hashSpark(blob) {
    const buffers = [];
    await slices(blob, (b) => buffers.push(b));
    return timed(() => { const s = new SparkMD5.ArrayBuffer(); for (const b of buffers) s.append(b); return s.end(); });
  },
  // spark-md5 behind both loops: is the reference slowed or sped by the worker's new loop?
  sparkStream: (blob, onProgress) => timed(async () => {
    const s = new SparkMD5.ArrayBuffer();
    const whole = (b) => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b.buffer : b.slice().buffer);
    await feedBlob({ update: (b) => s.append(whole(b)) }, blob, { onProgress });
    return s.end();
  }),
  sparkOldLoop: (blob, onProgress) => timed(async () => {
    const s = new SparkMD5.ArrayBuffer();
    await slices(blob, async (b, end) => { s.append(b); await onProgress(end); });
    return s.end();
  }),
  wasmStream: (blob, onProgress) => timed(async () => {
    const h = (await createMD5()).init();
    await feedBlob(h, blob, { onProgress });
    return h.digest('hex');
  }),
  wasmOldLoop: (blob, onProgress) => timed(async () => {
    const h = (await createMD5()).init();
    await slices(blob, async (b, end) => { h.update(new Uint8Array(b)); await onProgress(end); });
    return h.digest('hex');
  }),
});`;

/** The page's side: loads the bytes, starts the workers, times one md5 call. */
const DRIVER = `
import { proxy, wrap } from 'comlink';
let blob = null;
const workers = {};
globalThis.md5Bench = {
  async load(url) { blob = await (await fetch(url)).blob(); return blob.size; },
  start(name, code) {
    const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    workers[name] = wrap(new Worker(url, { type: 'module' }));
  },
  async run(name, bytes) {
    const part = bytes === undefined ? blob : blob.slice(0, bytes);
    const t0 = performance.now();
    const digest = await workers[name].md5(part, proxy(() => true));
    return { digest, ms: performance.now() - t0 };
  },
  diag(method, bytes) {
    const part = bytes === undefined ? blob : blob.slice(0, bytes);
    return workers.diag[method](part, proxy(() => true));
  },
};`;

async function bundle(opts: { entry?: string; stdin?: string; format: 'esm' | 'iife'; plugins?: Plugin[] }) {
  const out = await build({
    ...(opts.entry
      ? { entryPoints: [path.join(root, opts.entry)] }
      : { stdin: { contents: opts.stdin!, resolveDir: root, loader: 'js' } }),
    bundle: true,
    write: false,
    minify: true,
    format: opts.format,
    target: 'es2022',
    platform: 'browser',
    logLevel: 'silent',
    plugins: opts.plugins,
  });
  return out.outputFiles[0]!.text;
}

const sparkInsteadOfWasm: Plugin = {
  name: 'spark-instead-of-hash-wasm',
  setup(b) {
    b.onResolve({ filter: /^hash-wasm$/ }, () => ({ path: 'hash-wasm', namespace: 'spark-shim' }));
    b.onLoad({ filter: /.*/, namespace: 'spark-shim' }, () => ({
      contents: SPARK_SHIM,
      resolveDir: root,
      loader: 'js',
    }));
  },
};

const mbps = (ms: number, bytes = SIZE) => bytes / 1e6 / (ms / 1000);

const [wasmWorker, sparkWorker, diagWorker, driver] = await Promise.all([
  bundle({ entry: 'workers/hash.worker.ts', format: 'esm' }),
  bundle({ entry: 'workers/hash.worker.ts', format: 'esm', plugins: [sparkInsteadOfWasm] }),
  bundle({ stdin: DIAG, format: 'esm' }),
  bundle({ stdin: DRIVER, format: 'iife' }),
]);

const data = randomBytes(SIZE);
const server = createServer((req, res) => {
  if (req.url === '/data') {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': SIZE });
    res.end(data);
  } else {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>md5 bench</title>');
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  await page.addScriptTag({ content: driver });
  // A string expression, not a function: this project's Node-side tsconfig has no DOM types.
  const call = <R>(method: string, ...args: unknown[]) =>
    page.evaluate(`globalThis.md5Bench.${method}(...${JSON.stringify(args)})`) as Promise<R>;
  type Timed = { digest: string; ms: number };
  if ((await call<number>('load', `${origin}/data`)) !== SIZE) throw new Error('page got other bytes');
  await call('start', 'hash-wasm', wasmWorker);
  await call('start', 'spark-md5', sparkWorker);
  await call('start', 'diag', diagWorker);

  const nodeMd5 = () => {
    const t0 = performance.now();
    const h = createHash('md5');
    for (let a = 0; a < SIZE; a += SLICE) h.update(data.subarray(a, a + SLICE));
    return { digest: h.digest('hex'), ms: performance.now() - t0 };
  };
  const ways: Record<string, () => Promise<Timed>> = {
    'hash-wasm': () => call<Timed>('run', 'hash-wasm'),
    'spark-md5': () => call<Timed>('run', 'spark-md5'),
    'node:crypto': async () => nodeMd5(),
  };
  // Warm-up: WebAssembly compile, JIT, the Blob's first reads.
  await call('run', 'hash-wasm', WARMUP_BYTES);
  await call('run', 'spark-md5', WARMUP_BYTES);
  nodeMd5();

  const ms: Record<string, number[]> = {};
  const digests = new Set<string>();
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, run] of Object.entries(ways)) {
      const r = await run();
      (ms[name] ??= []).push(r.ms);
      digests.add(`${name} ${r.digest}`);
    }
  const distinct = new Set([...digests].map((d) => d.slice(d.lastIndexOf(' ') + 1)));
  if (distinct.size !== 1) throw new Error(`MD5 digests differ:\n  ${[...digests].join('\n  ')}`);

  // Where the time goes: each part alone, on the first 32 MiB, interleaved, median of 5.
  const parts = [
    'readByob',
    'readStream',
    'readSlices',
    'hashWasm',
    'hashSpark',
    'wasmStream',
    'wasmOldLoop',
    'sparkStream',
    'sparkOldLoop',
  ] as const;
  const partMs: Record<string, number[]> = {};
  const partDigests = new Set<string>();
  for (let round = 0; round < DIAG_ROUNDS; round++)
    for (const part of parts) {
      const r = await call<Timed>('diag', part, DIAG_BYTES);
      (partMs[part] ??= []).push(r.ms);
      if (r.digest) partDigests.add(r.digest);
    }
  const diagMd5 = createHash('md5').update(data.subarray(0, DIAG_BYTES)).digest('hex');
  if (partDigests.size !== 1 || !partDigests.has(diagMd5))
    throw new Error(`MD5 digests of the first 32 MiB differ: ${[...partDigests].join(', ')} vs ${diagMd5}`);

  const med = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, median(v)]));
  console.log(`\n馆务云 MD5 bench: 256 MiB of random bytes, median of ${ROUNDS} rounds (MB = 10^6 bytes)`);
  for (const [name, where] of [
    ['hash-wasm', 'Chromium worker as the app runs it: stream, Comlink, progress every 100 ms'],
    ['spark-md5', 'Chromium worker, the same worker code and reading loop'],
    ['node:crypto', 'Node, 1 MiB updates, reference'],
  ] as const)
    console.log(
      `${name.padEnd(12)} ${mbps(med[name]!).toFixed(0).padStart(6)} MB/s  ${med[name]!.toFixed(0).padStart(6)} ms` +
        `  (rounds ${Math.min(...ms[name]!).toFixed(0)}–${Math.max(...ms[name]!).toFixed(0)} ms; ${where})`,
    );
  console.log(`digest ${[...distinct][0]} (all equal)`);
  const perRound = (a: string, b: string) =>
    ms[a]!.map((x, i) => `×${(ms[b]![i]! / x).toFixed(2)}`).join(' ');
  console.log(
    `hash-wasm / spark-md5: ×${(med['spark-md5']! / med['hash-wasm']!).toFixed(2)} (rounds ${perRound('hash-wasm', 'spark-md5')})   ` +
      `hash-wasm / node:crypto: ×${(med['node:crypto']! / med['hash-wasm']!).toFixed(2)} (rounds ${perRound('hash-wasm', 'node:crypto')})   (speed ratios)`,
  );
  const pm = Object.fromEntries(parts.map((p) => [p, median(partMs[p]!)]));
  console.log(`where the time goes (first 32 MiB, in a worker, median of ${DIAG_ROUNDS}):`);
  for (const [part, what] of [
    ['readByob', 'reading alone, blob.stream() BYOB into one reused 1 MiB buffer (the worker now)'],
    ['readStream', 'reading alone, blob.stream() default reader, a new buffer a chunk (before)'],
    ['readSlices', 'reading alone, 1 MiB slice().arrayBuffer(), one ahead (before)'],
    ['hashWasm', 'hash-wasm alone, bytes already in memory'],
    ['hashSpark', 'spark-md5 alone, bytes already in memory'],
    ['wasmStream', 'hash-wasm behind the stream loop, progress every 100 ms (the worker now)'],
    ['wasmOldLoop', 'hash-wasm behind 1 MiB slices, progress awaited per slice (the worker before)'],
    ['sparkStream', 'spark-md5 behind the stream loop (the reference now)'],
    ['sparkOldLoop', 'spark-md5 behind the loop before issue 25 (the reference before)'],
  ] as const)
    console.log(`  ${mbps(pm[part]!, DIAG_BYTES).toFixed(0).padStart(6)} MB/s  ${what}`);
  console.log(
    `  hash-wasm / spark-md5 on the hashing alone: ×${(pm.hashSpark! / pm.hashWasm!).toFixed(2)};` +
      ` stream loop / old loop: hash-wasm ×${(pm.wasmOldLoop! / pm.wasmStream!).toFixed(2)},` +
      ` spark-md5 ×${(pm.sparkOldLoop! / pm.sparkStream!).toFixed(2)}`,
  );

  const worker = mbps(med['hash-wasm']!);
  const spark = mbps(med['spark-md5']!);
  const native = mbps(med['node:crypto']!);
  report({
    measure: 'MD5 in the upload worker (256 MiB) / spark-md5 in the same worker',
    setup: 'Chromium worker, same reading loop',
    product: `${worker.toFixed(0)} MB/s`,
    reference: `${spark.toFixed(0)} MB/s`,
    ratio: worker / spark,
    target: '≥ ×2.5',
    met: worker / spark >= 2.5,
  });
  report({
    measure: 'MD5 in the upload worker, end to end (256 MiB) / node:crypto',
    setup: 'Chromium worker; node:crypto in Node',
    product: `${worker.toFixed(0)} MB/s`,
    reference: `${native.toFixed(0)} MB/s`,
    ratio: worker / native,
    target: '≥ ×0.30',
    met: worker / native >= 0.3,
  });
} finally {
  await browser.close();
  server.close();
}
