/**
 * `npm start`: builds the front end and the server if either is stale (scripts/build-if-stale.ts,
 * through tsx, only then), then runs the built server (dist-server/main.js) with the embedded
 * SQLite database. The server prints its address and the admin sign-in.
 *
 * Plain JavaScript and no tsx on a start where both builds are fresh: transpiling the server's
 * TypeScript at each start cost about a second (issue 25). Stack traces name src/server/… lines
 * through the bundle's own mapping (src/server/stack-map.ts), not --enable-source-maps, which
 * parsed every source map at each start.
 */
import { spawnSync } from 'node:child_process';
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isStale, root } from './stale.mjs';

if (isStale('front') || isStale('server')) {
  const build = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts', 'build-if-stale.ts')],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// Node 22.1 and later keep V8's compiled code of the bundle and node_modules on disk between
// starts (a no-op on Node 20).
module.enableCompileCache?.();
await import(pathToFileURL(path.join(root, 'dist-server', 'main.js')).href);
