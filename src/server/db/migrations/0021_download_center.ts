import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. 下载中心, the download centre (issue 18; src/shared/records/office/download-doc.ts).
 *
 * - download_doc: a document the office publishes; `file` is its attachment id as ',12,'
 *   (the records' list of ids; the bytes are the attachment service's, table 'downloadDoc');
 *   `category` a value of the dictionary download_category; `status` 0 草稿, 1 已发布, 2 已下线;
 *   `download_count` counted by the server.
 * - download_log: who took which document on which museum day ('yyyy-MM-dd'): the primary key
 *   makes a second download the same day count nothing.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('download_doc')
    .addColumn('id', 'integer', id(db))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('create_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('category', 'varchar(50)', (c) => c.notNull())
    .addColumn('file', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('publish_time', 'bigint')
    .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('download_doc_status_time_idx')
    .on('download_doc')
    .columns(['status', 'publish_time'])
    .execute();

  await db.schema
    .createTable('download_log')
    .addColumn('doc_id', 'integer', (c) => c.notNull().references('download_doc.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('download_log_pk', ['doc_id', 'user_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('download_log').execute();
  await db.schema.dropTable('download_doc').execute();
}
