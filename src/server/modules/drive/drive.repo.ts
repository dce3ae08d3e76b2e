import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/index';
import { queryTemplate } from '../../db/query-template';
import type { UserFileTable } from '../../db/schema';

/*
 * SQL of the drive. Every query on user_file and recovery is scoped by `space` (ARCHITECTURE.md
 * §4): an id or path is only ever looked up inside the caller's area, never filtered after.
 *
 * Subtree rewrites compare and cut paths with length()/substr() on the bound prefix inside SQL,
 * so the arithmetic counts characters the way the database does (an emoji is one character
 * there, two UTF-16 units in JavaScript) and no name is ever read as a pattern.
 */

export type FileRow = Selectable<UserFileTable>;
/** A new row is always live: the bin fields are only ever set by binItem. */
export type NewFileRow = Omit<Insertable<UserFileTable>, 'delete_flag' | 'delete_time' | 'delete_batch_num'>;
export type SortKey = 'name' | 'size' | 'time';
export type Direction = 'asc' | 'desc';

const LIVE = 0;
/**
 * `delete_flag = 0` written into the SQL, not bound. The live-name index is partial (`where
 * delete_flag = 0`), and SQLite re-plans a statement at every run when a bound value could
 * decide whether a partial index applies: the one-row lookup of a name took 23 µs bound against
 * 10 µs written in (issue 25). Every query of user_file's live rows uses it, in any module.
 */
export const IS_LIVE = sql.lit(LIVE);

/** `substr(file_path, 1, length(prefix)) = prefix`: true for rows at or below a folder path. */
function under(prefix: string) {
  return sql<boolean>`substr(file_path, 1, length(${prefix})) = ${prefix}`;
}

/** The full name as users see it: `name.ext`, or `name` without an extension. */
const FULL_NAME = sql<string>`file_name || case when extend_name = '' then '' else '.' || extend_name end`;

/** Escapes LIKE's wildcards and the escape character itself. */
function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Lower-cases ASCII only, as SQLite's lower() does, so offsets and matching agree everywhere. */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function live(db: Db, space: string) {
  return db.selectFrom('user_file').where('space', '=', space).where('delete_flag', '=', IS_LIVE);
}

// ---------------------------------------------------------------- listing

/**
 * Total and folder count of a folder's live entries as `file/getfilelist` counts them: one row
 * of folder_count by its key, whatever the folder's size. Triggers on user_file keep it in the
 * same statement as every change (migration 0051); no row means an empty (or missing) folder.
 */
export async function folderCounts(db: Db, space: string, path: string) {
  const r = await db
    .selectFrom('folder_count')
    .where('space', '=', space)
    .where('file_path', '=', path)
    .select(['total', 'dirs'])
    .executeTakeFirst();
  return { total: Number(r?.total ?? 0), dirs: Number(r?.dirs ?? 0) };
}

/**
 * The same two numbers counted from the rows (two index-only counts): what folder_count must
 * always equal. Used by the consistency tests and the bench, not by the listing.
 */
