/**
 * The object store (issue 19): a file through the API to a server on BLOB_STORE=s3 (s3rver and
 * Redis each in its own process), against the same file to a server on the local store in the
 * same run. Each server runs in a process of its own (tests/scale/server-process.ts), so its
 * memory is measured without the client. Prints upload and download speeds as ratios of the
 * local reference, and what the server holds alive (heap and Buffers after a garbage
 * collection, sampled every 250 ms) for a small and a large file: flat memory means about the
 * same for both, whatever the size.
 * Alone: `npx tsx tests/bench/s3-memory.ts` (BENCH_S3_MIB=64,384 sets the sizes).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { TestServer } from '../server/harness';
import { ADMIN_PASSWORD } from '../server/harness';
import { bigFile, downloadMd5, uploadBig } from '../scale/big-file';
import { startRedis, startS3rver } from '../scale/services';

const MIB = 1024 * 1024;
const [small, large] = (process.env.BENCH_S3_MIB ?? '64,384').split(',').map(Number) as [number, number];

interface Child {
  url: string;
  sample(): Promise<{ live: number; rss: number }>;
  stop(): Promise<void>;
}

async function serverProcess(env: Record<string, string>): Promise<Child> {
  const child: ChildProcess = fork(new URL('../scale/server-process.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, ...env },
  });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  const { url } = await next<{ url: string }>();
  let queue: Promise<unknown> = Promise.resolve();
  return {
    url,
    sample() {
      const p = queue.then(() => {
        const answer = next<{ live: number; rss: number }>();
        child.send('sample');
        return answer;
      });
      queue = p;
      return p;
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.send('stop');
      await exited;
    },
  };
}

/** Enough of a TestServer for the upload helpers: its address and a JSON call. */
function client(url: string): TestServer {
  return {
    url,
    call: async (method: string, p: string, o: { token?: string; body?: unknown } = {}) => {
      const res = await fetch(url + p, {
        method,
        headers: { ...(o.token ? { token: o.token } : {}), 'content-type': 'application/json' },
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
      });
      return { status: res.status, headers: res.headers, body: await res.json() };
    },
  } as unknown as TestServer;
}

async function measure(server: Child, mib: number, name: string) {
  const s = client(server.url);
  const login = await s.call('POST', '/singleMuseum/login/webLogin', {
    body: { username: 'admin', password: ADMIN_PASSWORD },
  });
  const token = login.body.result.token as string;
  const f = bigFile(mib * MIB);
  const base = await server.sample();
  const peak = { ...base };
  let stop = false;
  const sampler = (async () => {
    while (!stop) {
      const m = await server.sample();
      peak.live = Math.max(peak.live, m.live);
      peak.rss = Math.max(peak.rss, m.rss);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  const t0 = performance.now();
  const id = await uploadBig(s, token, f, name);
  const up = performance.now() - t0;
  const t1 = performance.now();
  const got = await downloadMd5(s, token, id);
  const down = performance.now() - t1;
  stop = true;
  await sampler;
  if (got.md5 !== f.md5) throw new Error(`${name}: the download does not match the upload`);
  // What stays once the file is done: a leak would grow with each file.
  const after = await server.sample();
  return {
    mbps: { up: f.size / MIB / (up / 1000), down: f.size / MIB / (down / 1000) },
    live: peak.live - base.live,
    rss: peak.rss - base.rss,
    left: after.live - base.live,
  };
}

const redis = await startRedis();
const s3 = await startS3rver();
const local = await serverProcess({});
const remote = await serverProcess({ SCALE_TEST_S3_ENDPOINT: s3.url, SCALE_TEST_REDIS_URL: redis.url });
try {
  // Warm both paths first, so neither pays the JIT and the connections alone.
  await measure(local, 8, 'warm.bin');
  await measure(remote, 8, 'warm.bin');
  const refSmall = await measure(local, small, 'small.bin');
  const ref = await measure(local, large, 'large.bin');
  const a = await measure(remote, small, 'small.bin');
  const b = await measure(remote, large, 'large.bin');
  const mb = (n: number) => `${(n / MIB).toFixed(1)} MiB`;
  console.log(
    `\n对象存储 bench (1 MiB chunks, three in flight; server, s3rver and Redis each in its own process)`,
  );
  for (const [label, mib, r, base] of [
    ['local', small, refSmall, refSmall],
    ['local', large, ref, ref],
    ['S3   ', small, a, refSmall],
    ['S3   ', large, b, ref],
  ] as const) {
    const vs = label === 'S3   ' ? ` (×${(r.mbps.up / base.mbps.up).toFixed(2)} of local)` : '';
    const vsDown = label === 'S3   ' ? ` (×${(r.mbps.down / base.mbps.down).toFixed(2)})` : '';
    console.log(
      `${label} ${String(mib).padStart(4)} MiB: upload ${r.mbps.up.toFixed(1)} MB/s${vs}, ` +
        `download ${r.mbps.down.toFixed(1)} MB/s${vsDown}; server holds +${mb(r.live)} alive at most, ` +
        `+${mb(r.left)} after, RSS +${mb(r.rss)}`,
    );
  }
  // Peaks are chunks and parts in flight, so they move with load, not with the size; what a
  // server holding the file would show is the file.
  console.log(
    `S3 server, ${large} MiB file: at most ${((b.live / (large * MIB)) * 100).toFixed(1)} % of it alive ` +
      `(${small} MiB file: ${((a.live / (small * MIB)) * 100).toFixed(1)} %), ${mb(b.left)} left after`,
  );
} finally {
  await remote.stop();
  await local.stop();
  await redis.stop();
  await s3.stop();
}
