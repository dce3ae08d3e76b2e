/**
 * Precompresses the built front end: every text asset gets a brotli (`.br`) and a gzip (`.gz`)
 * sibling, which the server sends by the request's Accept-Encoding (@fastify/static's
 * `preCompressed`). A tablet on the museum's Wi-Fi then moves about a third of the bytes
 * (issue 25: the sign-in page moved 1,374 KiB uncompressed), and the service worker's precache,
 * which fetches through the browser's own Accept-Encoding, gets the same small files. Compressing
 * once at build time costs nothing per request, and brotli at its highest quality is affordable
 * only there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** Text formats only: images, fonts (woff2 is compressed already) and archives gain nothing. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|wasm|map)$/i;
/** Below this a compressed copy saves less than its own headers and a second file. */
const MIN_BYTES = 1024;
/** A copy that does not save a tenth is not worth a second read on every request. */
const MIN_SAVING = 0.9;

/**
 * The service worker is written by vite-plugin-pwa's own closing hook, which may run after ours:
 * a sibling compressed before the manifest is injected would serve a stale worker to every
 * browser that accepts brotli. It is small and revalidated on each load, so it goes as it is.
 */
const SKIP = new Set(['sw.js']);

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function* files(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.isFile()) yield p;
  }
}

export interface PrecompressResult {
  files: number;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

/** Writes `.br` and `.gz` beside each compressible file of `dir` (replacing older ones). */
export async function precompressDir(dir: string): Promise<PrecompressResult> {
  const out: PrecompressResult = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const work: Promise<void>[] = [];
  for (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file) || SKIP.has(path.relative(dir, file))) continue;
    const data = fs.readFileSync(file);
    if (data.length < MIN_BYTES) continue;
    work.push(
      (async () => {
        const [br, gz] = await Promise.all([
          brotli(data, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          }),
          gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
        ]);
        // A stale sibling from an earlier build must never be served for new bytes.
        for (const [ext, bytes] of [
          ['.br', br],
          ['.gz', gz],
        ] as const) {
          if (bytes.length <= data.length * MIN_SAVING) fs.writeFileSync(file + ext, bytes);
          else fs.rmSync(file + ext, { force: true });
        }
        out.files += 1;
        out.bytes += data.length;
        out.brotliBytes += Math.min(br.length, data.length);
        out.gzipBytes += Math.min(gz.length, data.length);
      })(),
    );
  }
  await Promise.all(work);
  return out;
}

/** The Vite plugin: runs after every other plugin has written (the service worker included). */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'guanwuyun-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await precompressDir(outDir);
      },
    },
  };
}
