/**
 * Builds the front end when `dist/` is missing or older than its sources, so `npm start` on a
 * fresh clone just works and a second start does not rebuild. Staleness is judged by the
 * newest modification time among the inputs of the Vite build.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INPUTS = [
  'src/app',
  'src/shared',
  'workers',
  'public',
  'index.html',
  'vite.config.ts',
  'package-lock.json',
];
const STAMP = path.join(root, 'dist', '.build-stamp');

function newest(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const e of fs.readdirSync(p)) max = Math.max(max, newest(path.join(p, e)));
  return max;
}

export function buildIfStale(): void {
  const built = fs.existsSync(STAMP) ? fs.statSync(STAMP).mtimeMs : 0;
  const sources = Math.max(...INPUTS.map((i) => newest(path.join(root, i))));
  if (built >= sources) return;
  console.log('正在构建前端（首次启动或代码有更新）…');
  const res = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (res.status !== 0) {
    console.error('前端构建失败，请查看上面的错误信息');
    process.exit(res.status ?? 1);
  }
  fs.writeFileSync(STAMP, new Date().toISOString());
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildIfStale();
