/**
 * Where a chunk POST's server time goes (issue 25): a CPU profile of one chunked upload (1 MiB
 * chunks, 3 in flight, as the app sends them) taken with the inspector in this process, and the
 * process's CPU per chunk. Summarized by self time per package / our file, and the top functions;
 * the client (undici's fetch) shares the process and shows as its own groups. `npx tsx
 * tests/bench/upload-profile.ts [MiB]`; writes .tmp/upload-profile.cpuprofile (open it in
 * Chromium's DevTools for the flame graph). Not part of `npm run bench` (a tool, not a figure).
 */
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import { startServer } from '../server/harness';
import { paramsOf, postChunkOctet } from '../server/upload-util';
import { summarize } from './profile-summary';

const MIB = 1024 * 1024;
const SIZE = Number(process.argv[2] ?? 200) * MIB;
const IN_FLIGHT = 3;

const s = await startServer({ RATE_LIMIT_PER_MINUTE: '100000000' });
try {
  const token = await s.login('staff02');
  // The file and its parameters (its MD5) are made before the profile: only sending is in it.
  const mib = (await import('node:crypto')).randomBytes(MIB);
  const fileOf = (name: string) => {
    const file = Buffer.alloc(SIZE);
    // Random-looking but cheap: one random MiB repeated, the chunk's number and the name in front.
    for (let a = 0; a < SIZE; a += MIB) {
      mib.copy(file, a);
      file.writeUInt32LE(a / MIB, a);
      file.write(name, a + 4);
    }
    return { file, p: paramsOf(file, name, {}, MIB) };
  };
  const upload = async ({ file, p }: ReturnType<typeof fileOf>) => {
    let next = 1;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next <= p.totalChunks) {
          const n = next++;
          const start = (n - 1) * MIB;
          const r = await postChunkOctet(
            s,
            token,
            p,
            n,
            file.subarray(start, n === p.totalChunks ? SIZE : start + MIB),
          );
          if (!r.body.success) throw new Error(`chunk ${n}: ${r.body.message}`);
        }
      }),
    );
  };
  const warm = fileOf('warm.bin');
  const profiled = fileOf('profiled.bin');
  await upload(warm);

  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await session.post('Profiler.start');
  await upload(profiled);
  const { profile } = await session.post('Profiler.stop');
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  session.disconnect();
  fs.mkdirSync('.tmp', { recursive: true });
  fs.writeFileSync('.tmp/upload-profile.cpuprofile', JSON.stringify(profile));
  const chunks = SIZE / MIB;
  console.log(
    `\n馆务云 upload profile: ${chunks} chunks of 1 MiB, ${IN_FLIGHT} in flight, ${(SIZE / 1e6 / (ms / 1000)).toFixed(0)} MB/s; ` +
      `process CPU ${((cpu.user + cpu.system) / 1000 / chunks).toFixed(2)} ms per chunk (client included)`,
  );
  summarize(profile, chunks, 'chunk');
} finally {
  await s.close();
}
