import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/*
 * PostgreSQL for the tests and benchmarks (tests/README.md "PostgreSQL"): Debian's own
 * `postgresql` package, started by us in a throw-away cluster under the temporary directory,
 * on a free loopback port, and stopped afterwards. Nothing is started by hand and no system
 * cluster is touched.
 *
 * The cluster is tuned for tests, not for safety: no fsync, no full-page writes, a small
 * shared_buffers. A crash loses it, and it is deleted anyway.
 *
 * One cluster serves a whole run. Each test server gets its own database, copied from a
 * template that already holds the migrated schema and the seeded museum (CREATE DATABASE …
 * TEMPLATE copies files: a few milliseconds, where migrating and seeding take most of a second).
 */

export interface PgCluster {
  /** A connection URL of one database of the cluster (as the superuser, trusted on loopback). */
  url: (database: string) => string;
  port: number;
  stop: () => Promise<void>;
}

/** The directory of Debian's PostgreSQL programs: PG_BIN, else the newest /usr/lib/postgresql/N/bin. */
function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) {
    throw new Error(
      'PostgreSQL is not installed: `sudo apt-get install postgresql` (Debian), or set PG_BIN to the folder holding initdb and pg_ctl',
    );
  }
  return path.join(root, versions[0]!, 'bin');
}

/**
 * PostgreSQL refuses to run as root: then initdb and the server run as the `postgres` user that
 * Debian's package creates, and the cluster's folder is handed to it.
 */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, but there is no `postgres` user to run PostgreSQL as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function run(cmd: string, args: string[], user: { uid: number; gid: number } | undefined, cwd: string) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(user ?? {}),
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} failed (${code}):\n${out}`)),
    );
  });
}

async function freePort(): Promise<number> {
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

/** Starts a fresh cluster; `stop()` ends it and deletes its files. */
export async function startCluster(): Promise<PgCluster> {
  const bin = binDir();
  const user = runAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-pg-'));
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  await run(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
    user,
    dir,
  );
  fs.appendFileSync(
    path.join(data, 'postgresql.conf'),
    [
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'shared_buffers = 32MB',
      'max_connections = 300',
      'max_wal_size = 1GB',
      "log_min_messages = 'fatal'",
      '',
    ].join('\n'),
  );
  const pgCtl = path.join(bin, 'pg_ctl');
  const log = path.join(dir, 'server.log');
  let port = 0;
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      await run(pgCtl, ['-D', data, '-l', log, '-w', '-t', '60', '-o', `-p ${port}`, 'start'], user, dir);
      break;
    } catch (err) {
      // Another process may have taken the port between our probe and the server's bind.
      if (attempt >= 3) {
        const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-2000) : '';
        throw new Error(`${err instanceof Error ? err.message : err}\n${tail}`, { cause: err });
      }
    }
  }
  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    spawnSync(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop'], { stdio: 'ignore', ...(user ?? {}) });
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // A run cut short (an uncaught error, Ctrl-C) must not leave a server behind.
  process.once('exit', stopSync);
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: async () => {
      process.removeListener('exit', stopSync);
      stopSync();
    },
  };
}

/** One statement on the cluster's maintenance database (CREATE/DROP DATABASE cannot be bound). */
export async function admin<T extends pg.QueryResultRow = any>(
  adminUrl: string,
  text: string,
  values?: unknown[],
) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** `adminUrl` with another database name. */
export function withDatabase(adminUrl: string, database: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return u.href;
}

/** The test database of a data directory: the same one again when a server restarts on it. */
export function databaseNameFor(dataDir: string): string {
  return `t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 20)}`;
}

/**
 * The database of a test server on `adminUrl`'s cluster: created from `template` unless it is
 * there already (a restart on the same data directory). Answers its URL.
 */
export async function testDatabase(adminUrl: string, template: string, dataDir: string): Promise<string> {
  const name = databaseNameFor(dataDir);
  const exists = await admin(adminUrl, 'select 1 from pg_database where datname = $1', [name]);
  if (!exists.length)
    await admin(adminUrl, `create database "${name}" template "${template}" strategy file_copy`);
  return withDatabase(adminUrl, name);
}

/** Drops a test server's database (its pool is closed by then). */
export async function dropTestDatabase(adminUrl: string, dataDir: string): Promise<void> {
  await admin(adminUrl, `drop database if exists "${databaseNameFor(dataDir)}" with (force)`);
}
