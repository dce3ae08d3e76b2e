import { sql } from 'kysely';
import type { Db } from '../../db/index';
import { IS_LIVE } from '../drive/drive.repo';

/*
 * SQL of image search (migration 0046). Hash rows belong to content (MD5); the files they are
 * resolved to are read only in the museum's libraries (spaces 'hd' and 'res'), never in a
 * person's drive ('u:…').
 */

/** Extensions whose content is hashed (what sharp decodes; BMP and SVG are not photographs). */
export const HASHED_EXTS = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'tif', 'tiff'] as const;

export interface HashRow {
  md5: string;
  ok: number;
  version: number;
  hashes: string;
  width: number | null;
  height: number | null;
  taken_at: number | null;
  tags: string;
  created_at: number;
}

export async function findHash(db: Db, md5: string) {
  return db.selectFrom('image_hash').select(['id', 'version']).where('md5', '=', md5).executeTakeFirst();
}

/** Records a content's hashes; a row another instance wrote first is kept (same bytes, same hashes). */
export async function saveHash(db: Db, row: HashRow, replace: boolean) {
  await db
    .insertInto('image_hash')
    .values(row)
    .onConflict((oc) =>
      replace
        ? oc.column('md5').doUpdateSet({
            ok: row.ok,
            version: row.version,
            hashes: row.hashes,
            width: row.width,
            height: row.height,
            taken_at: row.taken_at,
            tags: row.tags,
            // A new id and time, so other instances' catch-up sees the new hashes.
            created_at: row.created_at,
          })
        : oc.column('md5').doNothing(),
    )
    .execute();
}

/** Rows for the in-memory index: those after `afterId`, and those written since `since` (ms). */
export async function rowsSince(db: Db, afterId: number, since: number, version: number) {
  const cols = ['id', 'md5', 'hashes', 'created_at'] as const;
  const byId = await db
    .selectFrom('image_hash')
    .select(cols)
    .where('id', '>', afterId)
    .where('ok', '=', 1)
    .where('version', '=', version)
    .orderBy('id')
    .execute();
  const recent = await db
    .selectFrom('image_hash')
    .select(cols)
    .where('created_at', '>=', since)
    .where('ok', '=', 1)
    .where('version', '=', version)
    .execute();
  return [...byId, ...recent];
}

/**
 * Up to `limit` contents of live image files (any space) with no hash row of `version`: the
 * backfill's next batch.
 */
export async function unhashed(db: Db, version: number, limit: number) {
  const rows = await db
    .selectFrom('user_file')
    .innerJoin('blob', 'blob.id', 'user_file.blob_id')
    .leftJoin('image_hash', (j) =>
      j.onRef('image_hash.md5', '=', 'blob.md5').on('image_hash.version', '=', version),
    )
    .select(['blob.md5', 'blob.size'])
    .where('user_file.delete_flag', '=', IS_LIVE)
    .where('user_file.is_dir', '=', 0)
    .where((eb) => eb(eb.fn<string>('lower', ['user_file.extend_name']), 'in', [...HASHED_EXTS]))
    .where('image_hash.md5', 'is', null)
    .groupBy(['blob.md5', 'blob.size'])
    .limit(limit)
    .execute();
  return rows.map((r) => ({ md5: r.md5, size: Number(r.size) }));
}

/** Removes hash rows whose content neither the drive nor an attachment holds any more. */
export async function pruneOrphans(db: Db) {
  const r = await db
    .deleteFrom('image_hash')
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('blob').select('blob.id').whereRef('blob.md5', '=', 'image_hash.md5'))),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

const FILE_COLS = [
  'user_file.id',
  'user_file.space',
  'user_file.file_name',
  'user_file.file_path',
  'user_file.extend_name',
  'user_file.image_width',
  'user_file.image_height',
  'user_file.upload_time',
  'blob.md5',
  'image_hash.taken_at',
  'image_hash.tags',
  'image_hash.width',
  'image_hash.height',
] as const;

function libraryFiles(db: Db, spaces: readonly string[]) {
  return db
    .selectFrom('user_file')
    .innerJoin('blob', 'blob.id', 'user_file.blob_id')
    .leftJoin('image_hash', 'image_hash.md5', 'blob.md5')
    .where('user_file.space', 'in', [...spaces])
    .where('user_file.delete_flag', '=', IS_LIVE)
    .where('user_file.is_dir', '=', 0)
    .where((eb) => eb(eb.fn<string>('lower', ['user_file.extend_name']), 'in', [...HASHED_EXTS]));
}

/** The live library image files holding any of `md5s`. */
export async function filesOf(db: Db, spaces: readonly string[], md5s: readonly string[]) {
  if (!spaces.length || !md5s.length) return [];
  return libraryFiles(db, spaces)
    .select(FILE_COLS)
    .where('blob.md5', 'in', [...md5s])
    .execute();
}
export type FileHitRow = Awaited<ReturnType<typeof filesOf>>[number];

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
const FULL_NAME = sql<string>`user_file.file_name || case when user_file.extend_name = '' then '' else '.' || user_file.extend_name end`;

/** A page of library images by name or keyword and the date taken, newest taken first. */
export async function searchFiles(
  db: Db,
  spaces: readonly string[],
  q: { keyword?: string; from?: number; to?: number; offset: number; limit: number },
) {
  if (!spaces.length) return { rows: [], total: 0 };
  let base = libraryFiles(db, spaces);
  const kw = q.keyword?.trim().toLowerCase();
  if (kw) {
    const pattern = `%${likeEscape(kw)}%`;
    base = base.where((eb) =>
      eb.or([
        sql<boolean>`lower(${FULL_NAME}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(image_hash.tags) like ${pattern} escape '\\'`,
      ]),
    );
  }
  if (q.from !== undefined) base = base.where('image_hash.taken_at', '>=', q.from);
  if (q.to !== undefined) base = base.where('image_hash.taken_at', '<', q.to);
  const total = Number(
    (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0,
  );
  const rows = await base
    .select(FILE_COLS)
    .orderBy(sql`case when image_hash.taken_at is null then 1 else 0 end`)
    .orderBy('image_hash.taken_at', 'desc')
    .orderBy('user_file.upload_time', 'desc')
    .orderBy('user_file.id', 'desc')
    .offset(q.offset)
    .limit(q.limit)
    .execute();
  return { rows, total };
}
