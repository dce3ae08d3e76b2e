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
import { startServer } from '../server/harness';
import { summarize } from './profile-summary';

const CALLS = Number(process.argv[2] ?? 10_000);
const s = await startServer({ RATE_LIMIT_PER_MINUTE: '100000000' });
try {
  const token = await s.login('staff02');
  // '/p/' holding one entry, as drive-list.ts's fixed cost lists: an empty folder would add the
  // statement that tells an empty folder from a missing one.
  for (const [filePath, fileName] of [
    ['/', 'p'],
    ['/p/', 'q'],
  ] as const) {
    const res = await s.call('POST', '/wangpan/file/createfile', {
      token,
      body: { filePath, fileName, isDir: 1 },
    });
    if (res.body.success !== true) throw new Error(`createfile ${filePath}${fileName}: ${res.body.message}`);
  }
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

  console.log(
    `\n${CALLS} sequential getfilelist calls (1-entry folder): ${(ms / CALLS).toFixed(3)} ms per call, client included`,
  );
  summarize(profile, CALLS, 'call');
} finally {
  await s.close();
}
