/**
 * Builds the server once, like the front end (issue 25): esbuild bundles src/server into
 * `dist-server/` so `npm start` and the end-to-end servers run plain JavaScript instead of
 * transpiling every TypeScript module through tsx at each start (about a second on a busy
 * machine).
 *
 * - One entry per thing Node starts on its own: the server (`main.js`) and every worker-thread
 *   entry (`extract.worker.js`, the unzip worker that run-extract.ts starts). A new Worker or
 *   child-process entry under src/server must be added to ENTRIES, and tests/server/
 *   build-server.test.ts checks they all come out.
 * - node_modules are bundled too, except those in EXTERNAL. Node resolved, read and compiled
 *   about 700 files of packages at every start (kysely alone is 215, zod 95, fastify 89): about
 *   0.3 s of a 1.5 s start (issue 25). Kept external: native modules (better-sqlite3, sharp), and
 *   packages that find their own files next to themselves (`__dirname`, which an ES module
 *   bundle does not have; tests/server/build-server.test.ts refuses one that slips in). The
 *   bundle's CommonJS packages `require` Node's built-ins through the banner's `require`.
 * - Linked source maps: src/server/stack-map.ts (imported first by every entry) maps a stack
 *   trace in the log to src/server/… lines when it is printed. Node's --enable-source-maps would
 *   parse every map at each start instead (issue 25).
 * - Migrations are imported statically (db/migrations/index.ts), so they are in the bundle.
 *
 * Used by build-if-stale.ts (npm start, npm run build, the e2e setup), or alone:
 * `npx tsx scripts/build-server.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_OUT = path.join(root, 'dist-server');

/**
 * Packages Node loads from node_modules at run time rather than from the bundle: native
 * modules, and packages that read files beside their own code (pino's and thread-stream's
 * worker files, ioredis's error stacks, 7z-wasm's .wasm). pg is loaded by `createRequire` only
 * on PostgreSQL (server/db), and tsx only when the server runs from its sources.
 */
export const EXTERNAL = [
  'better-sqlite3',
  'sharp',
  'pino',
  'thread-stream',
  'ioredis',
  '7z-wasm',
  'pg',
  'tsx',
  // Fastify's default compilers, which never run: app.ts hands it zod's. Bundled, their 1.1 MB
  // was still parsed at every start; left outside, Node would load them only if one ran.
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
  'fast-json-stringify',
  'ajv',
  'ajv-formats',
];

/** Output name (without .js) → source. */
export const ENTRIES: Record<string, string> = {
  main: 'src/server/main.ts',
  'extract.worker': 'src/server/modules/unzip/extract.worker.ts',
};

/** Builds into `outdir` (dist-server/; the test builds into a folder of its own). */
export async function buildServer(outdir = SERVER_OUT): Promise<{ files: string[]; ms: number }> {
  const started = Date.now();
  const { build } = await import('esbuild');
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([out, src]) => [out, path.join(root, src)])),
    outdir,
    bundle: true,
    // A dynamic import() of our own code (the S3 stores, loaded only with BLOB_STORE=s3) becomes
    // a chunk of its own, so its packages load with it and not at start.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    external: EXTERNAL,
    // CommonJS packages in an ES module bundle call `require` (for node:fs…), which ES modules
    // lack: each output file gets one of its own.
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    // Relative to the map, so the trace names src/server/… wherever the checkout lives.
    sourcesContent: false,
    outExtension: { '.js': '.js' },
    logLevel: 'warning',
    // Tests are never part of the server.
    tsconfig: path.join(root, 'tsconfig.server.json'),
  });
  // What build-if-stale.ts / start.mjs compare with the sources' times.
  fs.writeFileSync(path.join(outdir, '.build-stamp'), JSON.stringify({ at: new Date().toISOString() }));
  // The package is "type": "module", so .js files here are ES modules.
  const files = fs
    .readdirSync(outdir)
    .filter((f) => !f.startsWith('.'))
    .sort();
  return { files, ms: Date.now() - started };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, ms } = await buildServer();
  console.log(`服务端构建完成：${files.filter((f) => f.endsWith('.js')).join('、')}，用时 ${ms} 毫秒`);
}
