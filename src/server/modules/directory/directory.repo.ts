import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/index';
import type { AddressBookTable } from '../../db/schema';

/** SQL of the staff directory: its own rows, and the accounts and memberships it lists. */

/** The accounts the directory lists: enabled, except the system account `admin`. */
export function listedStaff(db: Db) {
  return db
    .selectFrom('user')
    .select(['id', 'user_name', 'phone', 'avatar'])
    .where('enabled', '=', 1)
    .where('account', '!=', 'admin')
    .execute();
}

/** Every department membership of enabled accounts. */
export function memberships(db: Db) {
  return db
    .selectFrom('user_department')
    .innerJoin('user', 'user.id', 'user_department.user_id')
    .select(['user_department.user_id', 'user_department.dept_id'])
    .where('user.enabled', '=', 1)
    .execute();
}

export function allEntries(db: Db) {
  return db.selectFrom('address_book').selectAll().execute();
}

export function findEntry(db: Db, id: number) {
  return db.selectFrom('address_book').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findEntryOfUser(db: Db, userId: number) {
  return db.selectFrom('address_book').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function insertEntry(db: Db, row: Omit<Insertable<AddressBookTable>, 'id'>) {
  const r = await db.insertInto('address_book').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

export async function updateEntry(db: Db, id: number, patch: Updateable<AddressBookTable>) {
  await db.updateTable('address_book').set(patch).where('id', '=', id).execute();
}

export async function deleteEntry(db: Db, id: number) {
  const r = await db.deleteFrom('address_book').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows);
}
