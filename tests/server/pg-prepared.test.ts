import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresDialect, preparedStatements } from '../../src/server/db/dialect';
import { admin, withDatabase } from './postgres';

/*
 * PostgreSQL only (`npm run test:pg`): statements go to the server prepared
 * (src/server/db/dialect.ts preparedStatements), named from their second run, at most so many,
 * and a plan a schema change made stale is answered, not turned into an error.
 * One connection per pool, so pg_prepared_statements shows what that connection holds.
 */
const pgAdmin = process.env.GWY_TEST_PG;

describe.runIf(pgAdmin)('statements sent to PostgreSQL prepared', () => {
  const name = `gwy_prepared_${process.pid}`;
  let url: string;
  const open: { destroy(): Promise<void> }[] = [];
  const kysely = (prepared: boolean) => {
    const db = new Kysely<any>({ dialect: postgresDialect(url, 1, prepared) });
    open.push(db);
    return db;
  };
  const held = async (db: Kysely<any>) =>
    (
      await sql<{
        statement: string;
      }>`select statement from pg_prepared_statements order by prepare_time`.execute(db)
    ).rows.map((r) => r.statement);

  beforeAll(async () => {
    await admin(
      pgAdmin!,
      `create database "${name}" template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`,
    );
    url = withDatabase(pgAdmin!, name);
    await admin(url, 'create table shelf (id int primary key, label text)');
    await admin(url, "insert into shelf values (1, '甲'), (2, '乙')");
  });
  afterAll(async () => {
    for (const db of open) await db.destroy();
    await admin(pgAdmin!, `drop database if exists "${name}" with (force)`);
  });

  it('a statement run twice is held prepared by its connection, and answers the same', async () => {
    const db = kysely(true);
    const byId = (id: number) => db.selectFrom('shelf').select('label').where('id', '=', id).execute();
    expect(await byId(1)).toEqual([{ label: '甲' }]);
    expect((await held(db)).some((t) => t.includes('from "shelf"'))).toBe(false);
    expect(await byId(2)).toEqual([{ label: '乙' }]);
    expect(await byId(1)).toEqual([{ label: '甲' }]);
    expect((await held(db)).filter((t) => t.includes('from "shelf"'))).toEqual([
      'select "label" from "shelf" where "id" = $1',
    ]);
    // Writes and transactions are unchanged by it.
    await db.transaction().execute(async (trx) => {
      for (const id of [3, 4])
        await trx
          .insertInto('shelf')
          .values({ id, label: `第${id}格` })
          .execute();
    });
    expect(await byId(4)).toEqual([{ label: '第4格' }]);
  });

  it('DATABASE_PREPARED=0 sends every statement unprepared', async () => {
    const db = kysely(false);
    for (const id of [1, 2, 1]) await db.selectFrom('shelf').select('label').where('id', '=', id).execute();
    expect(await held(db)).toEqual([]);
  });

  it('names at most so many texts; the rest go unprepared and still answer', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    open.push({ destroy: () => pool.end() });
    preparedStatements(pool, 2);
    // Kysely's shape: a client of the pool, given the text and its values.
    const client = await pool.connect();
    try {
      const texts = [1, 2, 3].map((n) => `select ${n} as n where $1::int > 0`);
      for (let round = 0; round < 2; round++)
        for (const [i, text] of texts.entries())
          expect((await client.query(text, [1])).rows).toEqual([{ n: i + 1 }]);
      const { rows } = await client.query(
        'select statement from pg_prepared_statements order by prepare_time',
      );
      expect(rows.map((r: { statement: string }) => r.statement)).toEqual(texts.slice(0, 2));
    } finally {
      client.release();
    }
  });

  it('a prepared plan made stale by a schema change is answered, and prepared anew', async () => {
    const db = kysely(true);
    const all = () => db.selectFrom('shelf').selectAll().where('id', '=', 1).execute();
    await all();
    expect(await all()).toEqual([{ id: 1, label: '甲' }]);
    // Another instance's migration: the held plan's result type no longer fits (0A000).
    await admin(url, 'alter table shelf add column floor int');
    expect(await all()).toEqual([{ id: 1, label: '甲', floor: null }]);
    expect(await all()).toEqual([{ id: 1, label: '甲', floor: null }]);
    const shelfStatements = (await held(db)).filter((t) => t.includes('select * from "shelf"'));
    expect(shelfStatements).toHaveLength(2);
  });
});
