import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. 馆内动态 (wkDynamic), museum news (issue 18; src/shared/records/office/wk-dynamic.ts).
 * `status` 0 草稿, 1 已发布, 2 已下线; `publish_time` epoch ms, set when published. Readers list
 * published rows newest first: an index on (status, publish_time).
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wk_dynamic')
    .addColumn('id', 'integer', id(db))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('create_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('dept_id', 'integer', (c) => c.references('department.id').onDelete('set null'))
    .addColumn('summary', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('publish_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('wk_dynamic_status_time_idx')
    .on('wk_dynamic')
    .columns(['status', 'publish_time'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('wk_dynamic').execute();
}
