import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. The staff directory and personal schedules (issue 7). Portable across SQLite and
 * PostgreSQL. Times are epoch ms.
 *
 * - address_book: what the directory adds to the organisation. A row with `user_id` extends
 *   that account's directory entry (its name, mobile and departments stay the account's, so
 *   they are never copied and never stale); at most one per account (unique; NULLs do not
 *   collide on either engine). A row without `user_id` is an external entry (安保值班室) and
 *   carries its own name, mobile and department. `hidden` 1 keeps a row out of the directory.
 *   A deleted account takes its extension with it; a deleted department leaves its external
 *   entries without one.
 * - schedule: one person's items; `all_day` 1 spans whole museum days.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('address_book')
    .addColumn('id', 'integer', id(db))
    .addColumn('user_id', 'integer', (c) => c.unique().references('user.id').onDelete('cascade'))
    .addColumn('name', 'varchar(30)', (c) => c.notNull().defaultTo(''))
    .addColumn('dept_id', 'integer', (c) => c.references('department.id').onDelete('set null'))
    .addColumn('mobile', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .addColumn('position', 'varchar(30)', (c) => c.notNull().defaultTo(''))
    .addColumn('office_phone', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'varchar(60)', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('schedule')
    .addColumn('id', 'integer', id(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('title', 'varchar(50)', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('all_day', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('location', 'varchar(50)', (c) => c.notNull().defaultTo(''))
    .addColumn('remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('schedule_user_start_idx')
    .on('schedule')
    .columns(['user_id', 'start_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('schedule').execute();
  await db.schema.dropTable('address_book').execute();
}
