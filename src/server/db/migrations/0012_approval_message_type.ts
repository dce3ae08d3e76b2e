import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * FROZEN. An approval message is one per (person, type, request, status) (issue 8). Migration
 * 0007 keyed it without `type`, so a request of another module (a resource review) with the
 * same id as an approval request would overwrite or close the other's message. PostgreSQL
 * swaps the constraint in place; SQLite cannot drop a table constraint, so the table is rebuilt
 * with its rows, ids and indexes (nothing references it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.schema.alterTable('approval_message').dropConstraint('approval_message_once').execute();
    await db.schema
      .alterTable('approval_message')
      .addUniqueConstraint('approval_message_once', ['user_id', 'type', 'actvity_id', 'status'])
      .execute();
    return;
  }
  await db.schema
    .createTable('approval_message_next')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('actvity_id', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(300)', (c) => c.notNull())
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('open', 'integer', (c) => c.notNull())
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('approval_message_once', ['user_id', 'type', 'actvity_id', 'status'])
    .execute();
  await sql`insert into approval_message_next
    (id, user_id, actvity_id, title, type, status, open, start_time, created_by, created_at)
    select id, user_id, actvity_id, title, type, status, open, start_time, created_by, created_at
    from approval_message`.execute(db);
  await db.schema.dropTable('approval_message').execute();
  await db.schema.alterTable('approval_message_next').renameTo('approval_message').execute();
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
  await db.schema
    .createIndex('approval_message_request_idx')
    .on('approval_message')
    .columns(['actvity_id', 'status'])
    .execute();
}

export async function down(): Promise<void> {
  // Going back would need the old, wrong key; nothing to undo safely.
}
