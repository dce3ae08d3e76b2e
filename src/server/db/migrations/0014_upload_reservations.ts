import type { Kysely } from 'kysely';

/*
 * FROZEN. Unfinished uploads hold room (issue 16 §1). `upload_session.reserved_bytes` is the
 * room a drive upload holds from its first chunk until it completes, is cancelled or swept:
 * its declared size, counted against the person's quota (personal drive) or against the
 * per-person budget of unfinished bytes (libraries and project documents). `attach_upload` is
 * one unfinished attachment chunk upload (attach/chunk) and the size it declared, counted
 * against the person's attachment budget with their unbound attachments; its bytes stay
 * files under DATA_DIR/attach-chunks.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('upload_session')
    .addColumn('reserved_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('upload_session_user_idx')
    .on('upload_session')
    .columns(['user_id', 'done_user_file_id'])
    .execute();
  await db.schema
    .createTable('attach_upload')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('upload_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('total_size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('attach_upload_pk', ['user_id', 'upload_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attach_upload').execute();
  await db.schema.dropIndex('upload_session_user_idx').execute();
  await db.schema.alterTable('upload_session').dropColumn('reserved_bytes').execute();
}
