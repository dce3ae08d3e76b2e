import { PostgresAdapter, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. 业务数据, business data (issue 18; src/shared/records/office/business-data.ts).
 *
 * - business_month: the office's month closing, one row per (year, month); `status` 0 填报中,
 *   1 已关账 (each change is in bs_status_log).
 * - business_data_personal: one person's month, one row per (user_id, year, month); `items` the
 *   indicator rows as JSON text ([{indicator, value, unit}]).
 * - business_data_dept: one department's month, one row per (dept_id, year, month);
 *   `indicators` JSON text ([{indicator, value}]).
 * - business_data_plan: a department's plan for a year, quarter or month; `items` JSON text
 *   ([{content, ownerId, deadline, progress, state}]); `status` 0 草稿, 1 已提交, 2 已确认.
 *
 * Every table has the records' base columns (0016). Unique indexes back the one-row-per-period
 * rules; an index on (dept_id, year) finds a department's plans for its monthly summary.
 *
 * Every member of staff reports their own month, so the built-in 普通员工 role (myselfRole) of an
 * existing museum is granted `oa.dataManagement` (业务数据, type=1) here, as a new one is seeded.
 * The key is written out, never imported.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

function base<T extends string>(db: Kysely<any>, t: CreateTableBuilder<T, never>) {
  return t
    .addColumn('id', 'integer', id(db))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('create_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0));
}

export async function up(db: Kysely<any>): Promise<void> {
  await base(db, db.schema.createTable('business_month'))
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('month', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('business_month_uq')
    .on('business_month')
    .columns(['year', 'month'])
    .unique()
    .execute();

  await base(db, db.schema.createTable('business_data_personal'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('month', 'integer', (c) => c.notNull())
    .addColumn('items', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('work_summary', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
    .addColumn('next_plan', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('business_data_personal_uq')
    .on('business_data_personal')
    .columns(['user_id', 'year', 'month'])
    .unique()
    .execute();
  await db.schema
    .createIndex('business_data_personal_month_idx')
    .on('business_data_personal')
    .columns(['year', 'month'])
    .execute();

  await base(db, db.schema.createTable('business_data_dept'))
    .addColumn('dept_id', 'integer', (c) => c.notNull().references('department.id').onDelete('cascade'))
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('month', 'integer', (c) => c.notNull())
    .addColumn('indicators', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('summary', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('business_data_dept_uq')
    .on('business_data_dept')
    .columns(['dept_id', 'year', 'month'])
    .unique()
    .execute();

  await base(db, db.schema.createTable('business_data_plan'))
    .addColumn('dept_id', 'integer', (c) => c.notNull().references('department.id').onDelete('cascade'))
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('period', 'integer', (c) => c.notNull())
    .addColumn('period_no', 'integer')
    .addColumn('items', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('business_data_plan_dept_idx')
    .on('business_data_plan')
    .columns(['dept_id', 'year'])
    .execute();

  const staff = await db.selectFrom('role').select('id').where('code', '=', 'myselfRole').executeTakeFirst();
  const held = staff
    ? await db
        .selectFrom('role_menu')
        .select('role_id')
        .where('role_id', '=', staff.id)
        .where('menu_key', '=', 'oa.dataManagement')
        .executeTakeFirst()
    : undefined;
  if (staff && !held)
    await db.insertInto('role_menu').values({ role_id: staff.id, menu_key: 'oa.dataManagement' }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['business_data_plan', 'business_data_dept', 'business_data_personal', 'business_month'])
    await db.schema.dropTable(t).execute();
}
