/**
 * Builds the front end when `dist/` is missing or older than its sources, so `npm start` on a
 * fresh clone just works and a second start does not rebuild. Staleness is judged by the
 * newest modification time among the inputs of the Vite build (scripts/stale.mjs). The server
 * bundle (`dist-server/`, scripts/build-server.ts: half a second) is built the same way when
 * its own sources are newer than its stamp.
 *
 * A first build takes about half a minute, so it says what it is doing: the phase, how many
 * modules it has compiled (against the last build's count, once there was one) and the time,
 * on one line that updates in a terminal and every few seconds in a log. The build runs in a
 * child process: what Vite, rolldown and the service-worker build print there (some of it
 * straight to the file descriptor) is kept back and shown only when the build fails, and their
 * warnings after it; progress comes back over IPC. The server never holds the bundler in
 * memory. `--strict` (the test command, so CI) fails on a warning, so a deprecation like
 * rolldown's `inlineDynamicImports` cannot creep back unnoticed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { buildServer } from './build-server';
import { BUILDS, isStale as isStaleBuild } from './stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = BUILDS.front.stamp;

/** True when the front end is stale (scripts/stale.mjs holds the inputs of both builds). */
export function isStale(): boolean {
  return isStaleBuild('front');
}

/** The stamp holds when the last build finished and how many modules it compiled. */
function lastModuleCount(): number | null {
  try {
    const n = (JSON.parse(fs.readFileSync(STAMP, 'utf8')) as { modules?: unknown }).modules;
    return typeof n === 'number' && n > 0 ? n : null;
  } catch {
    return null; // no stamp, or one from before it held JSON
  }
}

export type Phase = 'start' | 'compile' | 'bundle' | 'worker' | 'done';
const PHASE_TEXT: Record<Phase, string> = {
  start: '准备',
  compile: '编译源代码',
  bundle: '打包输出文件',
  worker: '生成离线缓存（Service Worker）',
  done: '完成',
};

/** One progress line: `正在构建前端：编译源代码，已编译 3,120 / 约 8,700 个模块（36%）· 12 秒`. */
export function progressLine(
  phase: Phase,
  modules: number,
  expected: number | null,
  seconds: number,
): string {
  const time = `${Math.round(seconds)} 秒`;
  if (phase === 'done') return `前端构建完成，共 ${modules.toLocaleString('en-US')} 个模块，用时 ${time}`;
  let count = '';
  if (phase === 'compile' && modules > 0) {
    if (expected) {
      const percent = Math.min(99, Math.floor((modules / expected) * 100));
      count = `，已编译 ${modules.toLocaleString('en-US')} / 约 ${expected.toLocaleString('en-US')} 个模块（${percent}%）`;
    } else count = `，已编译 ${modules.toLocaleString('en-US')} 个模块`;
  }
  return `正在构建前端：${PHASE_TEXT[phase]}${count} · ${time}`;
}

/** Lines of the bundlers' own output that a person must see even when the build succeeds. */
export function isWarning(line: string): boolean {
  return /\bwarn(ing)?\b|deprecat|\(!\)/i.test(line);
}

/** What the child tells the parent. */
type Progress = { phase: Phase; modules: number };

/** Counts compiled modules and names the phases (a plugin of the main build only). */
function progressPlugin(report: (p: Progress) => void): Plugin {
  let modules = 0;
  let last = 0;
  return {
    name: 'gwy:build-progress',
    apply: 'build',
    buildStart: () => report({ phase: 'compile', modules }),
    transform: {
      order: 'post',
      handler() {
        modules++;
        // A few messages a second is plenty for a progress line.
        if (Date.now() - last > 200) {
          last = Date.now();
          report({ phase: 'compile', modules });
        }
        return null;
      },
    },
    renderStart: () => report({ phase: 'bundle', modules }),
    // vite-plugin-pwa builds the service worker once the app is written.
    writeBundle: () => report({ phase: 'worker', modules }),
  };
}

/** The child: runs Vite's build and reports progress to the parent. */
async function runBuild(): Promise<void> {
  const send = (p: Progress) => process.send?.(p);
  const { build } = await import('vite');
  await build({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'warn',
    plugins: [progressPlugin(send)],
  });
}

/** Builds `dist/` with progress; exits non-zero on failure (and, strict, on warnings). */
export async function buildFrontEnd(options: { strict?: boolean } = {}): Promise<void> {
  const started = Date.now();
  const tty = Boolean(process.stdout.isTTY);
  const expected = lastModuleCount();
  let state: Progress = { phase: 'start', modules: 0 };
  let lastLogged = 0;
  const show = (force = false) => {
    const line = progressLine(state.phase, state.modules, expected, (Date.now() - started) / 1000);
    if (tty) process.stdout.write(`\r\x1b[2K${line}`);
    else if (force || Date.now() - lastLogged >= 5000) {
      process.stdout.write(`${line}\n`);
      lastLogged = Date.now();
    }
  };
  console.log(
    expected ? '正在构建前端（代码有更新）…' : '正在构建前端（首次启动或代码有更新，大约需要半分钟）…',
  );
  show(true);
  const ticker = setInterval(() => show(), tty ? 250 : 1000);

  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  child.on('message', (m: Progress) => {
    const changed = m.phase !== state.phase;
    state = m;
    show(changed);
  });
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  clearInterval(ticker);
  if (tty) process.stdout.write('\n');
  // eslint-disable-next-line no-control-regex
  const lines = output.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trimEnd());
  if (code !== 0) {
    for (const l of lines) if (l) console.error(l);
    console.error('前端构建失败，请查看上面的错误信息');
    process.exit(code);
  }
  state = { phase: 'done', modules: state.modules };
  show(true);
  if (tty) process.stdout.write('\n');
  const warnings = lines.filter(isWarning);
  for (const w of warnings) console.warn(`构建警告：${w.trim()}`);
  if (warnings.length && options.strict) {
    // No stamp: the next strict run builds again and fails again until the warning is gone.
    console.error(`前端构建有 ${warnings.length} 条警告（--strict 时视为失败），请处理后再试`);
    process.exit(1);
  }
  fs.writeFileSync(STAMP, JSON.stringify({ at: new Date().toISOString(), modules: state.modules }));
}

/** Builds `dist-server/` and stamps it; exits non-zero when esbuild fails. */
export async function buildServerNow(): Promise<void> {
  try {
    const { ms } = await buildServer();
    console.log(`服务端构建完成，用时 ${(ms / 1000).toFixed(1)} 秒`);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    console.error('服务端构建失败，请查看上面的错误信息');
    process.exit(1);
  }
}

/** `npm start`, the e2e setup and the benchmarks: builds what is stale, the front end and the server. */
export async function buildIfStale(options: { strict?: boolean } = {}): Promise<void> {
  if (isStale()) await buildFrontEnd(options);
  if (isStaleBuild('server')) await buildServerNow();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--child')) await runBuild();
  else await buildIfStale({ strict: process.argv.includes('--strict') });
}
