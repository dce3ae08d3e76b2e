import type { Db } from '../../db/index';

/** SQL of app passwords (migration 0060): a person's passwords for WebDAV clients. */

export function livePasswords(db: Db, userId: number) {
  return db
    .selectFrom('app_password')
    .select(['id', 'name', 'created_at', 'last_used_at', 'last_used_ip'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function livePasswordCount(db: Db, userId: number): Promise<number> {
  const r = await db
    .selectFrom('app_password')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertPassword(
  db: Db,
  row: { user_id: number; name: string; lookup: string; hash: string; created_at: number },
): Promise<number> {
  const r = await db.insertInto('app_password').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

/** Revokes one live password of the person; answers whether there was one. */
export async function revokePassword(db: Db, userId: number, id: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('app_password')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The person's passwords (live or revoked) whose lookup matches: the few to verify. */
export function candidates(db: Db, userId: number, lookup: string) {
  return db
    .selectFrom('app_password')
    .select(['id', 'hash', 'revoked_at'])
    .where('user_id', '=', userId)
    .where('lookup', '=', lookup)
    .execute();
}

/** A live password with its owner, as a request authenticated by it needs them. */
export function liveWithOwner(db: Db, id: number) {
  return db
    .selectFrom('app_password')
    .innerJoin('user', 'user.id', 'app_password.user_id')
    .select(['app_password.user_id', 'user.account', 'user.user_name', 'user.enabled'])
    .where('app_password.id', '=', id)
    .where('app_password.revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function touchPassword(db: Db, id: number, now: number, ip: string) {
  await db
    .updateTable('app_password')
    .set({ last_used_at: now, last_used_ip: ip })
    .where('id', '=', id)
    .execute();
}
