/**
 * Where the fixed cost of a signed-in call goes (issue 25): a CPU profile of 10,000
 * `file/getfilelist` calls on a one-entry folder (so the SQL is negligible), taken with the
 * inspector in this process, summarized by self time per package / our file, and the top
 * functions. The client's own share (undici's fetch) is listed apart, so the server's is
 * readable. `npx tsx tests/bench/call-profile.ts [calls]`; writes the raw profile to
 * .tmp/call-profile.cpuprofile (open it in Chromium's DevTools for the flame graph).
 * Not part of `npm run bench` (a profile is a tool, not a figure).
 */
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import path from 'node:path';
import { startServer } from '../server/harness';

const CALLS = Number(process.argv[2] ?? 10_000);
const s = await startServer({ RATE_LIMIT_PER_MINUTE: '100000000' });
try {
  const token = await s.login('staff02');
  await s.call('POST', '/wangpan/file/createfile', {
    token,
    body: { filePath: '/', fileName: 'p', isDir: 1 },
  });
  const url = `${s.url}/wangpan/file/getfilelist?filePath=${encodeURIComponent('/p/')}&currentPage=1&pageCount=100`;
  const once = async () => {
    const res = await fetch(url, { headers: { token } });
    await res.arrayBuffer();
  };
  for (let i = 0; i < 500; i++) await once();

  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await once();
  const ms = performance.now() - t0;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  fs.mkdirSync('.tmp', { recursive: true });
  fs.writeFileSync('.tmp/call-profile.cpuprofile', JSON.stringify(profile));

  // Self time per node, from the samples and their time deltas.
  const self = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0) / 1000));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byGroup = new Map<string, number>();
  const byFn = new Map<string, number>();
  const root = process.cwd();
  for (const n of profile.nodes) {
    const t = self.get(n.id) ?? 0;
    if (!t) continue;
    const u = n.callFrame.url;
    let group: string;
    if (!u) group = `(${n.callFrame.functionName || 'native'})`;
    else if (u.includes('/node_modules/')) {
      const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u);
      group = m![1]!;
    } else if (u.startsWith('node:'))
      group = u.split('/')[0]!.replace(/:.*$/, ':') + u.slice(5).split('/')[0];
    else group = path.relative(root, u.replace('file://', ''));
    byGroup.set(group, (byGroup.get(group) ?? 0) + t);
    const fn = `${n.callFrame.functionName || '(anonymous)'}  ${group}:${n.callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + t);
  }
  const top = (m: Map<string, number>, k: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(
        ([name, t]) =>
          `${((t / CALLS) * 1000).toFixed(1).padStart(7)} µs/call ${((100 * t) / total).toFixed(1).padStart(5)} %  ${name}`,
      )
      .join('\n');
  console.log(
    `\n${CALLS} sequential getfilelist calls (1-entry folder): ${(ms / CALLS).toFixed(3)} ms per call, client included`,
  );
  console.log(`\nself time by package / file (client and server share this process):\n${top(byGroup, 30)}`);
  console.log(`\ntop functions by self time:\n${top(byFn, 40)}`);
} finally {
  await s.close();
}
