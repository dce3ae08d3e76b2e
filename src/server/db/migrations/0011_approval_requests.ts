import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. Approval requests (issue 8). Portable across SQLite and PostgreSQL. Times are epoch ms.
 *
 * - approval_request: one started request; `id` is the spec's actvityId. It pins the template
 *   `version` it started on (workflow_version), so a later publish never changes it. `form` is the
 *   validated form values (JSON, by field id); `state` is the engine's RunState (JSON of
 *   shared/workflow/run.ts: the planned steps and every decision), re-read and replaced inside
 *   the transaction of each action. `status` mirrors state.status for the lists (1 in progress,
 *   3 refused, 4 cancelled, 6 passed); `priority` 1 normal, 2 urgent, 3 very urgent;
 *   `finished_at` is set when the request ends.
 * - approval_comment: comments on a request; a deleted comment keeps its row (`deleted` 1) so
 *   the timeline's history stays explainable, and is no longer shown.
 * - approval_read: who of the copy-to recipients has opened the request (the detail's
 *   readList and unreadList); one row per person.
 *
 * Who awaits or awaited a decision, and who was copied, is in approval_message (migration 0007):
 * the lists and the read rights use it, so it is not repeated here.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('approval_request')
    .addColumn('id', 'integer', id(db))
    .addColumn('template_id', 'integer', (c) => c.notNull().references('approval_template.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('starter_id', 'integer', (c) => c.notNull().references('user.id'))
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('approval_request_starter_idx')
    .on('approval_request')
    .columns(['starter_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('approval_request_status_idx')
    .on('approval_request')
    .columns(['status', 'created_at'])
    .execute();
  // The lists join approval_message by request; its unique key starts with user_id.
  await db.schema
    .createIndex('approval_message_request_idx')
    .on('approval_message')
    .columns(['actvity_id', 'status'])
    .execute();

  await db.schema
    .createTable('approval_comment')
    .addColumn('id', 'integer', id(db))
    .addColumn('request_id', 'integer', (c) =>
      c.notNull().references('approval_request.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id'))
    .addColumn('content', 'varchar(200)', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('approval_comment_request_idx')
    .on('approval_comment')
    .columns(['request_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('approval_read')
    .addColumn('request_id', 'integer', (c) =>
      c.notNull().references('approval_request.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id'))
    .addColumn('read_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('approval_read_pk', ['request_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('approval_read').execute();
  await db.schema.dropTable('approval_comment').execute();
  await db.schema.dropIndex('approval_message_request_idx').execute();
  await db.schema.dropTable('approval_request').execute();
}
