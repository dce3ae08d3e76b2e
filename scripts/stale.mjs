/**
 * Whether the front end (`dist/`) or the server (`dist-server/`) is older than its sources, by
 * the newest modification time among a build's inputs against the stamp its last build wrote.
 * Plain JavaScript so `npm start` (scripts/start.mjs) can ask it without loading tsx: a start
 * with both builds fresh runs no TypeScript at all. build-if-stale.ts builds what is stale.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Each build's inputs (relative to the root) and its stamp. */
export const BUILDS = {
  front: {
    inputs: [
      'src/app',
      'src/shared',
      'workers',
      'public',
      'index.html',
      'login.html',
      'vite.config.ts',
      'scripts/precompress.ts',
      'scripts/js-budget.ts',
      'package-lock.json',
    ],
    stamp: path.join(root, 'dist', '.build-stamp'),
  },
  server: {
    inputs: ['src/server', 'src/shared', 'scripts/build-server.ts', 'package-lock.json'],
    stamp: path.join(root, 'dist-server', '.build-stamp'),
  },
};

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const e of fs.readdirSync(p)) max = Math.max(max, newest(path.join(p, e)));
  return max;
}

/** True when `which` build is missing or older than one of its inputs. */
export function isStale(which) {
  const { inputs, stamp } = BUILDS[which];
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  const sources = Math.max(...inputs.map((i) => newest(path.join(root, i))));
  return built < sources;
}
