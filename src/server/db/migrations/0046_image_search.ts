import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

/*
 * FROZEN. Image search (issue 24; README "Image search"): the perceptual hashes of one image's
 * content, keyed by the content's MD5, so the same bytes are hashed once whichever file, copy,
 * library or record holds them. `hashes` is the hex of the 64-bit hashes (the whole picture and
 * its crop windows, 16 digits each); `ok` 0 records content that could not be decoded, so it is
 * not tried again; `version` lets a later method re-hash rows of an older one. `taken_at` (the
 * EXIF date taken, epoch ms) and `tags` (XMP keywords, one per line) are read in the same pass.
 * Instances keep the hashes in memory and catch up on rows another instance added by `id` and
 * `created_at`. Portable across SQLite and PostgreSQL.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('image_hash')
    .addColumn('id', 'integer', id(db))
    .addColumn('md5', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('hashes', 'varchar(400)', (c) => c.notNull().defaultTo(''))
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('taken_at', 'bigint')
    .addColumn('tags', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('image_hash_created_idx').on('image_hash').column('created_at').execute();
  await db.schema.createIndex('image_hash_taken_idx').on('image_hash').column('taken_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('image_hash').execute();
}
