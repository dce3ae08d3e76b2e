import type { Db } from '../../db/index';

/** Stored first answers for `Idempotency-Key`, scoped by user. */

export function find(db: Db, userId: number, key: string) {
  return db
    .selectFrom('idempotency')
    .selectAll()
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Claims the key; false when another request already holds it (the primary key decides, atomically). */
export async function claim(db: Db, userId: number, key: string, fingerprint: string, now: number) {
  const res = await db
    .insertInto('idempotency')
    .values({ user_id: userId, key, fingerprint, status_code: null, response: null, created_at: now })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function complete(db: Db, userId: number, key: string, status: number, response: string) {
  await db
    .updateTable('idempotency')
    .set({ status_code: status, response })
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
}

export async function release(db: Db, userId: number, key: string) {
  await db.deleteFrom('idempotency').where('user_id', '=', userId).where('key', '=', key).execute();
}

export async function purgeOlderThan(db: Db, before: number) {
  await db.deleteFrom('idempotency').where('created_at', '<', before).execute();
}
