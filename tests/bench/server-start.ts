/**
 * Server start and memory at rest (issue 25).
 *
 * Start: the time from spawning to the first answer (GET /login, polled every 10 ms), with a data
 * dir already migrated and seeded with the demo museum (a restart, not the first start), both
 * builds fresh. Rows:
 * - product: `npm start` (scripts/start.mjs → the built dist-server/main.js), npm included;
 * - reference: a bare node http server answering the same poll, started with node;
 * - npm's floor: that bare server started by `npm start` of a package of its own. npm itself
 *   (loading its code, reading package.json, a shell) takes 0.3–0.5 s on these machines before
 *   any of ours runs, so it is reported beside the product's `npm start`: the ≤ 0.5 s target
 *   leaves no room for a server at all once npm has taken its share;
 * - for comparison: the server from its sources through tsx (`node --import tsx src/server/main.ts`,
 *   what `npm start` ran before issue 25) and the built server without npm.
 *
 * Memory at rest: the built server as `npm start` runs it (SEED_DEMO=1 on the seeded data dir),
 * after admin and staff01 sign in and make a few calls (user info, the drive's listing, the
 * notices), then 10 s idle: its RSS (from /proc) and where it is, through a probe preloaded
 * into the process (tests/bench/server-probe.mjs: process.memoryUsage, V8's heap statistics).
 * Reference: a bare node http server's RSS after the same wait.
 *
 * Median of three rounds each.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildIfStale } from '../../scripts/build-if-stale';
import { clientOf } from '../server/harness';
import { freePort } from '../scale/services';
import { median, report } from './report';

const root = path.resolve(import.meta.dirname, '../..');
const ROUNDS = 3;
const IDLE_MS = 10_000;
const probe = path.join(root, 'tests/bench/server-probe.mjs');
const BARE = `require('node:http').createServer((q, r) => r.end('ok')).listen(Number(process.env.PORT), process.env.HOST);`;

await buildIfStale();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-start-bench-'));
const env = (port: number) => ({
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DIST_DIR: path.join(root, 'dist'),
  ADMIN_PASSWORD: 'Admin@12345',
  SEED_DEMO: '1',
  DEMO_PASSWORD: 'Demo@2026',
  NODE_ENV: 'production',
  RATE_LIMIT_PER_MINUTE: '1000000',
});

interface Started {
  child: ChildProcess;
  url: string;
  ms: number;
}

/** Spawns `cmd args`, polls GET /login until it answers; the time from spawn to that answer. */
async function start(
  cmd: string,
  args: string[],
  ipc = false,
  extraEnv: Record<string, string> = {},
  cwd = root,
): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(cmd, args, {
    cwd,
    env: { ...env(port), ...extraEnv },
    stdio: ipc ? ['ignore', 'ignore', 'pipe', 'ipc'] : ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group: npm's children end with it
  });
  let said = '';
  child.stderr!.on('data', (d: Buffer) => (said += String(d)));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited:\n${said}`);
    try {
      const res = await fetch(`${url}/login`);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(10);
    if (performance.now() - t0 > 120_000) throw new Error(`no answer in 120 s:\n${said}`);
  }
  return { child, url, ms: performance.now() - t0 };
}

async function stop(s: Started): Promise<void> {
  const exited = new Promise((r) => s.child.once('exit', r));
  process.kill(-s.child.pid!, 'SIGTERM');
  await exited;
}

const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

const node = process.execPath;
// A package whose `npm start` is the bare server: what npm costs on its own.
const bareApp = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-bare-npm-'));
fs.writeFileSync(
  path.join(bareApp, 'package.json'),
  JSON.stringify({ name: 'bare', private: true, scripts: { start: `node -e ${JSON.stringify(BARE)}` } }),
);
const variants = {
  bare: () => start(node, ['-e', BARE]),
  npmBare: () => start('npm', ['start', '--silent'], false, {}, bareApp),
  npmStart: () => start('npm', ['start', '--silent']),
  built: () => start(node, ['dist-server/main.js']),
  tsx: () => start(node, ['--import', 'tsx', 'src/server/main.ts']),
};

// The first start migrates and seeds the data dir; the rounds are restarts.
await stop(await variants.built());

const times: Record<keyof typeof variants, number[]> = {
  bare: [],
  npmBare: [],
  npmStart: [],
  built: [],
  tsx: [],
};
for (let round = 0; round < ROUNDS; round++) {
  for (const k of Object.keys(variants) as (keyof typeof variants)[]) {
    const s = await variants[k]();
    times[k].push(s.ms);
    await stop(s);
  }
}

interface Sample {
  usage: NodeJS.MemoryUsage;
  heap: { total_heap_size: number; used_heap_size: number; external_memory: number; malloced_memory: number };
  spaces: { name: string; used: number; size: number }[];
}
const sample = (child: ChildProcess) =>
  new Promise<Sample>((resolve) => {
    child.once('message', (m) => resolve(m as Sample));
    child.send('sample');
  });

// The environment package.json's start script sets (glibc's mmap threshold, README "Speed").
const startEnv = Object.fromEntries(
  [
    ...(
      JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }
    ).scripts.start.matchAll(/\b([A-Z_]+)=(\S+)/g),
  ].map((m) => [m[1]!, m[2]!]),
);
const rss: number[] = [];
const bareRss: number[] = [];
let last: Sample | undefined;
for (let round = 0; round < ROUNDS; round++) {
  const s = await start(node, ['--import', probe, 'scripts/start.mjs'], true, startEnv);
  const { call, login } = clientOf(s.url);
  for (const who of ['admin', 'staff01']) {
    const token = await login(who);
    await call('GET', '/singleMuseum/login/userInfo', { token });
    await call('GET', '/wangpan/file/getfilelist?filePath=%2F&currentPage=1&pageCount=100', { token });
    await call('POST', '/singleMuseum/notice/list', { token, body: {} });
  }
  await sleep(IDLE_MS);
  rss.push(rssOf(s.child.pid!));
  last = await sample(s.child);
  await stop(s);

  const b = await start(node, ['-e', BARE]);
  await sleep(IDLE_MS);
  bareRss.push(rssOf(b.child.pid!));
  await stop(b);
}
fs.rmSync(dataDir, { recursive: true, force: true });
fs.rmSync(bareApp, { recursive: true, force: true });

const ms = (x: number) => `${(x / 1000).toFixed(2)} s`;
const mb = (x: number) => `${(x / 2 ** 20).toFixed(0)} MB`;
const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])) as Record<
  keyof typeof variants,
  number
>;
console.log(`\n馆务云 server start (to the first answer, restart of a seeded data dir; median of ${ROUNDS})`);
console.log(`  bare node http server        ${ms(m.bare)}`);
console.log(`  the bare server by npm start ${ms(m.npmBare)}   ×${(m.npmBare / m.bare).toFixed(2)} of bare`);
console.log(
  `  npm start (built)            ${ms(m.npmStart)}   ×${(m.npmStart / m.bare).toFixed(2)} of bare`,
);
console.log(`  node dist-server/main.js     ${ms(m.built)}   ×${(m.built / m.bare).toFixed(2)} of bare`);
console.log(`  node --import tsx (sources)  ${ms(m.tsx)}   ×${(m.tsx / m.bare).toFixed(2)} of bare`);
const r = median(rss);
const br = median(bareRss);
console.log(
  `\nMemory at rest (built server, demo data, after sign-ins and ${IDLE_MS / 1000} s idle; median of ${ROUNDS})`,
);
console.log(`  RSS ${mb(r)} (bare node ${mb(br)})`);
if (last) {
  const u = last.usage;
  console.log(
    `  last round: V8 heap used ${mb(u.heapUsed)} of ${mb(u.heapTotal)}, external ${mb(u.external)} (array buffers ${mb(u.arrayBuffers)}), malloced by V8 ${mb(last.heap.malloced_memory)}`,
  );
  console.log(
    `  the rest (RSS − heap total − external: code, native libraries, SQLite, stacks): ${mb(u.rss - u.heapTotal - u.external)}`,
  );
  for (const sp of last.spaces)
    if (sp.size > 2 ** 20) console.log(`    ${sp.name.padEnd(24)} ${mb(sp.used)} used of ${mb(sp.size)}`);
}

report({
  measure: 'server start (`npm start` to the first answer, built already)',
  product: ms(m.npmStart),
  reference: `${ms(m.bare)} (bare node http server)`,
  ratio: m.npmStart / m.bare,
  target: '≤ 0.5 s',
  met: m.npmStart <= 500,
});
report({
  measure: 'the same, npm set aside: `npm start` against the bare server by `npm start`',
  product: ms(m.npmStart),
  reference: `${ms(m.npmBare)} (bare node http server, by npm start)`,
  ratio: m.npmStart / m.npmBare,
  target: '—',
  met: null,
});
report({
  measure: 'built server alone (`node dist-server/main.js` to the first answer)',
  product: ms(m.built),
  reference: `${ms(m.bare)} (bare node http server)`,
  ratio: m.built / m.bare,
  target: '—',
  met: null,
});
report({
  measure: 'server start from the sources through tsx (before issue 25, for comparison)',
  product: ms(m.tsx),
  reference: `${ms(m.bare)} (bare node http server)`,
  ratio: m.tsx / m.bare,
  target: '—',
  met: null,
});
report({
  measure: 'server memory at rest (RSS, demo data, after sign-ins, 10 s idle)',
  product: mb(r),
  reference: `${mb(br)} (bare node process)`,
  ratio: r / br,
  target: '≤ 200 MB',
  met: r <= 200 * 2 ** 20,
});
