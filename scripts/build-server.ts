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
 * - node_modules stay external (`packages: 'external'`): native modules (better-sqlite3, sharp)
 *   cannot be bundled, and Node loads the rest from node_modules as it does today.
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
    packages: 'external',
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
