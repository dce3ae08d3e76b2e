import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. The notice centre (issue 7): what the three tabs of the popup list, per person.
 * Portable across SQLite and PostgreSQL. Times are epoch ms.
 *
 * - notice.link: where opening the notice goes in the app (an in-app path such as
 *   `/approve/notice-detail?id=3`), or null for a plain notice.
 * - cooperation: a collaboration item for one person (spec office.md §3). `type` 1 text,
 *   2 task checklist; `status` 1 unread, 2 read (read items leave the list); `task_deleted` is
 *   set by the task module when the item's task goes, so opening it can warn 此任务已被删除.
 * - approval_message: an approval that needs this person. `status` 1 awaiting my decision,
 *   10 copied to me. `open` 1 while it belongs in the list: a decision (status 1) or reading it
 *   (status 10) sets it to 0. One row per (person, request, status).
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notice').addColumn('link', 'varchar(300)').execute();
  await db.schema.createIndex('notice_unread_idx').on('notice').columns(['user_id', 'status']).execute();

  await db.schema
    .createTable('cooperation')
    .addColumn('id', 'integer', id(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('title', 'varchar(300)', (c) => c.notNull())
    .addColumn('content', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('project_id', 'integer')
    .addColumn('task_id', 'integer')
    .addColumn('task_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('cooperation_user_idx')
    .on('cooperation')
    .columns(['user_id', 'status', 'created_at'])
    .execute();
  await db.schema.createIndex('cooperation_task_idx').on('cooperation').column('task_id').execute();

  await db.schema
    .createTable('approval_message')
    .addColumn('id', 'integer', id(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('actvity_id', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(300)', (c) => c.notNull())
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('open', 'integer', (c) => c.notNull())
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('approval_message_once', ['user_id', 'actvity_id', 'status'])
    .execute();
  await db.schema
    .createIndex('approval_message_user_idx')
    .on('approval_message')
    .columns(['user_id', 'open', 'status'])
    .execute();
  await db.schema
    .createIndex('approval_message_actvity_idx')
    .on('approval_message')
    .column('actvity_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('approval_message').execute();
  await db.schema.dropTable('cooperation').execute();
  await db.schema.dropIndex('notice_unread_idx').execute();
  await db.schema.alterTable('notice').dropColumn('link').execute();
}
