import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { type ClusterOptions, createCluster } from '../../src/server/cluster/index';
import { loadConfig } from '../../src/server/config';
import { type Db, openDatabase } from '../../src/server/db/index';
import { createNoticeService } from '../../src/server/modules/notice/notice.service';
import { createOrgService } from '../../src/server/modules/org/org.service';
import { ensureAdmin, seedDemo } from '../../src/server/modules/seed/seed';
import { createStorage } from '../../src/server/storage/index';
import { ADMIN_PASSWORD, DEMO_PASSWORD, clientOf, type TestServer } from '../server/harness';
import { dropTestDatabase, testDatabase } from '../server/postgres';
import { scaleTestEnv } from '../server/scale-env';

/*
 * Several instances of the server in this process, as a scale-out installation runs them on
 * several machines: each with its own data dir, its own database pool, Redis connections, S3
 * client and in-process state, sharing one database (PostgreSQL when the pass has one, as in
 * production; else one SQLite file through one handle), one bucket prefix and one Redis
 * prefix. Each instance is a TestServer, so the API tests' helpers (upload-util, drive-util)
 * drive it.
 */

export interface Instance extends TestServer {
  app: FastifyInstance;
}

export interface Group {
  instances: Instance[];
  /** Closes what is still running and removes everything the group kept. */
  close(): Promise<void>;
}

export async function startInstances(
  count: number,
  env: Record<string, string> = {},
  opts: { cluster?: ClusterOptions } = {},
): Promise<Group> {
  if (!process.env.SCALE_TEST_S3_ENDPOINT || !process.env.SCALE_TEST_REDIS_URL) {
    throw new Error('the scale-out tests need the setup of vitest.scale.config.ts (npm run test:scale)');
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-pair-'));
  const tag = path.join(root, `pair-${randomUUID().slice(0, 8)}`);
  // One tag for all: the same bucket prefix, Redis prefix and database, as one installation.
  const pgAdmin = process.env.GWY_TEST_PG;
  const shared = {
    ...scaleTestEnv(tag),
    ...(pgAdmin ? { DATABASE_URL: await testDatabase(pgAdmin, process.env.GWY_TEST_PG_TEMPLATE!, tag) } : {}),
  };
  const configOf = (i: number) =>
    loadConfig({
      DATA_DIR: path.join(root, `instance-${i}`),
      PORT: '0',
      DIST_DIR: path.join(root, 'no-dist'),
      ...shared,
      ...env,
    });
  // PostgreSQL: a pool per instance, over a database copied from the seeded template. SQLite:
  // one handle for all (one writer is SQLite's rule; instances would only wait on each other).
  const sqlite = pgAdmin ? null : await openDatabase(path.join(root, 'museum.sqlite'));
  if (sqlite) {
    await ensureAdmin(sqlite, createOrgService(sqlite), ADMIN_PASSWORD);
    await seedDemo(sqlite, DEMO_PASSWORD);
  }
  const pools: Db[] = [];

  const instances: Instance[] = [];
  for (let i = 0; i < count; i++) {
    const config = configOf(i);
    const db = sqlite ?? (await openDatabase(config));
    if (!sqlite) pools.push(db);
    const cluster = await createCluster(config.scale, opts.cluster);
    const storage = await createStorage(config, cluster.locks);
    const app = await buildApp({ config, db, cluster, storage });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const url = `http://127.0.0.1:${port}`;
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await cluster.close();
    };
    const { call, login } = clientOf(url);
    instances.push({
      app,
      url,
      db,
      config,
      dataDir: config.dataDir,
      call,
      login,
      bus: cluster.bus,
      storage,
      cluster,
      notices: createNoticeService(db, cluster.bus),
      close: stop,
      stop,
    });
  }
  return {
    instances,
    async close() {
      for (const s of instances) await s.stop();
      await instances[0]?.storage.bucket?.removePrefix('');
      await sqlite?.destroy();
      for (const db of pools) await db.destroy();
      if (pgAdmin) await dropTestDatabase(pgAdmin, tag);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
