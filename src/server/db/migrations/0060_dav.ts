import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

/*
 * FROZEN once shipped. WebDAV (issue 26; README "Mount the drive (WebDAV)"). Portable across
 * SQLite and PostgreSQL (schema builder only; the one type that differs, bytes, is chosen here).
 *
 * - app_password: the passwords a person makes in 个人中心 for WebDAV clients, never the sign-in
 *   password. `hash` is the project's scrypt hash; `lookup` is the first 16 hex characters of
 *   the password's SHA-256, which picks the one row to verify (an app password is 120 random
 *   bits, so this says nothing useful about it) instead of running scrypt over every row.
 *   Revoked rows keep `revoked_at`, so a client still using one hears that it was revoked.
 * - dav_property: dead properties PROPPATCH stores, by the drive row they belong to: they follow
 *   the row through renames and moves, sleep with it in the recycle bin and go with it.
 * - dav_lock: WebDAV write locks (RFC 4918 §6–7), by area (`space`) and path (a folder's path
 *   ends in '/'), enforced on every request of any instance. `depth` 0 or -1 (infinity);
 *   `expires_at` epoch ms. Taking one is serialised per area (dialect.ts serializeOn).
 * - dav_scratch: the files macOS Finder writes beside every file (`._name` AppleDouble and
 *   `.DS_Store`), kept out of the drive and hidden from listings, each at most 1 MiB, for a day.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('app_password')
    .addColumn('id', 'integer', id(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('lookup', 'varchar(16)', (c) => c.notNull())
    .addColumn('hash', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('last_used_ip', 'varchar(64)')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('app_password_lookup_idx').on('app_password').column('lookup').execute();
  await db.schema.createIndex('app_password_user_idx').on('app_password').column('user_id').execute();

  await db.schema
    .createTable('dav_property')
    .addColumn('user_file_id', 'integer', (c) => c.notNull().references('user_file.id').onDelete('cascade'))
    .addColumn('ns', 'varchar(500)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dav_property_pk', ['user_file_id', 'ns', 'name'])
    .execute();

  await db.schema
    .createTable('dav_lock')
    .addColumn('token', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('space', 'varchar(40)', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('exclusive', 'integer', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('timeout_s', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dav_lock_space_idx').on('dav_lock').columns(['space', 'expires_at']).execute();
  await db.schema.createIndex('dav_lock_expires_idx').on('dav_lock').column('expires_at').execute();

  await db.schema
    .createTable('dav_scratch')
    .addColumn('id', 'integer', id(db))
    .addColumn('space', 'varchar(40)', (c) => c.notNull())
    .addColumn('file_path', 'varchar(4096)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('content', pg ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dav_scratch_name_idx')
    .on('dav_scratch')
    .columns(['space', 'file_path', 'name'])
    .unique()
    .execute();
  await db.schema.createIndex('dav_scratch_expires_idx').on('dav_scratch').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['dav_scratch', 'dav_lock', 'dav_property', 'app_password']) {
    await db.schema.dropTable(t).execute();
  }
}