export async function countFolder(db: Db, space: string, path: string) {
  const inFolder = () => live(db, space).where('file_path', '=', path);
  const r = await db
    .selectNoFrom([
      inFolder()
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('total'),
      inFolder()
        .where('is_dir', '=', 1)
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('dirs'),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(r.total), dirs: Number(r.dirs) };
}

function sortColumn(sort: SortKey, isDir: 0 | 1) {
  // Folders have no size: a size sort lists them by name.
  if (sort === 'time') return 'upload_time' as const;
  if (sort === 'size' && isDir === 0) return 'file_size' as const;
  return 'file_name' as const;
}

function folderPart(
  db: Db,
  space: string,
  path: string,
  isDir: 0 | 1,
  sort: SortKey,
  dir: Direction,
  limit: number,
  offset: number,
) {
  return live(db, space)
    .where('file_path', '=', path)
    .where('is_dir', '=', isDir)
    .selectAll()
    .orderBy(sortColumn(sort, isDir), dir)
    .orderBy('id', dir)
    .limit(limit)
    .offset(offset);
}

/**
 * Rows [offset, offset + limit) of one part (folders or files) of `size` rows. (sort key, id)
 * is a total order, so the same rows read from the other end — the opposite order, offset
 * `size - end` — are exactly the same rows, ties included; reversed, they are the same page.
 * Whichever end is nearer is read, so the last page of 100,000 entries skips as few index
 * entries as the first (OFFSET walks every skipped entry).
 */
function partPage(
  db: Db,
  space: string,
  path: string,
  isDir: 0 | 1,
  o: { sort: SortKey; order: Direction; size?: number },
  limit: number,
  offset: number,
): { query: ReturnType<typeof folderPart>; reversed: boolean } {
  const end = o.size === undefined ? offset + limit : Math.min(offset + limit, o.size);
  if (o.size !== undefined && o.size - end < offset) {
    const back = o.order === 'asc' ? 'desc' : 'asc';
    const q = folderPart(db, space, path, isDir, o.sort, back, Math.max(0, end - offset), o.size - end);
    return { query: q, reversed: true };
  }
  return { query: folderPart(db, space, path, isDir, o.sort, o.order, limit, offset), reversed: false };
}

/**
 * One page of a folder, folders first. Each part is a range of a listing index read in order
 * (space, delete_flag, file_path, is_dir, then the sort key: user_file_list_idx for names,
 * user_file_time_idx / user_file_size_idx), from whichever end of the part is nearer when its
 * size is given (`dirs`, `files`: the folder's counts), so any page of a folder of 100,000
 * entries, first or last, reads about `pageCount` index entries. A page that spans the last
 * folders and the first files is one UNION ALL of the two parts.
 */
export async function listFolderPage(
  db: Db,
  space: string,
  path: string,
  o: {
    sort: SortKey;
    order: Direction;
    dirOffset: number;
    dirLimit: number;
    fileOffset: number;
    fileLimit: number;
    /** The folder's live sub-folders and files (folderCounts); without them, plain OFFSET. */
    dirs?: number;
    files?: number;
  },
): Promise<FileRow[]> {
  const dirs = () => partPage(db, space, path, 1, { ...o, size: o.dirs }, o.dirLimit, o.dirOffset);
  const files = () => partPage(db, space, path, 0, { ...o, size: o.files }, o.fileLimit, o.fileOffset);
  const run = async (p: ReturnType<typeof partPage>) => {
    const rows = await p.query.execute();
    return p.reversed ? rows.reverse() : rows;
  };
  if (o.fileLimit <= 0) return run(dirs());
  if (o.dirLimit <= 0) return run(files());
  const d = dirs();
  const f = files();
  const both = await db
    .selectFrom(d.query.as('d'))
    .selectAll()
    .unionAll(db.selectFrom(f.query.as('f')).selectAll())
    .execute();
  // UNION ALL keeps no order by contract; put folders first again (the page is small), each
  // part in its own order (a part read from its far end is turned around).
  const part = (isDir: number, reversed: boolean) => {
    const rows = both.filter((r) => r.is_dir === isDir);
    return reversed ? rows.reverse() : rows;
  };
  return [...part(1, d.reversed), ...part(0, f.reversed)];
}

/**
 * The first page of a folder and the folder's counts in one statement: the page every opening
 * of a folder asks for. listFolderPage needs the counts first (where folders end and files
 * begin), which made the call two statements one after the other; on PostgreSQL each is a
 * round trip (issue 25). Page 1 needs no counts to be read: it is the first folders, then the
 * first files, so the statement reads up to `pageCount` of each from the start of its index
 * range and the page is cut here, folders first. The counts come along as two uncorrelated
 * scalar subqueries of folder_count (evaluated once, not per row). It reads at most
 * `pageCount` rows more than the page holds, and only in a folder with folders and files both.
 * An empty answer means an empty (or missing) folder: page 1 of a folder with entries is never
 * empty.
 */
export async function listFirstPage(
  db: Db,
  space: string,
  path: string,
  o: { sort: SortKey; order: Direction; pageCount: number },
): Promise<{ rows: FileRow[]; total: number; dirs: number }> {
  // The page size is written into the SQL (db/dialect.ts), so it is part of the shape.
  const both = await firstPage(db, { sort: o.sort, order: o.order, pageCount: o.pageCount }, { space, path });
  const first = both[0];
  if (!first) return { rows: [], total: 0, dirs: 0 };
  // As in listFolderPage: UNION ALL promises no order between its parts, so they are put
  // folders first here, each part in the order it was read.
  // The rows keep their two count columns: nothing reads them past here (toEntry picks its
  // fields), and copying 100 rows without them cost about 60 µs a page.
  const folders: FileRow[] = both.filter((r) => r.is_dir === 1);
  const files = both.filter((r) => r.is_dir === 0).slice(0, Math.max(0, o.pageCount - folders.length));
  return {
    rows: [...folders, ...files],
    total: Number(first.count_total ?? 0),
    dirs: Number(first.count_dirs ?? 0),
  };
}

/** listFirstPage's statement, compiled once per sort, order and page size (query-template.ts). */
const firstPage = queryTemplate(
  (db, shape: { sort: SortKey; order: Direction; pageCount: number }, v: { space: string; path: string }) => {
    const count = (column: 'total' | 'dirs') =>
      db
        .selectFrom('folder_count')
        .where('space', '=', v.space)
        .where('file_path', '=', v.path)
        .select(column);
    const part = (isDir: 0 | 1) =>
      folderPart(db, v.space, v.path, isDir, shape.sort, shape.order, shape.pageCount, 0).select(() => [
        count('total').as('count_total'),
        count('dirs').as('count_dirs'),
      ]);
    return db
      .selectFrom(part(1).as('d'))
      .selectAll()
      .unionAll(db.selectFrom(part(0).as('f')).selectAll());
  },
);

/** Files of one category (by lower-case extension) across all folders, or all others (`exclude`). */
function categoryQuery(db: Db, space: string, exts: readonly string[], exclude: boolean) {
  return live(db, space)
    .where('is_dir', '=', 0)
    .where((eb) => eb(eb.fn<string>('lower', ['extend_name']), exclude ? 'not in' : 'in', [...exts]));
}

/** A page of one category's files and their count. */
export async function listCategory(
  db: Db,
  space: string,
  q: {
    exts: readonly string[];
    exclude: boolean;
    sort: SortKey;
    order: Direction;
    limit: number;
    offset: number;
  },
) {
  const base = categoryQuery(db, space, q.exts, q.exclude);
  const total = Number(
    (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  const rows = await base
    .selectAll()
    .orderBy(sortColumn(q.sort, 0), q.order)
    .orderBy('id', q.order)
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  return { rows, total };
}

/** The newest live files of a space (the workbench's 最近文件). */
export function recentFiles(db: Db, space: string, limit: number) {
  return live(db, space)
    .where('is_dir', '=', 0)
    .selectAll()
    .orderBy('upload_time', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Every live folder of a space, for the folder tree. */
export function allFolders(db: Db, space: string) {
  return live(db, space)
    .where('is_dir', '=', 1)
    .select(['id', 'file_path', 'file_name'])
    .orderBy('file_path')
    .orderBy('file_name')
    .execute();
}

/** Live entries whose full name contains `needle` (ASCII case-insensitive), folders first. */
export async function search(db: Db, space: string, needle: string, limit: number, offset: number) {
  const pattern = `%${likeEscape(asciiLower(needle))}%`;
  const base = live(db, space).where(sql<boolean>`lower(${FULL_NAME}) like ${pattern} escape '\\'`);
  const total = Number(
    (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  const rows = await base
    .selectAll()
    .orderBy('is_dir', 'desc')
    .orderBy('file_name')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows, total };
}

// ---------------------------------------------------------------- single rows

/** A live row of the space, or undefined (another space's id is simply not found). */
export function findLive(db: Db, space: string, id: number) {
  return live(db, space).selectAll().where('id', '=', id).executeTakeFirst();
}

/** Live rows of the space among `ids` (others are not found). */
export function findLiveMany(db: Db, space: string, ids: number[]) {
  if (!ids.length) return Promise.resolve([] as FileRow[]);
  return live(db, space).selectAll().where('id', 'in', ids).execute();
}

/** A row of the space, live or in the recycle bin. */
export function findAny(db: Db, space: string, id: number) {
  return db
    .selectFrom('user_file')
    .selectAll()
    .where('space', '=', space)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The live entry named `fileName.extendName` in a folder (the unique live name). */
export function findLiveByName(db: Db, space: string, path: string, fileName: string, extendName: string) {
  return live(db, space)
    .selectAll()
    .where('file_path', '=', path)
    .where('file_name', '=', fileName)
    .where('extend_name', '=', extendName)
    .executeTakeFirst();
}

/**
 * The live entries of a folder shown as `full`: a file `name.ext` (split as splitName does), and
 * a folder or extension-less file named `full` itself. Both may exist (a file `v1.2` and a
 * folder `v1.2`), so this answers up to two rows.
 */
export function findLiveByFullName(db: Db, space: string, path: string, full: string) {
  const dot = full.lastIndexOf('.');
  const split =
    dot <= 0 || dot === full.length - 1
      ? { fileName: full, extendName: '' }
      : { fileName: full.slice(0, dot), extendName: full.slice(dot + 1) };
  return live(db, space)
    .selectAll()
    .where('file_path', '=', path)
    .where((eb) =>
      eb.or([
        eb.and([eb('file_name', '=', full), eb('extend_name', '=', '')]),
        eb.and([eb('file_name', '=', split.fileName), eb('extend_name', '=', split.extendName)]),
      ]),
    )
    .execute();
}

/**
 * One page of a folder's live entries with their content keys, folders first, then by name: a
 * range of the listing index, for WebDAV listings that page through folders of any size.
 */
export function folderPageWithBlobs(db: Db, space: string, path: string, offset: number, limit: number) {
  return db
    .selectFrom('user_file')
    .leftJoin('blob', 'blob.id', 'user_file.blob_id')
    .selectAll('user_file')
    .select('blob.md5')
    .where('user_file.space', '=', space)
    .where('user_file.delete_flag', '=', IS_LIVE)
    .where('user_file.file_path', '=', path)
    .orderBy('user_file.is_dir', 'desc')
    .orderBy('user_file.file_name')
    .orderBy('user_file.extend_name')
    .orderBy('user_file.id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * Full names in a folder that the collision rule may have to skip: `base.ext` and every
 * `base(…).ext`. A range on the unique name index (all names starting `base(` sort between
 * `base(` and `base)`), never a LIKE on a user's string.
 */
export async function namesLike(db: Db, space: string, path: string, base: string, extendName: string) {
  const rows = await live(db, space)
    .select(['file_name'])
    .where('file_path', '=', path)
    .where('extend_name', '=', extendName)
    .where((eb) =>
      eb.or([
        eb('file_name', '=', base),
        eb.and([eb('file_name', '>=', `${base}(`), eb('file_name', '<', `${base})`)]),
      ]),
    )
    .execute();
  return rows.map((r) => r.file_name);
}

/** Live direct children of a folder path. */
export function liveChildren(db: Db, space: string, path: string) {
  return live(db, space).selectAll().where('file_path', '=', path).orderBy('id').execute();
}

/** Live subtree rows with their blob keys, for zips. */
export function liveSubtreeWithBlobs(db: Db, space: string, folderPath: string) {
  return db
    .selectFrom('user_file')
    .leftJoin('blob', 'blob.id', 'user_file.blob_id')
    .selectAll('user_file')
    .select('blob.md5')
    .where('user_file.space', '=', space)
    .where('user_file.delete_flag', '=', IS_LIVE)
    .where(sql<boolean>`substr(user_file.file_path, 1, length(${folderPath})) = ${folderPath}`)
    .orderBy('user_file.file_path')
    .orderBy('user_file.file_name')
    .execute();
}

/** The blob key of a live file of the space. */
export function blobOf(db: Db, space: string, id: number) {
  return db
    .selectFrom('user_file')
    .innerJoin('blob', 'blob.id', 'user_file.blob_id')
    .select(['blob.md5', 'blob.size'])
    .where('user_file.space', '=', space)
    .where('user_file.delete_flag', '=', IS_LIVE)
    .where('user_file.id', '=', id)
    .executeTakeFirst();
}

/** Sum of file sizes in a live subtree (what copying it adds). */
export async function liveSubtreeBytes(db: Db, space: string, folderPath: string) {
  const r = await live(db, space)
    .where('is_dir', '=', 0)
    .where(under(folderPath))
    .select((eb) => eb.fn.sum<number>('file_size').as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n ?? 0);
}

// ---------------------------------------------------------------- writes

/** Adds a live row; answers its id. */
export async function insertEntry(db: Db, row: NewFileRow): Promise<number> {
  const r = await db
    .insertInto('user_file')
    .values({ ...row, delete_flag: LIVE })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/**
 * Changes one row: its place or name (and may bring it back from the bin), or its content (an
 * edit saved: blob, size, image size).
 */
export async function updateEntry(
  db: Db,
  space: string,
  id: number,
  patch: Partial<
    Pick<
      FileRow,
      | 'file_path'
      | 'file_name'
      | 'extend_name'
      | 'upload_time'
      | 'blob_id'
      | 'file_size'
      | 'image_width'
      | 'image_height'
    >
  > & {
    unbin?: boolean;
  },
) {
  const { unbin, ...rest } = patch;
  await db
    .updateTable('user_file')
    .set({ ...rest, ...(unbin ? { delete_flag: LIVE, delete_time: null, delete_batch_num: null } : {}) })
    .where('space', '=', space)
    .where('id', '=', id)
    .execute();
}

/**
 * Moves every row below `from` (a folder path) to below `to`, in one statement. `scope`
 * chooses the rows: all of them (rename and move carry the recycled descendants along too), or
 * one recycle batch, which this also brings back from the bin.
 */
export async function rewritePrefix(
  db: Db,
  space: string,
  from: string,
  to: string,
  scope: { batch: string } | 'all',
) {
  let q = db
    .updateTable('user_file')
    .set({ file_path: sql<string>`${to} || substr(file_path, length(${from}) + 1)` })
    .where('space', '=', space)
    .where(under(from));
  if (scope !== 'all') {
    q = q
      .set({ delete_flag: LIVE, delete_time: null, delete_batch_num: null })
      .where('delete_batch_num', '=', scope.batch);
  }
  await q.execute();
}

/**
 * Copies a live subtree below `from` to below `to` in one INSERT … SELECT: the new rows share
 * the blobs (no byte is copied) and get `now` as their time.
 */
export async function copySubtree(
  db: Db,
  space: string,
  from: string,
  to: string,
  now: number,
  createdBy: number,
) {
  await db
    .insertInto('user_file')
    .columns([
      'space',
      'file_path',
      'file_name',
      'extend_name',
      'is_dir',
      'blob_id',
      'file_size',
      'upload_time',
      'delete_flag',
      'image_width',
      'image_height',
      'created_by',
    ])
    .expression(
      live(db, space)
        .where(under(from))
        .select((eb) => [
          'space',
          sql<string>`${to} || substr(file_path, length(${from}) + 1)`.as('file_path'),
          'file_name',
          'extend_name',
          'is_dir',
          'blob_id',
          'file_size',
          eb.val(now).as('upload_time'),
          eb.val(LIVE).as('delete_flag'),
          'image_width',
          'image_height',
          eb.val(createdBy).as('created_by'),
        ]),
    )
    .execute();
}

/** Puts a live item and, for a folder, its live subtree into the bin under one batch. */
export async function binItem(
  db: Db,
  space: string,
  item: { id: number; folderPath: string | null },
  mark: { flag: number; time: number; batch: string },
) {
  await db
    .updateTable('user_file')
    .set({ delete_flag: mark.flag, delete_time: mark.time, delete_batch_num: mark.batch })
    .where('space', '=', space)
    .where('delete_flag', '=', IS_LIVE)
    .where((eb) =>
      item.folderPath === null
        ? eb('id', '=', item.id)
        : eb.or([eb('id', '=', item.id), under(item.folderPath)]),
    )
    .execute();
}

/** Removes a live item and its live subtree for good; answers the blob ids they used. */
export async function deleteLiveItem(db: Db, space: string, item: { id: number; folderPath: string | null }) {
  const rows = await db
    .deleteFrom('user_file')
    .where('space', '=', space)
    .where('delete_flag', '=', IS_LIVE)
    .where((eb) =>
      item.folderPath === null
        ? eb('id', '=', item.id)
        : eb.or([eb('id', '=', item.id), under(item.folderPath)]),
    )
    .returning('blob_id')
    .execute();
  return rows.map((r) => r.blob_id).filter((b): b is number => b !== null);
}

/** Removes one row (a folder emptied by a merge). */
export async function deleteRow(db: Db, space: string, id: number) {
  await db.deleteFrom('user_file').where('space', '=', space).where('id', '=', id).execute();
}

/** Removes every row of a recycle batch for good; answers the blob ids they used. */
export async function deleteBatch(db: Db, space: string, batch: string) {
  const rows = await db
    .deleteFrom('user_file')
    .where('space', '=', space)
    .where('delete_batch_num', '=', batch)
    .returning('blob_id')
    .execute();
  return rows.map((r) => r.blob_id).filter((b): b is number => b !== null);
}

// ---------------------------------------------------------------- recycle bin

/** Adds the bin entry of a batch's top item; its id also marks the batch's rows. */
export async function insertRecovery(
  db: Db,
  r: {
    space: string;
    user_file_id: number;
    delete_batch_num: string;
    delete_time: number;
    deleted_by: number;
  },
) {
  const row = await db.insertInto('recovery').values(r).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The top items in a space's recycle bin, newest first. */
export function listRecovery(db: Db, space: string) {
  return db
    .selectFrom('recovery')
    .innerJoin('user_file', 'user_file.id', 'recovery.user_file_id')
    .selectAll('user_file')
    .select('recovery.id as recovery_id')
    .where('recovery.space', '=', space)
    .where('user_file.space', '=', space)
    .orderBy('recovery.delete_time', 'desc')
    .orderBy('recovery.id', 'desc')
    .execute();
}

/** Bin entries of the space among `ids`. */
export function findRecoveriesByIds(db: Db, space: string, ids: number[]) {
  return db.selectFrom('recovery').selectAll().where('space', '=', space).where('id', 'in', ids).execute();
}

/** The bin entry of a batch in the space. */
export function findRecoveryByBatch(db: Db, space: string, batch: string) {
  return db
    .selectFrom('recovery')
    .selectAll()
    .where('space', '=', space)
    .where('delete_batch_num', '=', batch)
    .executeTakeFirst();
}

/** Removes a bin entry (its rows are restored or deleted by the caller). */
export async function deleteRecovery(db: Db, space: string, id: number) {
  await db.deleteFrom('recovery').where('space', '=', space).where('id', '=', id).execute();
}

/** Rows of a recycle batch directly inside a folder path (for merging a restored folder). */
export function batchChildren(db: Db, space: string, batch: string, path: string) {
  return db
    .selectFrom('user_file')
    .selectAll()
    .where('space', '=', space)
    .where('delete_batch_num', '=', batch)
    .where('file_path', '=', path)
    .orderBy('id')
    .execute();
}

// ---------------------------------------------------------------- blobs and quota

/** The blob row of a key, if stored. */
export function findBlob(db: Db, md5: string) {
  return db.selectFrom('blob').selectAll().where('md5', '=', md5).executeTakeFirst();
}

/**
 * Records a stored blob; answers its id. When another transaction recorded the same bytes
 * meanwhile (another server instance storing the same content), answers that row instead of
 * failing on the unique key: ON CONFLICT waits for it to commit, and the SELECT then sees it.
 */
export async function insertBlob(db: Db, md5: string, size: number) {
  const r = await db
    .insertInto('blob')
    .values({ md5, size, created_at: Date.now() })
    .onConflict((oc) => oc.column('md5').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (r) return r.id;
  return (await db.selectFrom('blob').select('id').where('md5', '=', md5).executeTakeFirstOrThrow()).id;
}

/**
 * Deletes the blob rows among `ids` that no user_file row (of any space, live or binned)
 * references any more, and answers their keys so the caller can remove the bytes after commit.
 */
export async function deleteOrphanBlobs(db: Db, ids: number[]) {
  const unique = [...new Set(ids)];
  const out: string[] = [];
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const rows = await db
      .deleteFrom('blob')
      .where('id', 'in', chunk)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('user_file').select('user_file.id').whereRef('user_file.blob_id', '=', 'blob.id'),
          ),
        ),
      )
      .returning('md5')
      .execute();
    out.push(...rows.map((r) => r.md5));
  }
  return out;
}

/** Bytes of the files (live and binned) in a space. */
export async function usedBytes(db: Db, space: string) {
  const r = await db
    .selectFrom('user_file')
    .select((eb) => eb.fn.sum<number>('file_size').as('n'))
    .where('space', '=', space)
    .where('is_dir', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(r.n ?? 0);
}

/**
 * Room held by unfinished uploads in a space (issue 16 §1): the declared size of each session
 * from its first chunk until it completes, is cancelled or swept. `except` leaves one session
 * out (the one being resumed or completed, whose room is its own).
 */
export async function reservedBytes(db: Db, space: string, except?: string) {
  let q = db
    .selectFrom('upload_session')
    .select((eb) => eb.fn.sum<number>('reserved_bytes').as('n'))
    .where('space', '=', space)
    .where('done_user_file_id', 'is', null);
  if (except) q = q.where('id', '!=', except);
  const r = await q.executeTakeFirstOrThrow();
  return Number(r.n ?? 0);
}

/**
 * Takes the person's row lock for the rest of the transaction: every check-then-write of their
 * room (quota, upload reservations, attachment budget) does this first, so two of them never
 * both pass against the same free room. SQLite serialises writers anyway; on PostgreSQL this
 * is the row lock that makes the check and the write one step.
 */
export async function lockPerson(db: Db, userId: number) {
  await db
    .updateTable('user')
    .set((eb) => ({ enabled: eb.ref('enabled') }))
    .where('id', '=', userId)
    .execute();
}

/**
 * Takes one entry's row lock for the rest of the transaction (a no-op write, as lockPerson):
 * a save that names the content it was opened from checks and replaces it as one step, so two
 * saves from the same version never both pass. SQLite serialises writers anyway.
 */
export async function lockEntry(db: Db, space: string, id: number) {
  await db
    .updateTable('user_file')
    .set((eb) => ({ upload_time: eb.ref('upload_time') }))
    .where('space', '=', space)
    .where('id', '=', id)
    .execute();
}

/** A person's quota in bytes, or undefined for the default. */
export async function quotaOf(db: Db, userId: number) {
  const r = await db
    .selectFrom('storage_quota')
    .select('total_bytes')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return r ? Number(r.total_bytes) : undefined;
}

/** Sets a person's quota in bytes. */
export async function setQuota(db: Db, userId: number, totalBytes: number) {
  await db
    .insertInto('storage_quota')
    .values({ user_id: userId, total_bytes: totalBytes })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ total_bytes: totalBytes }))
    .execute();
}

/** The user row's id, if the user exists. */
export function userExists(db: Db, userId: number) {
  return db.selectFrom('user').select('id').where('id', '=', userId).executeTakeFirst();
}

// ---------------------------------------------------------------- across spaces (项目文档)

/**
 * Moves one live row to another space under a new path and name (moveFromDrive). Its id stays,
 * so what pointed at it (a task's `drive_file_id`) still names the same file.
 */
export async function moveRowToSpace(
  db: Db,
  from: string,
  id: number,
  to: string,
  place: { file_path: string; file_name: string },
) {
  await db
    .updateTable('user_file')
    .set({ space: to, ...place })
    .where('space', '=', from)
    .where('id', '=', id)
    .where('delete_flag', '=', IS_LIVE)
    .execute();
}

/**
 * Moves the live rows below folder path `fromPath` of space `from` to below `toPath` of space
 * `to`, in one statement. Recycled rows stay in their bin (restoring one recreates its folder).
 */
export async function moveLiveSubtreeToSpace(
  db: Db,
  from: string,
  to: string,
  fromPath: string,
  toPath: string,
) {
  await db
    .updateTable('user_file')
    .set({ space: to, file_path: sql<string>`${toPath} || substr(file_path, length(${fromPath}) + 1)` })
    .where('space', '=', from)
    .where('delete_flag', '=', IS_LIVE)
    .where(under(fromPath))
    .execute();
}

/**
 * The live folders of some spaces, and with `files` their live files too (of names containing
 * `name`, case-insensitive for ASCII, when given): the project picker's tree.
 */
export function liveTreeOf(db: Db, spaces: string[], opts: { files: boolean; name: string }) {
  if (!spaces.length) return Promise.resolve([]);
  return db
    .selectFrom('user_file')
    .select(['id', 'space', 'file_path', 'file_name', 'extend_name', 'is_dir'])
    .where('space', 'in', spaces)
    .where('delete_flag', '=', IS_LIVE)
    .where((w) =>
      opts.files
        ? w.or([
            w('is_dir', '=', 1),
            opts.name
              ? sql<boolean>`lower(${FULL_NAME}) like ${`%${likeEscape(asciiLower(opts.name))}%`} escape '\\'`
              : w('is_dir', '=', 0),
          ])
        : w('is_dir', '=', 1),
    )
    .orderBy('is_dir', 'desc')
    .orderBy('file_name')
    .orderBy('extend_name')
    .execute();
}
