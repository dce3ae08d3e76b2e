import type { Selectable } from 'kysely';
import type { Db } from '../../db/index';
import type { MediaInfoTable } from '../../db/schema';
import { IS_LIVE } from './drive.repo';

/*
 * SQL of the media details (migration 0004). Tags belong to a blob (content), shared by every
 * file with those bytes; the lookups of files are scoped by `space` like every drive query.
 */

export type MediaRow = Selectable<MediaInfoTable>;

/** The blob of a file of the space, live or in its recycle bin (the bin's details show it too). */
export function blobOfAny(db: Db, space: string, id: number) {
  return db
    .selectFrom('user_file')
    .innerJoin('blob', 'blob.id', 'user_file.blob_id')
    .select(['blob.id', 'blob.md5', 'blob.size'])
    .where('user_file.space', '=', space)
    .where('user_file.id', '=', id)
    .executeTakeFirst();
}

/** The stored tags of a blob, if parsed (or tried) before. */
export function findMedia(db: Db, blobId: number) {
  return db.selectFrom('media_info').selectAll().where('blob_id', '=', blobId).executeTakeFirst();
}

/** The id of a blob by key, if it is still stored. */
export async function blobIdOf(db: Db, md5: string) {
  return (await db.selectFrom('blob').select('id').where('md5', '=', md5).executeTakeFirst())?.id;
}

/** Records a blob's tags; a row someone else wrote first is kept (same bytes, same answer). */
export async function saveMedia(db: Db, row: MediaRow) {
  await db
    .insertInto('media_info')
    .values(row)
    .onConflict((oc) => oc.column('blob_id').doNothing())
    .execute();
}

/** Replaces a row written by an older parser version. */
export async function replaceMedia(db: Db, row: MediaRow) {
  await db
    .insertInto('media_info')
    .values(row)
    .onConflict((oc) =>
      oc.column('blob_id').doUpdateSet({
        ok: row.ok,
        version: row.version,
        title: row.title,
        artist: row.artist,
        album: row.album,
        album_image: row.album_image,
        track_length: row.track_length,
        lyrics: row.lyrics,
        created_at: row.created_at,
      }),
    )
    .execute();
}

/**
 * The blob of the live `.lrc` file named `fileName` (any case of the extension) in a folder of
 * the space: the lyrics that go with an audio file of that name.
 */
export function lrcBeside(db: Db, space: string, path: string, fileName: string) {
  return db
    .selectFrom('user_file')
    .innerJoin('blob', 'blob.id', 'user_file.blob_id')
    .select(['blob.md5', 'blob.size'])
    .where('user_file.space', '=', space)
    .where('user_file.delete_flag', '=', IS_LIVE)
    .where('user_file.file_path', '=', path)
    .where('user_file.file_name', '=', fileName)
    .where('user_file.is_dir', '=', 0)
    .where((eb) => eb(eb.fn<string>('lower', ['user_file.extend_name']), '=', 'lrc'))
    .orderBy('user_file.id')
    .executeTakeFirst();
}

/** Records an image's size found after upload (older files, or a header read late). */
export async function setImageSize(db: Db, space: string, id: number, width: number, height: number) {
  await db
    .updateTable('user_file')
    .set({ image_width: width, image_height: height })
    .where('space', '=', space)
    .where('id', '=', id)
    .execute();
}
