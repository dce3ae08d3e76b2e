import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN once shipped. The system log 系统日志 (issue 18; records-design §8). Portable across
 * SQLite and PostgreSQL (schema builder only). Append only: the server inserts rows in batches
 * and deletes only rows older than LOG_RETENTION_DAYS (the daily prune); no call edits or
 * deletes one (README "System log").
 *
 * - time: epoch ms the request arrived; duration_ms: until its answer was sent.
 * - user_id: no foreign key on purpose, so an entry outlives anything done to the account;
 *   user_name is the name at the time (for a failed sign-in, the account typed). Null user_id:
 *   nobody signed in.
 * - ip: the client's address (behind a listed proxy, the one it forwarded for).
 * - module, action: Chinese words (审批, 删除 …) the filters match exactly.
 * - target_table, target_id: what was acted on, where the call names it (ids joined by ',').
 * - params: JSON text of the request's parameters, secrets redacted, at most 8,000 characters.
 * - result: 1 成功, 0 失败; error_message: the refusal's words when it failed.
 *
 * Indexes serve the list's filters, each with time for the newest-first order and the range.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('system_log')
    .addColumn('id', 'integer', id(db))
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('user_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('module', 'varchar(30)', (c) => c.notNull())
    .addColumn('action', 'varchar(20)', (c) => c.notNull())
    .addColumn('target_table', 'varchar(50)')
    .addColumn('target_id', 'varchar(200)')
    .addColumn('method', 'varchar(10)', (c) => c.notNull())
    .addColumn('path', 'varchar(300)', (c) => c.notNull())
    .addColumn('params', 'text')
    .addColumn('result', 'integer', (c) => c.notNull())
    .addColumn('error_message', 'varchar(500)')
    .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('system_log_time_idx').on('system_log').column('time').execute();
  for (const col of ['user_id', 'module', 'action', 'ip', 'result']) {
    await db.schema.createIndex(`system_log_${col}_idx`).on('system_log').columns([col, 'time']).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('system_log').execute();
}
