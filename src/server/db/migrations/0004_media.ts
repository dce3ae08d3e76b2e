import type { Kysely } from 'kysely';

/*
 * FROZEN. Media details read from content (issue 5): the music tags of one blob, parsed once
 * and shared by every file with those bytes (content is immutable and keyed by a
 * server-verified MD5). A row goes with its blob (cascade). `ok` 0 records a parse that failed,
 * so a broken file is not parsed again on every detail call; `version` lets a later parser
 * re-read rows written by an older one. Portable across SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('media_info')
    .addColumn('blob_id', 'integer', (c) => c.primaryKey().references('blob.id').onDelete('cascade'))
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('artist', 'text')
    .addColumn('album', 'text')
    // A data: URL of the cover, re-encoded to at most 300 px (tens of KB).
    .addColumn('album_image', 'text')
    // Seconds.
    .addColumn('track_length', 'double precision')
    // LRC text, or plain lines when the tags have no timestamps.
    .addColumn('lyrics', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('media_info').execute();
}
