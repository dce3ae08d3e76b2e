import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

/*
 * FROZEN. Sharing by link (issue 6) and the notices it sends. Portable across SQLite and
 * PostgreSQL.
 *
 * - share: one row per share action. `batch_num` is the unguessable link id; `status` 0 live,
 *   1 revoked by its owner (kept so the link can say so). Times are epoch ms.
 * - share_file: the share's items, snapshotted when it is made (research/qiwen-drive.md §2.3):
 *   each chosen item at '/', and every live descendant of a chosen folder at its path relative
 *   to that folder's parent, with its name as it was. Later additions to the folder are not
 *   shared, and renaming or moving items afterwards does not change the share's tree. The bytes
 *   are the file's current ones; a file deleted since drops out (its row goes with it when it
 *   is removed for good: cascade).
 * - share_grant: the short-lived access a right extraction code buys one client, by the SHA-256
 *   of the random token in its cookie, so the code never travels again.
 * - share_attempt: failed code attempts per (share, client); client '*' counts all clients.
 * - notice: a notice for one person (spec office.md §3; the notices issue shows and extends it).
 *   status 1 unread, 2 read.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('share')
    .addColumn('id', 'integer', id(db))
    .addColumn('batch_num', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('space', 'varchar(40)', (c) => c.notNull())
    .addColumn('share_type', 'integer', (c) => c.notNull())
    .addColumn('extraction_code', 'varchar(16)')
    .addColumn('remarks', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('share_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked_at', 'bigint')
    .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('share_owner_idx').on('share').columns(['owner_id', 'share_time']).execute();

  await db.schema
    .createTable('share_file')
    .addColumn('id', 'integer', id(db))
    .addColumn('share_id', 'integer', (c) => c.notNull().references('share.id').onDelete('cascade'))
    .addColumn('user_file_id', 'integer', (c) => c.notNull().references('user_file.id').onDelete('cascade'))
    .addColumn('share_file_path', 'varchar(4096)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('extend_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('is_dir', 'integer', (c) => c.notNull())
    .addColumn('is_top', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('share_file_item_idx')
    .on('share_file')
    .columns(['share_id', 'user_file_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('share_file_path_idx')
    .on('share_file')
    .columns(['share_id', 'share_file_path'])
    .execute();
  await db.schema.createIndex('share_file_file_idx').on('share_file').column('user_file_id').execute();

  await db.schema
    .createTable('share_grant')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('share_id', 'integer', (c) => c.notNull().references('share.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_grant_expiry_idx').on('share_grant').column('expires_at').execute();

  await db.schema
    .createTable('share_attempt')
    .addColumn('share_id', 'integer', (c) => c.notNull().references('share.id').onDelete('cascade'))
    .addColumn('client', 'varchar(64)', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addPrimaryKeyConstraint('share_attempt_pk', ['share_id', 'client'])
    .execute();

  await db.schema
    .createTable('notice')
    .addColumn('id', 'integer', id(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('notice_content', 'varchar(2000)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('source', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notice_user_idx').on('notice').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['notice', 'share_attempt', 'share_grant', 'share_file', 'share']) {
    await db.schema.dropTable(t).execute();
  }
}
