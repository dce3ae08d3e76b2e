import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

/*
 * FROZEN. Never edit a migration that has shipped; add a new file instead.
 * Uses only portable types so it runs on SQLite and PostgreSQL alike.
 */
/** An auto-numbered primary key in each dialect's own words. */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user')
    .addColumn('id', 'integer', id(db))
    .addColumn('account', 'varchar(30)', (c) => c.notNull().unique())
    .addColumn('user_name', 'varchar(30)', (c) => c.notNull())
    .addColumn('phone', 'varchar(20)', (c) => c.unique())
    .addColumn('avatar', 'varchar(80)')
    .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('superior_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('department')
    .addColumn('id', 'integer', id(db))
    .addColumn('name', 'varchar(30)', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.references('department.id').onDelete('cascade'))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('user_department')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('dept_id', 'integer', (c) => c.notNull().references('department.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_department_pk', ['user_id', 'dept_id'])
    .execute();

  await db.schema
    .createTable('role')
    .addColumn('id', 'integer', id(db))
    .addColumn('code', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(30)', (c) => c.notNull())
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('user_role')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('role.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_role_pk', ['user_id', 'role_id'])
    .execute();

  await db.schema
    .createTable('role_menu')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('role.id').onDelete('cascade'))
    .addColumn('menu_key', 'varchar(80)', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_menu_pk', ['role_id', 'menu_key'])
    .execute();

  await db.schema
    .createTable('session')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('session_user_idx').on('session').column('user_id').execute();

  await db.schema
    .createTable('login_attempt')
    .addColumn('key', 'varchar(120)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('idempotency')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'varchar(100)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(300)', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_pk', ['user_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_created_idx').on('idempotency').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'idempotency',
    'login_attempt',
    'session',
    'role_menu',
    'user_role',
    'role',
    'user_department',
    'department',
    'user',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
