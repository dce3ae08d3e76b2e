import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { ADMIN_PASSWORD, DEMO_PASSWORD } from './helpers';

/**
 * A second real server process, separate from Playwright's webServer, that a test can stop and
 * start again on the same port and data dir (e.g. "restart the server mid-upload"). Same
 * environment as playwright.config.ts's webServer. The data dir is NOT cleared: the caller
 * chooses (and removes) it, so a restart keeps everything.
 */

export interface ServerProcessOptions {
  port: number;
  dataDir: string;
  /** Extra environment (e.g. UPLOAD_SESSION_HOURS). */
  env?: Record<string, string>;
  /** How long start() waits for GET /login; default 60 s. */
  startTimeoutMs?: number;
}

export interface ServerProcess {
  readonly baseURL: string;
  readonly port: number;
  readonly dataDir: string;
  /** Starts the server; resolves once GET /login answers 200. */
  start(): Promise<void>;
  /** SIGTERM, then SIGKILL after a few seconds; resolves once the process has exited. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  /** Everything the process printed so far (all runs), stdout and stderr interleaved. */
  output(): string;
  readonly running: boolean;
}

const KILL_AFTER_MS = 5_000;
const OUTPUT_MAX = 200_000;

/** A port nobody listens on now (bound once on 127.0.0.1 with port 0, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function serverProcess(opts: ServerProcessOptions): ServerProcess {
  const baseURL = `http://127.0.0.1:${opts.port}`;
  const dataDir = path.resolve(opts.dataDir);
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let out = '';
  let run = 0;

  const log = (s: string) => {
    out += s;
    if (out.length > OUTPUT_MAX) out = out.slice(-OUTPUT_MAX);
  };

  async function answers(): Promise<boolean> {
    try {
      const res = await fetch(`${baseURL}/login`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      return res.ok;
    } catch {
      return false;
    }
  }

  async function stop(): Promise<void> {
    const c = child;
    if (!c) return;
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGTERM');
      const timer = setTimeout(() => {
        if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      }, KILL_AFTER_MS);
      await exited;
      clearTimeout(timer);
    }
    child = null;
  }

  async function start(): Promise<void> {
    if (child) throw new Error(`server on port ${opts.port} is already running`);
    if (await answers()) throw new Error(`port ${opts.port} already answers: another server is there`);
    run += 1;
    log(`--- start #${run} (port ${opts.port}, data ${dataDir}) ---\n`);
    const c = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: process.cwd(),
      env: {
        ...process.env,
        PORT: String(opts.port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_PASSWORD,
        SEED_DEMO: '1',
        DEMO_PASSWORD,
        NODE_ENV: 'production',
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = c;
    c.stdout!.setEncoding('utf8').on('data', log);
    c.stderr!.setEncoding('utf8').on('data', log);
    exited = new Promise((resolve) => {
      c.once('exit', (code, signal) => {
        log(`--- exit #${run}: code ${code}, signal ${signal} ---\n`);
        resolve();
      });
      c.once('error', (err) => {
        log(`--- spawn error: ${err.message} ---\n`);
        resolve();
      });
    });

    const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
    while (Date.now() < deadline) {
      if (c.exitCode !== null || c.signalCode !== null) break;
      if (await answers()) return;
      await sleep(200);
    }
    const why =
      c.exitCode !== null || c.signalCode !== null
        ? `exited (code ${c.exitCode}, signal ${c.signalCode})`
        : 'did not answer GET /login in time';
    await stop();
    const msg = `server process on port ${opts.port} ${why}. Output:\n${out}`;
    console.error(msg);
    throw new Error(msg);
  }

  return {
    baseURL,
    port: opts.port,
    dataDir,
    start,
    stop,
    async restart() {
      await stop();
      await start();
    },
    output: () => out,
    get running() {
      return child !== null && child.exitCode === null && child.signalCode === null;
    },
  };
}
