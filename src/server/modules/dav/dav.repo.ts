import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/index';
import type { DavLockTable, DavScratchTable } from '../../db/schema';
import { IS_LIVE } from '../drive/drive.repo';

/*
 * SQL of WebDAV's own tables (migration 0060): dead properties, locks and the hidden macOS
 * files. The drive's rows are read and written only through the drive service; the one query
 * here that reads user_file (copyProps) does so to carry properties along a copy the drive
 * service just made, inside its transaction.
 */

export type LockRow = Selectable<DavLockTable>;
export type ScratchRow = Selectable<DavScratchTable>;

/** `substr(col, 1, length(prefix)) = prefix`, with the prefix bound (never a LIKE pattern). */
function startsWith(col: string, prefix: string) {
  return sql<boolean>`substr(${sql.ref(col)}, 1, length(${prefix})) = ${prefix}`;
}

// ---------------------------------------------------------------- dead properties

export interface PropRow {
  user_file_id: number;
  ns: string;
  name: string;
  value: string;
}

/** The dead properties of some rows. */
export function propsOf(db: Db, ids: number[]): Promise<PropRow[]> {
  if (!ids.length) return Promise.resolve([]);
  return db.selectFrom('dav_property').selectAll().where('user_file_id', 'in', ids).execute();
}

export async function setProp(db: Db, id: number, ns: string, name: string, value: string) {
  await db
    .insertInto('dav_property')
    .values({ user_file_id: id, ns, name, value })
    .onConflict((oc) => oc.columns(['user_file_id', 'ns', 'name']).doUpdateSet({ value }))
    .execute();
}

export async function removeProp(db: Db, id: number, ns: string, name: string) {
  await db
    .deleteFrom('dav_property')
    .where('user_file_id', '=', id)
    .where('ns', '=', ns)
    .where('name', '=', name)
    .execute();
}

/** The characters of the dead properties of an area's rows (live and binned). */
export async function propCharsOfSpace(db: Db, space: string): Promise<number> {
  const r = await db
    .selectFrom('dav_property')
    .innerJoin('user_file', 'user_file.id', 'dav_property.user_file_id')
    .select((eb) => eb.fn.sum<number>(eb.fn('length', ['dav_property.value'])).as('n'))
    .where('user_file.space', '=', space)
    .executeTakeFirstOrThrow();
  return Number(r.n ?? 0);
}

/**
 * Copies the dead properties of a copied item to its copy (inside the copy's transaction): the
 * top row's from `fromId` to `toId`, and, for a folder, every live row below `fromPath` to the
 * row at the same place below `toPath`, in one INSERT … SELECT.
 */
export async function copyProps(
  db: Db,
  space: string,
  from: { id: number; path: string | null },
  to: { id: number; path: string | null },
) {
  await db
    .insertInto('dav_property')
    .columns(['user_file_id', 'ns', 'name', 'value'])
    .expression(
      db
        .selectFrom('dav_property')
        .select((eb) => [eb.val(to.id).as('user_file_id'), 'ns', 'name', 'value'])
        .where('user_file_id', '=', from.id),
    )
    .execute();
  if (from.path === null || to.path === null) return;
  const fromPath = from.path;
  const toPath = to.path;
  await db
    .insertInto('dav_property')
    .columns(['user_file_id', 'ns', 'name', 'value'])
    .expression(
      db
        .selectFrom('dav_property as p')
        .innerJoin('user_file as s', 's.id', 'p.user_file_id')
        .innerJoin('user_file as d', (j) =>
          j
            .onRef('d.space', '=', 's.space')
            .onRef('d.file_name', '=', 's.file_name')
            .onRef('d.extend_name', '=', 's.extend_name')
            .on('d.delete_flag', '=', IS_LIVE)
            .on(sql<boolean>`d.file_path = ${toPath} || substr(s.file_path, length(${fromPath}) + 1)`),
        )
        .select(['d.id as user_file_id', 'p.ns', 'p.name', 'p.value'])
        .where('s.space', '=', space)
        .where('s.delete_flag', '=', IS_LIVE)
        .where(sql<boolean>`substr(s.file_path, 1, length(${fromPath})) = ${fromPath}`),
    )
    .execute();
}

// ---------------------------------------------------------------- locks

/** The unexpired locks of an area whose path is one of `paths`. */
export function locksAt(db: Db, space: string, paths: string[], now: number): Promise<LockRow[]> {
  if (!paths.length) return Promise.resolve([]);
  return db
    .selectFrom('dav_lock')
    .selectAll()
    .where('space', '=', space)
    .where('expires_at', '>', now)
    .where('path', 'in', paths)
    .execute();
}

