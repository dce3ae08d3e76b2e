import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { S3_TEST } from '../server/scale-env';

/*
 * The real parts of a scale-out installation, started by the tests themselves (never by hand):
 * Debian's redis-server on a free port, and the s3rver npm package as the S3 endpoint (MinIO
 * and Ceph cannot be installed here; the product reaches s3rver only through the AWS SDK, as it
 * would reach MinIO). Each runs as its own process, so the memory of the server under test is
 * its own.
 */

export interface Service {
  url: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves with the first stdout line that `match`es, or rejects with what the process said. */
function waitFor(child: ChildProcess, match: (line: string) => boolean, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let said = '';
    const timer = setTimeout(() => done(new Error(`${what} did not start in 20 s:\n${said}`)), 20_000);
    const onData = (d: Buffer) => {
      said += String(d);
      const line = said.split('\n').find(match);
      if (line) done(null, line);
    };
    const onExit = (code: number | null) => done(new Error(`${what} exited (${code}):\n${said}`));
    function done(err: Error | null, line?: string) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(line!);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

function stopper(child: ChildProcess, dir: string) {
  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

const REDIS_BIN = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** redis-server on a free loopback port, without persistence, in a temporary directory. */
export async function startRedis(): Promise<Service> {
  if (!fs.existsSync(REDIS_BIN)) {
    throw new Error(
      `找不到 ${REDIS_BIN}：请安装 Debian 的 redis-server（sudo apt-get install redis-server），或用 REDIS_SERVER 指明其位置`,
    );
  }
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-redis-'));
    const child = spawn(
      REDIS_BIN,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      await waitFor(child, (l) => l.includes('Ready to accept connections'), 'redis-server');
      return { url: `redis://127.0.0.1:${port}`, stop: stopper(child, dir) };
    } catch (err) {
      await stopper(child, dir)();
      // The free port was taken between finding it and listening on it: try another.
      if (attempt < 3 && /Address already in use/.test((err as Error).message)) continue;
      throw err;
    }
  }
}

/** s3rver (the npm package) in a child process with the tests' bucket, on a free port. */
export async function startS3rver(): Promise<Service> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-s3rver-'));
  // s3rver-child.mjs: s3rver with its PUT made to answer only once the object is stored whole.
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 's3rver-child.mjs'), dir, S3_TEST.bucket],
    { stdio: ['ignore', 'pipe', 'pipe'], cwd: process.cwd() },
  );
  try {
    const line = await waitFor(child, (l) => l.startsWith('s3rver-port '), 's3rver');
    return { url: `http://127.0.0.1:${line.split(' ')[1]!.trim()}`, stop: stopper(child, dir) };
  } catch (err) {
    await stopper(child, dir)();
    throw err;
  }
}
