import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/index';

/*
 * The SQL of view counts (migration 0043; views.ts says the rules, content-stats.ts reads them).
 * Kinds: 1 浏览 (a detail read), 2 播放 (a media play).
 */

/** The day's salt: made by the first visit of the day (of racing instances the first insert wins). */
export async function daySalt(db: Db, day: string): Promise<string> {
  await db
    .insertInto('content_view_salt')
    .values({ day, salt: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute();
  const row = await db
    .selectFrom('content_view_salt')
    .select('salt')
    .where('day', '=', day)
    .executeTakeFirstOrThrow();
  return row.salt;
}

/** Deletes the visitor hashes and salts of days before `keep`. */
export async function pruneBefore(db: Db, keep: string): Promise<void> {
  await db.deleteFrom('content_view_seen').where('day', '<', keep).execute();
  await db.deleteFrom('content_view_salt').where('day', '<', keep).execute();
}

/**
 * Counts one visit in one transaction: the visitor's hash is recorded (already there: false,
 * nothing changes), the row's counter column goes up while the row is published (not: false,
 * everything undone), and the day's counter goes up by one upsert. True when counted.
 */
export async function countOnce(
  db: Db,
  v: {
    record: string;
    table: string;
    column: 'view_count' | 'play_count';
    published: number;
    id: number;
    day: string;
    kind: number;
    visitor: string;
  },
): Promise<boolean> {
  const NOT_COUNTED = Symbol('not counted');
  try {
    await db.transaction().execute(async (trx) => {
      const seen = await trx
        .insertInto('content_view_seen')
        .values({ day: v.day, record: v.record, row_id: v.id, kind: v.kind, visitor: v.visitor })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (!Number(seen.numInsertedOrUpdatedRows ?? 0)) throw NOT_COUNTED;
      const bumped = await trx
        .updateTable(v.table as 'bs_exhibition')
        .set({ [v.column]: sql`${sql.ref(v.column)} + 1` } as never)
        .where('id', '=', v.id)
        .where('del_flag', '=', 0)
        .where('status', '=', v.published)
        .executeTakeFirst();
      if (!Number(bumped.numUpdatedRows)) throw NOT_COUNTED;
      await trx
        .insertInto('content_view_day')
        .values({ record: v.record, row_id: v.id, day: v.day, kind: v.kind, n: 1 })
        .onConflict((oc) =>
          oc.columns(['record', 'row_id', 'day', 'kind']).doUpdateSet({ n: sql`content_view_day.n + 1` }),
        )
        .execute();
    });
    return true;
  } catch (err) {
    if (err === NOT_COUNTED) return false;
    throw err;
  }
}

/** Visits of `records` per day and kind between two days (both included). */
export async function perDay(db: Db, records: readonly string[], from: string, to: string) {
  const rows = await db
    .selectFrom('content_view_day')
    .select(['day', 'kind', sql<number>`sum(n)`.as('n')])
    .where('record', 'in', records)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['day', 'kind'])
    .execute();
  return rows.map((r) => ({ day: r.day, kind: r.kind, n: Number(r.n) }));
}

/** The rows of `records` with most views between two days (then plays, record, id). */
export async function topRows(
  db: Db,
  records: readonly string[],
  from: string,
  to: string,
  limit: number,
  kinds: { view: number; play: number },
) {
  const views = sql<number>`sum(case when kind = ${kinds.view} then n else 0 end)`;
  const plays = sql<number>`sum(case when kind = ${kinds.play} then n else 0 end)`;
  const rows = await db
    .selectFrom('content_view_day')
    .select(['record', 'row_id', views.as('views'), plays.as('plays')])
    .where('record', 'in', records)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['record', 'row_id'])
    .orderBy(views, 'desc')
    .orderBy(plays, 'desc')
    .orderBy('record')
    .orderBy('row_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    record: r.record,
    id: r.row_id,
    views: Number(r.views),
    plays: Number(r.plays),
  }));
}

/** Titles of rows of one content table, deleted ones too (with their flag). */
export async function titlesOf(db: Db, table: string, ids: readonly number[]) {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom(table as 'bs_exhibition')
    .select(['id', 'title', 'del_flag'])
    .where('id', 'in', ids)
    .execute();
  return rows.map((r) => ({ id: r.id, title: String(r.title ?? ''), deleted: Number(r.del_flag) !== 0 }));
}

/** Visits of `records` per record and kind between two days, and the rows visited per record. */
export async function perRecord(db: Db, records: readonly string[], from: string, to: string) {
  const sums = await db
    .selectFrom('content_view_day')
    .select(['record', 'kind', sql<number>`sum(n)`.as('n')])
    .where('record', 'in', records)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['record', 'kind'])
    .execute();
  // A row viewed and played counts once among the visited rows.
  const visited = await db
    .selectFrom('content_view_day')
    .select(['record', sql<number>`count(distinct row_id)`.as('rows')])
    .where('record', 'in', records)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy('record')
    .execute();
  return {
    sums: sums.map((r) => ({ record: r.record, kind: r.kind, n: Number(r.n) })),
    visited: visited.map((r) => ({ record: r.record, rows: Number(r.rows) })),
  };
}
