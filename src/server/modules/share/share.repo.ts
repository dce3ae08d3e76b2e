import { serializeOn } from '../../db/dialect';
import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/index';
import type { ShareFileTable, ShareTable } from '../../db/schema';
import { IS_LIVE } from '../drive/drive.repo';

/*
 * SQL of sharing. A share's items are read only through its own share_file rows joined with the
 * sharer's live rows in the sharer's space, so an id outside the share, or in the bin, or in
 * another person's drive, is simply not found. Folder prefixes are compared with substr() on a
 * bound value, never LIKE on a user's string (see drive.repo.ts).
 */

export type ShareRow = Selectable<ShareTable>;
export type NewShareFile = Omit<Insertable<ShareFileTable>, 'id' | 'share_id'>;

export function findShare(db: Db, batchNum: string) {
  return db.selectFrom('share').selectAll().where('batch_num', '=', batchNum).executeTakeFirst();
}

export async function insertShare(db: Db, row: Omit<Insertable<ShareTable>, 'id'>, files: NewShareFile[]) {
  const { id } = await db.insertInto('share').values(row).returning('id').executeTakeFirstOrThrow();
  // Chunked: SQLite allows a bounded number of bound values per statement.
  for (let i = 0; i < files.length; i += 100) {
    await db
      .insertInto('share_file')
      .values(files.slice(i, i + 100).map((f) => ({ ...f, share_id: id })))
      .execute();
  }
  return id;
}

/** Items of a share joined with the sharer's live rows (what a visitor may see), with blobs. */
function liveItems(db: Db, share: Pick<ShareRow, 'id' | 'space'>) {
  return db
    .selectFrom('share_file as s')
    .innerJoin('user_file as f', 'f.id', 's.user_file_id')
    .leftJoin('blob as b', 'b.id', 'f.blob_id')
    .select([
      's.user_file_id',
      's.share_file_path',
      's.file_name',
      's.extend_name',
      's.is_dir',
      'f.file_size',
      'f.upload_time',
      'f.image_width',
      'f.image_height',
      'f.blob_id',
      'b.md5',
    ])
    .where('s.share_id', '=', share.id)
    .where('f.space', '=', share.space)
    .where('f.delete_flag', '=', IS_LIVE);
}
export type ShareItem = Awaited<ReturnType<ReturnType<typeof liveItems>['execute']>>[number];

/** One folder of a share, folders first, by name. */
export function listFolder(db: Db, share: Pick<ShareRow, 'id' | 'space'>, path: string) {
  return liveItems(db, share)
    .where('s.share_file_path', '=', path)
    .orderBy('s.is_dir', 'desc')
    .orderBy('s.file_name')
    .orderBy('s.extend_name')
    .execute();
}

/** Live items of the share among `ids`. */
export function findItems(db: Db, share: Pick<ShareRow, 'id' | 'space'>, ids: number[]) {
  if (!ids.length) return Promise.resolve([] as ShareItem[]);
  return liveItems(db, share).where('s.user_file_id', 'in', ids).execute();
}

/** Live items of the share at or below a folder path inside it, parents before children. */
export function itemsUnder(db: Db, share: Pick<ShareRow, 'id' | 'space'>, prefix: string) {
  return liveItems(db, share)
    .where(sql<boolean>`substr(s.share_file_path, 1, length(${prefix})) = ${prefix}`)
    .orderBy(sql`length(s.share_file_path)`)
    .orderBy('s.share_file_path')
    .orderBy('s.is_dir', 'desc')
    .orderBy('s.file_name')
    .execute();
}

/** Whether the share holds a (live) folder at this path: its snapshot name and parent. */
export async function folderExists(db: Db, share: Pick<ShareRow, 'id' | 'space'>, path: string) {
  const name = path.slice(0, -1).split('/').pop() ?? '';
  const parent = path.slice(0, path.length - name.length - 1);
  const row = await liveItems(db, share)
    .where('s.share_file_path', '=', parent)
    .where('s.file_name', '=', name)
    .where('s.is_dir', '=', 1)
    .executeTakeFirst();
  return Boolean(row);
}

