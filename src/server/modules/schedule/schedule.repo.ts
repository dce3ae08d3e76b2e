import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/index';
import type { ScheduleTable } from '../../db/schema';

/** SQL of schedules. Every statement names the owner: another person's id matches nothing. */

/** The owner's items overlapping [from, to), by start (see shared `overlaps`). */
export function itemsBetween(db: Db, userId: number, from: number, to: number) {
  return db
    .selectFrom('schedule')
    .selectAll()
    .where('user_id', '=', userId)
    .where('start_at', '<', to)
    .where((eb) => eb.or([eb('end_at', '>', from), eb('start_at', '>=', from)]))
    .orderBy('start_at')
    .orderBy('end_at')
    .orderBy('id')
    .execute();
}

export function findItem(db: Db, userId: number, id: number) {
  return db
    .selectFrom('schedule')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function insertItem(db: Db, row: Omit<Insertable<ScheduleTable>, 'id'>) {
  const r = await db.insertInto('schedule').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

export async function updateItem(db: Db, userId: number, id: number, patch: Updateable<ScheduleTable>) {
  const r = await db
    .updateTable('schedule')
    .set(patch)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function deleteItem(db: Db, userId: number, id: number) {
  const r = await db
    .deleteFrom('schedule')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
