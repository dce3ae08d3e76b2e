import { PostgresAdapter, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. Conservation and repair (issue 24; research/records-design.md §6): 修复项目, the
 * per-object 修复档案 and the 标准规范 library. Definitions in src/shared/records/repair/repair.ts.
 *
 * Lists (病害, 检测分析, 修复过程) are JSON text; photos, files and people are ',3,5,' text like
 * every record's. Days are 'yyyy-MM-dd' text, so the report deadline (报备期限, derived on every
 * write) compares with today's as text for 报备临期.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

function base(db: Kysely<any>, t: CreateTableBuilder<any, any>) {
  return t
    .addColumn('id', 'integer', id(db))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('create_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0));
}

const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
const one = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(1);
const person = (c: ColumnDefinitionBuilder) => c.references('user.id').onDelete('set null');

export async function up(db: Kysely<any>): Promise<void> {
  await base(db, db.schema.createTable('bs_repair_project'))
    .addColumn('project_no', 'varchar(30)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('project_type', 'integer', one)
    .addColumn('has_grade1', 'integer', zero)
    .addColumn('approval_doc_no', 'varchar(50)', text)
    .addColumn('approval_date', 'varchar(10)', text)
    .addColumn('plan_name', 'varchar(100)', text)
    .addColumn('plan_org', 'varchar(100)', text)
    .addColumn('plan_file_id', 'varchar(200)', text)
    .addColumn('undertaker', 'varchar(100)', (c) => c.notNull())
    .addColumn('licence_no', 'varchar(50)', (c) => c.notNull())
    .addColumn('principal_id', 'integer', person)
    .addColumn('budget', 'bigint')
    .addColumn('fund_source', 'integer', zero)
    .addColumn('start_date', 'varchar(10)', text)
    .addColumn('planned_end_date', 'varchar(10)', text)
    .addColumn('actual_end_date', 'varchar(10)', text)
    .addColumn('acceptance_date', 'varchar(10)', text)
    .addColumn('acceptance_result', 'integer', zero)
    .addColumn('report_file_id', 'varchar(200)', text)
    .addColumn('filed_date', 'varchar(10)', text)
    .addColumn('late_reason', 'varchar(500)', text)
    .addColumn('report_deadline', 'varchar(10)', text)
    .addColumn('terminate_reason', 'varchar(500)', text)
    .addColumn('status', 'integer', zero)
    .execute();
  await db.schema
    .createIndex('bs_repair_project_no_uq')
    .on('bs_repair_project')
    .column('project_no')
    .unique()
    .execute();
  await db.schema
    .createIndex('bs_repair_project_status_idx')
    .on('bs_repair_project')
    .columns(['status', 'report_deadline'])
    .execute();

  await base(db, db.schema.createTable('bs_repair_management'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('bs_repair_project.id'))
    .addColumn('archive_no', 'varchar(30)', (c) => c.notNull())
    .addColumn('relic_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('register_no', 'varchar(50)', (c) => c.notNull())
    .addColumn('category', 'varchar(50)', text)
    .addColumn('level', 'varchar(50)', text)
    .addColumn('era', 'varchar(50)', text)
    .addColumn('material', 'varchar(50)', text)
    .addColumn('dimensions', 'varchar(100)', text)
    .addColumn('weight', 'varchar(30)', text)
    .addColumn('completeness', 'varchar(50)', text)
    .addColumn('preservation', 'varchar(50)', text)
    .addColumn('diseases', 'text')
    .addColumn('analyses', 'text')
    .addColumn('before_photo_ids', 'varchar(500)', text)
    .addColumn('steps', 'text')
    .addColumn('after_photo_ids', 'varchar(500)', text)
    .addColumn('restorer_ids', 'varchar(500)', text)
    .addColumn('take_out_date', 'varchar(10)', text)
    .addColumn('keeper_id', 'integer', person)
    .addColumn('return_date', 'varchar(10)', text)
    .addColumn('evaluation', 'varchar(2000)', text)
    .addColumn('care_advice', 'varchar(500)', text)
    .addColumn('rework_reason', 'varchar(200)', text)
    .addColumn('status', 'integer', zero)
    .execute();
  await db.schema
    .createIndex('bs_repair_management_no_uq')
    .on('bs_repair_management')
    .column('archive_no')
    .unique()
    .execute();
  await db.schema
    .createIndex('bs_repair_management_project_idx')
    .on('bs_repair_management')
    .columns(['project_id', 'status'])
    .execute();

  await base(db, db.schema.createTable('bs_repair_standard'))
    .addColumn('code', 'varchar(50)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('level', 'integer', one)
    .addColumn('material_category', 'varchar(50)', text)
    .addColumn('publish_org', 'varchar(100)', text)
    .addColumn('publish_date', 'varchar(10)', text)
    .addColumn('implement_date', 'varchar(10)', text)
    .addColumn('state', 'integer', one)
    .addColumn('replaced_by', 'varchar(50)', text)
    .addColumn('file_id', 'varchar(200)', text)
    .addColumn('keywords', 'varchar(200)', text)
    .addColumn('summary', 'varchar(2000)', text)
    .execute();
  await db.schema
    .createIndex('bs_repair_standard_code_uq')
    .on('bs_repair_standard')
    .column('code')
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['bs_repair_management', 'bs_repair_project', 'bs_repair_standard'])
    await db.schema.dropTable(t).execute();
}
