import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from '../../scripts/build-server';
import { isStale } from '../../scripts/stale.mjs';
import { openDatabase, type Db } from '../../src/server/db/index';
import { ADMIN_PASSWORD, DEMO_PASSWORD, type TestServer } from '../server/harness';
import { dropTestDatabase, testDatabase } from '../server/postgres';
import { scaleTestEnv } from '../server/scale-env';
import { PIN, startNginx, UPSTREAM } from './nginx';
import { freePort } from './services';

/*
 * A scale-out installation as a museum group runs it: server instances in processes of their
 * own, each started the way `npm start` starts one (the built dist-server/main.js, built here
 * first when its sources are newer: scripts/build-server.ts; configured only by the
 * environment), on one PostgreSQL database, one Redis and one bucket (s3rver), behind Debian's
 * nginx (round robin). A test reaches the installation through nginx only: `front` goes
 * wherever the balancer sends it, `via(n)` is pinned to instance n (tests/scale/nginx.ts).
 * `kill(n)` ends an instance with SIGKILL, as a crashed machine would: no graceful close.
 */

/** A client of the installation with the API tests' TestServer shape (url, call, login, db). */
export type Client = TestServer & { pin: string | null };

export interface Installation {
  front: Client;
  via(n: number): Client;
  /** Addresses of the instances (host:port), as nginx names them in X-Gwy-Upstream. */
  upstreams: string[];
  kill(n: number): Promise<void>;
  /** Instance n's own DATA_DIR (its scratch space; nothing shared may be there). */
  dataDirOf(n: number): string;
  /** The error lines instance n has logged (level error or fatal), newest last. */
  errorsOf(n: number): string[];
  db: Db;
  close(): Promise<void>;
}

interface Proc {
  child: ChildProcess;
  address: string;
  /** The tail of what the instance printed (its log), for a failure to show why. */
  said(): string;
}

/** How much of an instance's output is kept: enough for the errors of one test. */
const KEPT_OUTPUT = 256 * 1024;

async function startInstance(env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  const main = path.resolve('dist-server/main.js');
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance did not start in 90 s:\n${said}`)), 90_000);
    const onData = (d: Buffer) => {
      said += String(d);
      if (said.includes('馆务云已启动')) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`instance exited (${code}):\n${said}`));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
  });
  // Keep draining its output, or a chatty instance would block on a full pipe; keep its tail,
  // so that a test that got a 500 can say what the instance logged for it.
  const keep = (d: Buffer) => {
    said += String(d);
    if (said.length > 2 * KEPT_OUTPUT) said = said.slice(-KEPT_OUTPUT);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { child, address: `127.0.0.1:${port}`, said: () => said.slice(-KEPT_OUTPUT) };
}

function clientOf(url: string, db: Db, pin: string | null): Client {
  const pinned = (h: Record<string, string> = {}) => (pin === null ? h : { ...h, [PIN]: pin });
  const call: TestServer['call'] = async (method, p, o = {}) => {
    const headers = pinned(o.headers);
    if (o.token) headers.token = o.token;
    let body: string | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(url + p, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
  const login = async (
    username: string,
    password = username === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD,
  ) => {
    const res = await call('POST', '/singleMuseum/login/webLogin', { body: { username, password } });
    if (!res.body?.success) throw new Error(`login ${username} failed: ${JSON.stringify(res.body)}`);
    return res.body.result.token as string;
  };
  // Only what the suite uses of a TestServer: address, calls, sign-in, the database.
  return { url, call, login, db, pin } as unknown as Client;
}

/**
 * `count` instances on PostgreSQL + Redis + s3rver behind nginx. Needs the setup of
 * vitest.scale.config.ts (PostgreSQL, redis-server and s3rver running).
 */
export async function startInstallation(
  count: number,
  env: Record<string, string> = {},
): Promise<Installation> {
  const pgAdmin = process.env.GWY_TEST_PG;
  if (!pgAdmin || !process.env.SCALE_TEST_S3_ENDPOINT || !process.env.SCALE_TEST_REDIS_URL) {
    throw new Error(
      'the multi-instance suite needs the setup of vitest.scale.config.ts (npm run test:scale)',
    );
  }
  if (isStale('server')) await buildServer();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-nginx-pair-'));
  const tag = path.join(root, `lb-${randomUUID().slice(0, 8)}`);
  const databaseUrl = await testDatabase(pgAdmin, process.env.GWY_TEST_PG_TEMPLATE!, tag);
  const shared = { ...scaleTestEnv(tag), DATABASE_URL: databaseUrl };
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) =>
      startInstance({
        DATA_DIR: path.join(root, `instance-${i}`),
        DIST_DIR: path.join(root, 'no-dist'),
        ADMIN_PASSWORD,
        // nginx is the proxy: the person's address comes from its X-Forwarded-For.
        TRUST_PROXY: '127.0.0.1',
        NODE_ENV: 'production',
        ...shared,
        ...env,
      }),
    ),
  );
  const procs = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const refused = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (refused) {
    // No instance outlives a start that failed.
    for (const p of procs) p.child.kill('SIGKILL');
    await dropTestDatabase(pgAdmin, tag);
    fs.rmSync(root, { recursive: true, force: true });
    throw refused.reason;
  }
  const upstreams = procs.map((p) => p.address);
  const nginx = await startNginx(upstreams);
  const db = await openDatabase({ dbFile: '', databaseUrl, databasePoolMax: 4 });
  const kill = async (n: number) => {
    const { child } = procs[n]!;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  return {
    front: clientOf(nginx.url, db, null),
    via: (n) => clientOf(nginx.url, db, String(n)),
    upstreams,
    kill,
    dataDirOf: (n) => path.join(root, `instance-${n}`),
    errorsOf: (n) =>
      procs[n]!.said()
        .split('\n')
        // pino's levels: 50 error, 60 fatal.
        .filter((line) => /"level":(50|60)\b/.test(line)),
    db,
    async close() {
      await nginx.stop();
      for (let i = 0; i < procs.length; i++) await kill(i);
      await db.destroy();
      await dropTestDatabase(pgAdmin, tag);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Which instance answered (its index in `upstreams`), from nginx's header; -1 if none. */
export function answeredBy(inst: Installation, headers: Headers): number {
  const all = (headers.get(UPSTREAM) ?? '').split(/,\s*/);
  // After a refused connection nginx names every instance it tried; the last one answered.
  return inst.upstreams.indexOf(all[all.length - 1]!);
}
