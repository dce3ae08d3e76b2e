import { forUpdate } from '../../db/dialect';
import type { Db } from '../../db/index';

/** SQL of attachments: uploaded bytes (by MD5) for a record of some table. */

export async function insertAttachment(
  db: Db,
  row: {
    table_name: string;
    name: string;
    size: number;
    md5: string;
    inline: number;
    mime: string | null;
    uploaded_by: number;
  },
  now: number,
) {
  const r = await db
    .insertInto('attachment')
    .values({ ...row, record_id: null, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export function findAttachment(db: Db, id: number) {
  return db.selectFrom('attachment').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Locks attachment rows (in id order) for the rest of the transaction, so checking that they
 * are still unbound and binding them is one step: two records saved at once with the same
 * attachment cannot both take it (PostgreSQL; SQLite's one writer serialises them already).
 */
export async function lockAttachments(db: Db, ids: number[]) {
  if (!ids.length) return;
  await forUpdate(
    db,
    db.selectFrom('attachment').select('id').where('id', 'in', ids).orderBy('id'),
  ).execute();
}

export function findAttachments(db: Db, ids: number[]) {
  if (!ids.length) return Promise.resolve([]);
  return db.selectFrom('attachment').selectAll().where('id', 'in', ids).execute();
}

/** The attachments bound to one record, oldest first. */
export function attachmentsOf(db: Db, table: string, recordId: number) {
  return db
    .selectFrom('attachment')
    .selectAll()
    .where('table_name', '=', table)
    .where('record_id', '=', recordId)
    .orderBy('id')
    .execute();
}

export async function bindAttachments(db: Db, ids: number[], recordId: number) {
  if (!ids.length) return;
  await db.updateTable('attachment').set({ record_id: recordId }).where('id', 'in', ids).execute();
}

/** Deletes the record's attachments other than `keep`; answers the MD5s of the deleted rows. */
export async function deleteAttachmentsOfRecord(db: Db, table: string, recordId: number, keep: number[]) {
  let q = db.deleteFrom('attachment').where('table_name', '=', table).where('record_id', '=', recordId);
  if (keep.length) q = q.where('id', 'not in', keep);
  const rows = await q.returning('md5').execute();
  return rows.map((r) => r.md5);
}

export async function deleteAttachment(db: Db, id: number) {
  const r = await db.deleteFrom('attachment').where('id', '=', id).returning('md5').executeTakeFirst();
  return r?.md5;
}

/** Deletes attachments never bound to a record and older than `before`; answers their MD5s. */
export async function deleteUnboundBefore(db: Db, before: number) {
  const rows = await db
    .deleteFrom('attachment')
    .where('record_id', 'is', null)
    .where('created_at', '<', before)
    .returning('md5')
    .execute();
  return rows.map((r) => r.md5);
}

export async function md5InUse(db: Db, md5: string) {
  const r = await db.selectFrom('attachment').select('id').where('md5', '=', md5).limit(1).executeTakeFirst();
  return Boolean(r);
}
