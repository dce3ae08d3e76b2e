import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. 值班表, the duty roster (issue 18; src/shared/records/office/duty-roster.ts).
 * `duty_date` is 'yyyy-MM-dd' (sorts as text); `duty_type` and `shift` hold dictionary values
 * (duty_type, duty_shift); `staff_ids` is the list of people as ',3,5,' so "is person 5 on it"
 * is one portable LIKE '%,5,%'. One row per (date, type, shift): a unique index.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('duty_roster')
    .addColumn('id', 'integer', id(db))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('create_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duty_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('duty_type', 'varchar(50)', (c) => c.notNull())
    .addColumn('shift', 'varchar(50)', (c) => c.notNull())
    .addColumn('leader_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('staff_ids', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('duty_phone', 'varchar(30)', (c) => c.notNull().defaultTo(''))
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('duty_roster_slot_uq')
    .on('duty_roster')
    .columns(['duty_date', 'duty_type', 'shift'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('duty_roster').execute();
}
