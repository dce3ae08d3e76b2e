import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN once shipped. Project tasks (issue 9). Portable across SQLite and PostgreSQL. Times
 * are epoch ms; dates the museum enters (project dates, deadlines) are 'yyyy-MM-dd' text.
 *
 * - project: `type` exhibition | conservation | event | other; `archived` 1 hides it from the
 *   working lists (it stays readable).
 * - project_user: the collaborators, one row per person; the owner has a row too.
 * - project_block: the boards (columns) of a project; `sort` dense 0..n-1.
 * - project_task: tasks and subtasks in one table. A task has `block_id` and no
 *   `parent_task_id`; a subtask has `parent_task_id` and no `block_id`. `sort` is dense 0..n-1
 *   within a board (tasks) or within a task (subtasks). `collect_status` 1 open, 2 done.
 *   `version` grows on every change of the row: the offline outbox sends the version it saw,
 *   and a stale one is refused instead of silently overwriting.
 * - project_history: what happened to a task, in Chinese (`task_id` is not a foreign key, so a
 *   deleted task's history stays explainable; board changes have no task).
 * - project_comment: sanitized HTML comments on a task.
 * - project_task_file: a task's files. The bytes are an attachment (table 'project', record =
 *   the task); this row says where it came from (`source` upload | drive | project) and, for a
 *   drive file, which one (`drive_file_id`, the caller's user_file id at the time).
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('project')
    .addColumn('id', 'integer', id(db))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('type', 'varchar(20)', (c) => c.notNull())
    .addColumn('start_date', 'varchar(10)')
    .addColumn('end_date', 'varchar(10)')
    .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('user.id'))
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('project_type_idx').on('project').columns(['archived', 'type']).execute();

  await db.schema
    .createTable('project_user')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('added_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_user_pk', ['project_id', 'user_id'])
    .execute();
  await db.schema.createIndex('project_user_user_idx').on('project_user').column('user_id').execute();

  await db.schema
    .createTable('project_block')
    .addColumn('id', 'integer', id(db))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('name', 'varchar(30)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('project_block_idx')
    .on('project_block')
    .columns(['project_id', 'sort'])
    .execute();

  await db.schema
    .createTable('project_task')
    .addColumn('id', 'integer', id(db))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('block_id', 'integer', (c) => c.references('project_block.id'))
    .addColumn('parent_task_id', 'integer', (c) => c.references('project_task.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('deadline', 'varchar(10)')
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('assigner', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('collect_status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('updated_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('project_task_block_idx')
    .on('project_task')
    .columns(['block_id', 'sort'])
    .execute();
  await db.schema
    .createIndex('project_task_parent_idx')
    .on('project_task')
    .columns(['parent_task_id', 'sort'])
    .execute();
  await db.schema.createIndex('project_task_project_idx').on('project_task').column('project_id').execute();
  await db.schema.createIndex('project_task_assigner_idx').on('project_task').column('assigner').execute();

  await db.schema
    .createTable('project_history')
    .addColumn('id', 'integer', id(db))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('task_id', 'integer')
    .addColumn('user_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('action', 'varchar(500)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('project_history_task_idx')
    .on('project_history')
    .columns(['task_id', 'id'])
    .execute();

  await db.schema
    .createTable('project_comment')
    .addColumn('id', 'integer', id(db))
    .addColumn('task_id', 'integer', (c) => c.notNull().references('project_task.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('project_comment_task_idx')
    .on('project_comment')
    .columns(['task_id', 'id'])
    .execute();

  await db.schema
    .createTable('project_task_file')
    .addColumn('attachment_id', 'integer', (c) =>
      c.primaryKey().references('attachment.id').onDelete('cascade'),
    )
    .addColumn('task_id', 'integer', (c) => c.notNull().references('project_task.id').onDelete('cascade'))
    .addColumn('source', 'varchar(10)', (c) => c.notNull())
    .addColumn('drive_file_id', 'integer')
    .addColumn('added_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('project_task_file_task_idx')
    .on('project_task_file')
    .column('task_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'project_task_file',
    'project_comment',
    'project_history',
    'project_task',
    'project_block',
    'project_user',
    'project',
  ])
    await db.schema.dropTable(t).execute();
}
