import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. Self-registration (issue 18; src/shared/records/system/staff-registration.ts): one row
 * per registration made on the public page /register, with the base columns of every record.
 *
 * `status` 0 待审核, 1 已通过, 2 已拒绝. `password_hash` is the scrypt hash of the password the
 * person chose; it becomes their account's on approval and is no field of the record, so no
 * answer carries it. `user_id` names the account an approval made. At most one registration
 * per phone waits at a time: a partial unique index on (phone) where status = 0, so two
 * registrations sent at once cannot both wait (SQLite and PostgreSQL both have partial indexes).
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('staff_registration')
    .addColumn('id', 'integer', id(db))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('create_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_name', 'varchar(30)', (c) => c.notNull())
    .addColumn('phone', 'varchar(20)', (c) => c.notNull())
    .addColumn('dept_id', 'integer', (c) => c.references('department.id').onDelete('set null'))
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('apply_time', 'bigint', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('apply_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('granted_roles', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('refuse_reason', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('staff_registration_status_time_idx')
    .on('staff_registration')
    .columns(['status', 'apply_time'])
    .execute();
  await db.schema
    .createIndex('staff_registration_phone_idx')
    .on('staff_registration')
    .columns(['phone', 'id'])
    .execute();
  await db.schema
    .createIndex('staff_registration_pending_phone_uq')
    .on('staff_registration')
    .column('phone')
    .unique()
    .where(sql.ref('status'), '=', 0)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('staff_registration').execute();
}
