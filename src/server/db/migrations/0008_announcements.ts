import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN once shipped. Notice publishing (信息发布, issue 7) and attachments. Portable across
 * SQLite and PostgreSQL. Times are epoch ms.
 *
 * - announcement: a museum announcement. `content` is HTML already sanitized by the server.
 *   `audience` 'all', 'dept' or 'user'; `status` 0 draft, 1 published, 2 cancelled (撤回).
 *   `published_at` is the last publishing time (null while never published).
 * - announcement_target: the departments (kind 'dept') or people (kind 'user') of an
 *   announcement whose audience is not 'all'. A department includes its sub-departments.
 * - attachment: uploaded bytes for a record of some table (`table_name`, e.g. 'announcement';
 *   `record_id` null until the record is saved with it). The bytes are a content-addressed
 *   blob under DATA_DIR/attachments keyed by `md5` (computed by the server); `name` is shown and
 *   sent as the download name, never used as a path. `inline` 1 marks an editor image, served
 *   inline as `mime` (a type decided from the bytes: png, jpeg, gif or webp only).
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('announcement')
    .addColumn('id', 'integer', id(db))
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('audience', 'varchar(10)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('published_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('announcement_status_idx')
    .on('announcement')
    .columns(['status', 'published_at'])
    .execute();

  await db.schema
    .createTable('announcement_target')
    .addColumn('announcement_id', 'integer', (c) =>
      c.notNull().references('announcement.id').onDelete('cascade'),
    )
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('announcement_target_pk', ['announcement_id', 'kind', 'target_id'])
    .execute();
  await db.schema
    .createIndex('announcement_target_idx')
    .on('announcement_target')
    .columns(['kind', 'target_id'])
    .execute();

  await db.schema
    .createTable('attachment')
    .addColumn('id', 'integer', id(db))
    .addColumn('table_name', 'varchar(40)', (c) => c.notNull())
    .addColumn('record_id', 'integer')
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('md5', 'varchar(32)', (c) => c.notNull())
    .addColumn('inline', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mime', 'varchar(40)')
    .addColumn('uploaded_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('attachment_record_idx')
    .on('attachment')
    .columns(['table_name', 'record_id'])
    .execute();
  await db.schema.createIndex('attachment_md5_idx').on('attachment').column('md5').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attachment').execute();
  await db.schema.dropTable('announcement_target').execute();
  await db.schema.dropTable('announcement').execute();
}