export async function countTop(db: Db, shareId: number) {
  const r = await db
    .selectFrom('share_file')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('share_id', '=', shareId)
    .where('is_top', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function sharerName(db: Db, userId: number) {
  return db.selectFrom('user').select('user_name').where('id', '=', userId).executeTakeFirst();
}

// ---------------------------------------------------------------- my shares

/** Live (not revoked) shares of an owner: one row per chosen item, newest share first. */
function mine(db: Db, ownerId: number) {
  return db
    .selectFrom('share as sh')
    .innerJoin('share_file as s', 's.share_id', 'sh.id')
    .innerJoin('user_file as f', 'f.id', 's.user_file_id')
    .where('sh.owner_id', '=', ownerId)
    .where('sh.status', '=', 0)
    .where('s.is_top', '=', 1);
}

export async function countMine(db: Db, ownerId: number) {
  const r = await mine(db, ownerId)
    .select((e) => e.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function listMine(db: Db, ownerId: number, limit: number, offset: number) {
  return mine(db, ownerId)
    .selectAll('f')
    .select([
      'sh.batch_num',
      'sh.share_type',
      'sh.share_time',
      'sh.end_time',
      'sh.remarks',
      'sh.extraction_code',
      'sh.download_count',
      (eb) =>
        eb
          .selectFrom('share_file as c')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('c.share_id', '=', 'sh.id')
          .where('c.is_top', '=', 1)
          .as('file_count'),
    ])
    .orderBy('sh.share_time', 'desc')
    .orderBy('sh.id', 'desc')
    .orderBy('s.id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The owner's live shares among `batchNums`. */
export function findMine(db: Db, ownerId: number, batchNums: string[]) {
  return db
    .selectFrom('share')
    .select(['id', 'batch_num'])
    .where('owner_id', '=', ownerId)
    .where('status', '=', 0)
    .where('batch_num', 'in', batchNums)
    .execute();
}

export async function revoke(db: Db, ids: number[], now: number) {
  await db.updateTable('share').set({ status: 1, revoked_at: now }).where('id', 'in', ids).execute();
  await db.deleteFrom('share_grant').where('share_id', 'in', ids).execute();
  await db.deleteFrom('share_attempt').where('share_id', 'in', ids).execute();
}

export async function countDownload(db: Db, shareId: number) {
  await db
    .updateTable('share')
    .set((eb) => ({ download_count: eb('download_count', '+', 1) }))
    .where('id', '=', shareId)
    .execute();
}

// ---------------------------------------------------------------- grants and attempts

export async function insertGrant(db: Db, tokenHash: string, shareId: number, expiresAt: number) {
  await db
    .insertInto('share_grant')
    .values({ token_hash: tokenHash, share_id: shareId, expires_at: expiresAt })
    .execute();
}

export function findGrant(db: Db, tokenHash: string, shareId: number, now: number) {
  return db
    .selectFrom('share_grant')
    .select('expires_at')
    .where('token_hash', '=', tokenHash)
    .where('share_id', '=', shareId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function deleteExpiredGrants(db: Db, now: number) {
  await db.deleteFrom('share_grant').where('expires_at', '<=', now).execute();
}

/**
 * Holds a share's code-attempt counters (every client's and the share's own '*') for the rest
 * of the transaction, so parallel guesses are each counted on top of the one before
 * (PostgreSQL; SQLite's one writer serialises them already). The rows may not exist yet.
 */
export function lockAttempts(db: Db, shareId: number) {
  return serializeOn(db, [`share_attempt:${shareId}`]);
}

export function findAttempt(db: Db, shareId: number, client: string) {
  return db
    .selectFrom('share_attempt')
    .selectAll()
    .where('share_id', '=', shareId)
    .where('client', '=', client)
    .executeTakeFirst();
}

export async function saveAttempt(
  db: Db,
  row: {
    share_id: number;
    client: string;
    failures: number;
    window_start: number;
    locked_until: number | null;
  },
) {
  await db
    .insertInto('share_attempt')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['share_id', 'client']).doUpdateSet({
        failures: row.failures,
        window_start: row.window_start,
        locked_until: row.locked_until,
      }),
    )
    .execute();
}

export async function clearAttempt(db: Db, shareId: number, client: string) {
  await db.deleteFrom('share_attempt').where('share_id', '=', shareId).where('client', '=', client).execute();
}
