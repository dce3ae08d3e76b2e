/**
 * MD5 speed for uploads (issue 4): the same 256 MiB of random bytes hashed three ways, each
 * digest checked against the others (the bench fails if they differ):
 *
 * - hash-wasm: the real `workers/hash.worker.ts`, bundled with esbuild and started in Chromium
 *   from a Blob URL, called through Comlink with a progress callback, as the app calls it. It
 *   reads a Blob in 1 MiB slices.
 * - spark-md5: the very same worker bundle with `hash-wasm` swapped for a shim over
 *   `SparkMD5.ArrayBuffer`, so slicing, read-ahead and Comlink are identical and only the MD5
 *   code differs. This is the ratio that justified hash-wasm (ARCHITECTURE.md §1: about 3x).
 * - node:crypto (OpenSSL) in this process over the same bytes in the same 1 MiB slices: the
 *   reference for what native MD5 does on this machine.
 *
 * The bytes reach the page over loopback HTTP (fetch → Blob), never as evaluate() arguments.
 * Each way runs ROUNDS times after a warm-up, the ways interleaved so that a busy moment of
 * the machine does not land on one way only; the median is reported, with the rounds' range.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { build, type Plugin } from 'esbuild';
import { chromium } from 'playwright-core';
import { HASH_SLICE_BYTES } from '../../src/shared/hash-api';

const SIZE = 256 * 1024 * 1024;
const WARMUP_BYTES = 16 * 1024 * 1024;
const ROUNDS = 3;
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mbps = (ms: number) => SIZE / 1e6 / (ms / 1000);

const [wasmWorker, sparkWorker, driver] = await Promise.all([
  bundle({ entry: 'workers/hash.worker.ts', format: 'esm' }),
  bundle({ entry: 'workers/hash.worker.ts', format: 'esm', plugins: [sparkInsteadOfWasm] }),
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

  const nodeMd5 = () => {
    const t0 = performance.now();
    const h = createHash('md5');
    for (let a = 0; a < SIZE; a += HASH_SLICE_BYTES) h.update(data.subarray(a, a + HASH_SLICE_BYTES));
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
  const distinct = new Set([...digests].map((d) => d.split(' ')[1]));
  if (distinct.size !== 1) throw new Error(`MD5 digests differ:\n  ${[...digests].join('\n  ')}`);

  const med = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, median(v)]));
  console.log(
    `\n馆务云 MD5 bench: 256 MiB of random bytes in 1 MiB slices, median of ${ROUNDS} rounds (MB = 10^6 bytes)`,
  );
  for (const [name, where] of [
    ['hash-wasm', 'Chromium worker, Comlink, progress per slice'],
    ['spark-md5', 'Chromium worker, same worker code'],
    ['node:crypto', 'Node, reference'],
  ] as const)
    console.log(
      `${name.padEnd(12)} ${mbps(med[name]!).toFixed(0).padStart(6)} MB/s  ${med[name]!.toFixed(0).padStart(6)} ms` +
        `  (rounds ${Math.min(...ms[name]!).toFixed(0)}–${Math.max(...ms[name]!).toFixed(0)} ms; ${where})`,
    );
  console.log(`digest ${[...distinct][0]} (all equal)`);
  console.log(
    `hash-wasm / spark-md5: ×${(med['spark-md5']! / med['hash-wasm']!).toFixed(2)}   ` +
      `node:crypto / hash-wasm: ×${(med['hash-wasm']! / med['node:crypto']!).toFixed(2)}   (speed ratios)`,
  );
} finally {
  await browser.close();
  server.close();
}
