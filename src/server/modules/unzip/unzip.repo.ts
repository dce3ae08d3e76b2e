import type { Insertable, Selectable, Updateable } from 'kysely';
import { serializeOn } from '../../db/dialect';
import type { Db } from '../../db/index';
import type { UnzipJobTable } from '../../db/schema';

/** SQL of unzip jobs; every read is scoped to the job's owner. */

export type JobRow = Selectable<UnzipJobTable>;

/**
 * Records a new running job unless its owner already has `max` running; answers whether it
 * was recorded. The count and the insert are one step under the owner's key, so parallel
 * calls cannot all pass the count (serializeOn: PostgreSQL; SQLite's one writer).
 */
export async function insertJob(db: Db, max: number, row: Insertable<UnzipJobTable>) {
  return db.transaction().execute(async (trx) => {
    await serializeOn(trx, [`unzip_job:${row.user_id}`]);
    if ((await countRunning(trx, row.user_id)) >= max) return false;
    await trx.insertInto('unzip_job').values(row).execute();
    return true;
  });
}

export async function updateJob(db: Db, id: string, patch: Updateable<UnzipJobTable>) {
  await db.updateTable('unzip_job').set(patch).where('id', '=', id).execute();
}

export function findOwn(db: Db, userId: number, id: string) {
  return db
    .selectFrom('unzip_job')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function recentOwn(db: Db, userId: number, since: number, limit: number) {
  return db
    .selectFrom('unzip_job')
    .selectAll()
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

export async function countRunning(db: Db, userId: number) {
  const r = await db
    .selectFrom('unzip_job')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'running')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Marks every running job failed (at start: whatever ran was cut off by the restart). */
export async function failRunning(db: Db, message: string, now: number) {
  await db
    .updateTable('unzip_job')
    .set({ status: 'failed', message, finished_at: now })
    .where('status', '=', 'running')
    .execute();
}
