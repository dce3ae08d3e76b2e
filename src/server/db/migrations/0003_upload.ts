import type { Kysely } from 'kysely';

/*
 * Chunked, resumable uploads (issue 4; spec/drive.md §7). One session per person, space,
 * identifier (the client's MD5 claim) and target (filePath, relativePath, filename); its chunks
 * live on disk under DATA_DIR/uploads/<session id>/<chunk number> and each received one is a
 * row of upload_chunk. `done_user_file_id` is set in the same transaction that creates the file,
 * so a repeated last chunk answers "done" instead of creating a second file. `proof_*` hold the
 * instant-upload challenge sent when only another space holds the same content.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('upload_session')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('space', 'varchar(40)', (c) => c.notNull())
    .addColumn('identifier', 'varchar(32)', (c) => c.notNull())
    .addColumn('file_path', 'varchar(4096)', (c) => c.notNull())
    .addColumn('relative_path', 'varchar(4096)', (c) => c.notNull())
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('total_size', 'bigint', (c) => c.notNull())
    .addColumn('total_chunks', 'integer', (c) => c.notNull())
    .addColumn('chunk_size', 'integer', (c) => c.notNull())
    .addColumn('done_user_file_id', 'integer')
    // The open proof-of-possession challenge (upload.service.ts): a nonce and a byte range.
    .addColumn('proof_nonce', 'varchar(32)')
    .addColumn('proof_start', 'bigint')
    .addColumn('proof_end', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('upload_session_key')
    .on('upload_session')
    .columns(['user_id', 'space', 'identifier', 'file_path', 'relative_path', 'filename'])
    .unique()
    .execute();
  await db.schema
    .createIndex('upload_session_updated_idx')
    .on('upload_session')
    .column('updated_at')
    .execute();

  await db.schema
    .createTable('upload_chunk')
    .addColumn('session_id', 'varchar(36)', (c) =>
      c.notNull().references('upload_session.id').onDelete('cascade'),
    )
    .addColumn('chunk_number', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_chunk_pk', ['session_id', 'chunk_number'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['upload_chunk', 'upload_session']) await db.schema.dropTable(t).execute();
}
