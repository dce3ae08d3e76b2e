import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type AppDeps } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import { openDatabase, type Db } from '../../src/server/db/index';
import { createDriveService, type DriveService } from '../../src/server/modules/drive/drive.service';
import type { LiveBus } from '../../src/server/modules/notice/live';
import { createNoticeService, type NoticeService } from '../../src/server/modules/notice/notice.service';
import { createOrgService } from '../../src/server/modules/org/org.service';
import { ensureAdmin, seedDemo } from '../../src/server/modules/seed/seed';
import { type Cluster, createCluster } from '../../src/server/cluster/index';
import { createStorage, type Storage } from '../../src/server/storage/index';
import { dropTestDatabase, testDatabase } from './postgres';
import { scaleTestEnv } from './scale-env';

export const ADMIN_PASSWORD = 'Admin@12345';
export const DEMO_PASSWORD = 'Demo@2026';

export interface TestServer {
  url: string;
  db: Db;
  config: Config;
  dataDir: string;
  /** JSON call with optional token; answers status, headers and parsed body. */
  call: (
    method: string,
    p: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string>; raw?: string },
  ) => Promise<{ status: number; headers: Headers; body: any }>;
  login: (username: string, password?: string) => Promise<string>;
  /** The server's live bus, and a notice service publishing through it (as other modules do). */
  bus: LiveBus;
  /** Where the server keeps bytes, and what it shares with other instances (scale-env.ts). */
  storage: Storage;
  cluster: Cluster;
  notices: NoticeService;
  close: () => Promise<void>;
  /** Stops the server and closes the database but keeps the data dir (to start again on it). */
  stop: () => Promise<void>;
}

/**
 * A real server listening on a random loopback port, over a fresh SQLite file in a temporary
 * directory, seeded with the admin and the demo museum. Every test file gets its own.
 *
 * Under `npm run test:pg` (GWY_TEST_PG set by tests/server/pg-setup.ts) the database is a
 * fresh PostgreSQL database instead, copied from the run's seeded template; the data directory
 * still holds the files.
 */
export async function startServer(
  env: Record<string, string> = {},
  opts: {
    dataDir?: string;
    onRoute?: AppDeps['onRoute'];
    logger?: AppDeps['logger'];
    /** Records served instead of the declared ones (fixtures of the records engine's shapes). */
    records?: AppDeps['records'];
    /** Runs on the fresh database before the app is built (a fixture record's table). */
    prepare?: (db: Db) => Promise<void>;
  } = {},
): Promise<TestServer> {
  // `opts.dataDir` starts on an existing data dir, e.g. after `stop()` (a server restart).
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-test-'));
  const pgAdmin = process.env.GWY_TEST_PG;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    DIST_DIR: path.join(dataDir, 'no-dist'),
    ...(pgAdmin
      ? { DATABASE_URL: await testDatabase(pgAdmin, process.env.GWY_TEST_PG_TEMPLATE!, dataDir) }
      : {}),
    ...scaleTestEnv(dataDir),
    ...env,
  });
  const db = await openDatabase(config);
  await ensureAdmin(db, createOrgService(db), ADMIN_PASSWORD);
  await seedDemo(db, DEMO_PASSWORD);
  await opts.prepare?.(db);
  const cluster = await createCluster(config.scale);
  const storage = await createStorage(config, cluster.locks);
  const bus = cluster.bus;
  const app = await buildApp({
    config,
    db,
    cluster,
    storage,
    onRoute: opts.onRoute,
    logger: opts.logger,
    records: opts.records,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const { call, login } = clientOf(url);

  return {
    url,
    db,
    config,
    dataDir,
    call,
    login,
    bus,
    storage,
    cluster,
    notices: createNoticeService(db, bus),
    close: async () => {
      // Every test is over: a response body a test never read (a status check) must not keep
      // its connection counted active and hang the hook, as it did once under CI's load.
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await cluster.close();
      await db.destroy();
      if (pgAdmin) await dropTestDatabase(pgAdmin, dataDir);
      // The bucket is shared by every test file: each server's objects are under its own prefix.
      if (config.scale.s3?.prefix) await storage.bucket?.removePrefix('');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    stop: async () => {
      // A restart drops every connection, also a client's keep-alive one still counted active.
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await cluster.close();
      await db.destroy();
    },
  };
}

/**
 * The drive service over a test server's database, blob store and blob locks, for creating
 * files directly. Its writes are the server's writes.
 */
export function driveServiceOf(s: TestServer): DriveService {
  return createDriveService({
    db: s.db,
    store: s.storage.blobs,
    blobLock: s.cluster.locks.keyed('blob'),
    defaultQuotaBytes: s.config.defaultQuotaBytes,
  });
}

/**
 * The JSON client of a server at `url`: `call` sends and parses, `login` signs in a demo account.
 * Shared by this harness and the multi-instance ones (tests/scale/instances.ts).
 */
export function clientOf(url: string): Pick<TestServer, 'call' | 'login'> {
  const call: TestServer['call'] = async (method, p, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.token = opts.token;
    let body: string | undefined;
    if (opts.raw !== undefined) {
      body = opts.raw;
      headers['content-type'] ??= 'application/json';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(url + p, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
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
  return { call, login };
}
