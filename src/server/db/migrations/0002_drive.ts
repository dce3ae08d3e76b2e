import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

/*
 * FROZEN. The drive: content blobs keyed by a server-verified MD5, the per-space logical tree,
 * recycle-bin entries and per-user quotas. Portable across SQLite and PostgreSQL.
 *
 * `space` says whose tree a row belongs to: 'u:<userId>' for a person's drive, 'res' for
 * 其他资源 and 'hd' for 高清图片. Every query is scoped by it.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('blob')
    .addColumn('id', 'integer', id(db))
    .addColumn('md5', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_file')
    .addColumn('id', 'integer', id(db))
    .addColumn('space', 'varchar(40)', (c) => c.notNull())
    .addColumn('file_path', 'varchar(4096)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('extend_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('is_dir', 'integer', (c) => c.notNull())
    .addColumn('blob_id', 'integer', (c) => c.references('blob.id'))
    .addColumn('file_size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('upload_time', 'bigint', (c) => c.notNull())
    .addColumn('delete_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('delete_time', 'bigint')
    .addColumn('delete_batch_num', 'varchar(36)')
    .addColumn('image_width', 'integer')
    .addColumn('image_height', 'integer')
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .execute();
  // One live item per name in a folder (folders included: extend_name is '' not NULL).
  await sql`create unique index user_file_live_name on user_file (space, file_path, file_name, extend_name) where delete_flag = 0`.execute(
    db,
  );
  // The listing index: a folder page, folders first, by name.
  await db.schema
    .createIndex('user_file_list_idx')
    .on('user_file')
    .columns(['space', 'delete_flag', 'file_path', 'is_dir', 'file_name'])
    .execute();
  await db.schema
    .createIndex('user_file_batch_idx')
    .on('user_file')
    .columns(['space', 'delete_batch_num'])
    .execute();
  await db.schema.createIndex('user_file_blob_idx').on('user_file').column('blob_id').execute();

  await db.schema
    .createTable('recovery')
    .addColumn('id', 'integer', id(db))
    .addColumn('space', 'varchar(40)', (c) => c.notNull())
    .addColumn('user_file_id', 'integer', (c) => c.notNull().references('user_file.id').onDelete('cascade'))
    .addColumn('delete_batch_num', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('delete_time', 'bigint', (c) => c.notNull())
    .addColumn('deleted_by', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recovery_space_idx')
    .on('recovery')
    .columns(['space', 'delete_time'])
    .execute();

  await db.schema
    .createTable('storage_quota')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('total_bytes', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['storage_quota', 'recovery', 'user_file', 'blob']) await db.schema.dropTable(t).execute();
}
