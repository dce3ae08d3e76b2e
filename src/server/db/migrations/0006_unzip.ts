import type { Kysely } from 'kysely';

/*
 * FROZEN. Unzip jobs (issue 6 "Unzip"). One row per file/unzipfile call, so a closed page or a
 * restart loses nothing: the person's recent jobs are listed from here. `status` is 'running',
 * 'done' or 'failed'; `names` is the JSON list of top-level names created in the target. A job
 * still 'running' when the server starts was cut off by a restart and is marked failed (its
 * rows are written in one transaction at the end, so nothing of it was written).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('unzip_job')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('space', 'varchar(40)', (c) => c.notNull())
    .addColumn('user_file_id', 'integer', (c) => c.notNull())
    .addColumn('archive_name', 'varchar(300)', (c) => c.notNull())
    .addColumn('target_path', 'varchar(4096)', (c) => c.notNull())
    .addColumn('unzip_mode', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('message', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('entries_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('entries_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_done', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('names', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('unzip_job_user_idx')
    .on('unzip_job')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('unzip_job_status_idx').on('unzip_job').column('status').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('unzip_job').execute();
}