/** The unexpired locks of an area at or below a collection's path. */
export function locksUnder(db: Db, space: string, folder: string, now: number): Promise<LockRow[]> {
  return db
    .selectFrom('dav_lock')
    .selectAll()
    .where('space', '=', space)
    .where('expires_at', '>', now)
    .where(startsWith('path', folder))
    .execute();
}

export function lockByToken(db: Db, token: string, now: number) {
  return db
    .selectFrom('dav_lock')
    .selectAll()
    .where('token', '=', token)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function insertLock(db: Db, row: LockRow) {
  await db.insertInto('dav_lock').values(row).execute();
}

export async function refreshLock(db: Db, token: string, timeoutS: number, expiresAt: number) {
  await db
    .updateTable('dav_lock')
    .set({ timeout_s: timeoutS, expires_at: expiresAt })
    .where('token', '=', token)
    .execute();
}

export async function deleteLock(db: Db, token: string) {
  await db.deleteFrom('dav_lock').where('token', '=', token).execute();
}

/** Drops the locks on a resource, and with `subtree` those below a collection (it was moved or deleted). */
export async function deleteLocksAt(db: Db, space: string, path: string, subtree: boolean) {
  await db
    .deleteFrom('dav_lock')
    .where('space', '=', space)
    .where((eb) => (subtree ? startsWith('path', path) : eb('path', '=', path)))
    .execute();
}

export async function deleteExpiredLocks(db: Db, now: number) {
  await db.deleteFrom('dav_lock').where('expires_at', '<=', now).execute();
}

// ---------------------------------------------------------------- hidden macOS files

export function scratchAt(db: Db, space: string, folder: string, name: string, now: number) {
  return db
    .selectFrom('dav_scratch')
    .selectAll()
    .where('space', '=', space)
    .where('file_path', '=', folder)
    .where('name', '=', name)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function putScratch(db: Db, row: Omit<ScratchRow, 'id'>): Promise<{ created: boolean }> {
  const before = await db
    .selectFrom('dav_scratch')
    .select('id')
    .where('space', '=', row.space)
    .where('file_path', '=', row.file_path)
    .where('name', '=', row.name)
    .executeTakeFirst();
  if (before) {
    await db
      .updateTable('dav_scratch')
      .set({ content: row.content, size: row.size, updated_at: row.updated_at, expires_at: row.expires_at })
      .where('id', '=', before.id)
      .execute();
    return { created: false };
  }
  await db.insertInto('dav_scratch').values(row).execute();
  return { created: true };
}

/** The bytes an area's unexpired hidden files hold, but the one at `except` (being replaced). */
export async function scratchBytes(
  db: Db,
  space: string,
  now: number,
  except?: { folder: string; name: string },
) {
  let q = db
    .selectFrom('dav_scratch')
    .select((eb) => eb.fn.sum<number>('size').as('n'))
    .where('space', '=', space)
    .where('expires_at', '>', now);
  if (except) {
    q = q.where((eb) => eb.or([eb('file_path', '!=', except.folder), eb('name', '!=', except.name)]));
  }
  return Number((await q.executeTakeFirstOrThrow()).n ?? 0);
}

export async function deleteScratch(db: Db, id: number) {
  await db.deleteFrom('dav_scratch').where('id', '=', id).execute();
}

/** Moves hidden files along with a folder that moved (`from` and `to` are folder paths). */
export async function moveScratchUnder(db: Db, space: string, from: string, to: string) {
  await db
    .updateTable('dav_scratch')
    .set({ file_path: sql<string>`${to} || substr(file_path, length(${from}) + 1)` })
    .where('space', '=', space)
    .where(startsWith('file_path', from))
    .execute();
}

/** Drops the hidden files below a folder that went into the recycle bin. */
export async function deleteScratchUnder(db: Db, space: string, folder: string) {
  await db
    .deleteFrom('dav_scratch')
    .where('space', '=', space)
    .where(startsWith('file_path', folder))
    .execute();
}

export async function renameScratch(
  db: Db,
  id: number,
  folder: string,
  name: string,
  now: number,
  expiresAt: number,
) {
  await db
    .updateTable('dav_scratch')
    .set({ file_path: folder, name, updated_at: now, expires_at: expiresAt })
    .where('id', '=', id)
    .execute();
}

export async function deleteExpiredScratch(db: Db, now: number) {
  await db.deleteFrom('dav_scratch').where('expires_at', '<=', now).execute();
}
