import { openDatabase } from '../../src/server/db/index';
import { createOrgService } from '../../src/server/modules/org/org.service';
import { ensureAdmin, seedDemo } from '../../src/server/modules/seed/seed';
import { ADMIN_PASSWORD, DEMO_PASSWORD } from './harness';
import { admin, startCluster, withDatabase, type PgCluster } from './postgres';

/*
 * Vitest's global setup for `npm run test:pg` (vitest.pg.config.ts): one PostgreSQL cluster
 * for the whole run, and the template database every test server's database is copied from,
 * migrated and seeded exactly as the harness would do it. The harness finds both through the
 * environment, which the test workers inherit:
 *
 * - GWY_TEST_PG: a URL of the cluster's maintenance database (`postgres`), where the harness
 *   creates and drops databases. Set it yourself to run against a server you already have.
 * - GWY_TEST_PG_TEMPLATE: the template's name.
 */
export default async function setup(): Promise<() => Promise<void>> {
  let cluster: PgCluster | undefined;
  if (!process.env.GWY_TEST_PG) {
    cluster = await startCluster();
    process.env.GWY_TEST_PG = cluster.url('postgres');
  }
  const adminUrl = process.env.GWY_TEST_PG;
  const template = `gwy_template_${process.pid}`;
  await admin(adminUrl, `drop database if exists "${template}"`);
  await admin(adminUrl, `create database "${template}"`);
  const db = await openDatabase({
    dbFile: '',
    databaseUrl: withDatabase(adminUrl, template),
    databasePoolMax: 4,
  });
  try {
    await ensureAdmin(db, createOrgService(db), ADMIN_PASSWORD);
    await seedDemo(db, DEMO_PASSWORD);
  } finally {
    await db.destroy();
  }
  process.env.GWY_TEST_PG_TEMPLATE = template;
  return async () => {
    // The variables go with what they name: `npm run bench` runs several benches in one process,
    // and a later one's harness read a stopped cluster's URL and failed to connect.
    delete process.env.GWY_TEST_PG_TEMPLATE;
    if (cluster) {
      delete process.env.GWY_TEST_PG;
      await cluster.stop();
    } else await admin(adminUrl, `drop database if exists "${template}"`);
  };
}
