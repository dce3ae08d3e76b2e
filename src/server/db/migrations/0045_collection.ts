import { PostgresAdapter, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. The collection 藏品资料 and its data approvals (issue 24; README "Collection (issue
 * 24)"; src/shared/records/collection/collection.ts).
 *
 * - bs_digitalassets_info: one row per registered object (总登记号 unique: an index, so two
 *   approvals racing cannot both add the same number). Dictionary values are the census codes
 *   as text; `images` the engine's ',3,5,' list of attachment ids; days 'yyyy-MM-dd'.
 * - bs_digitalassets_apply: a data approval 数据审批: kind 1 新增 / 2 修改 / 3 提取高清图, the
 *   approval request it started (`actvity_id`, unique), what it asks (`payload`, JSON: the whole
 *   form for 新增/修改, the image ids for 提取), its state (1 审批中 2 已通过 3 已拒绝 4 已撤销),
 *   `applied_at` (set once, in the transaction that applies an approved change: never twice)
 *   and, for an extract, `expires_at` (until when the originals may be downloaded).
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

export async function up(db: Kysely<any>): Promise<void> {
  await base(db, db.schema.createTable('bs_digitalassets_info'))
    .addColumn('register_no', 'varchar(50)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('category', 'varchar(50)', text)
    .addColumn('level', 'varchar(50)', text)
    .addColumn('era', 'varchar(50)', text)
    .addColumn('texture', 'varchar(50)', text)
    .addColumn('material', 'varchar(50)', text)
    .addColumn('dimensions', 'varchar(100)', text)
    .addColumn('weight', 'varchar(30)', text)
    .addColumn('quantity', 'integer')
    .addColumn('completeness', 'varchar(50)', text)
    .addColumn('preservation', 'varchar(50)', text)
    .addColumn('source', 'varchar(50)', text)
    .addColumn('in_time_range', 'varchar(50)', text)
    .addColumn('accession_date', 'varchar(10)', text)
    .addColumn('storage_location', 'varchar(100)', text)
    .addColumn('images', 'varchar(1000)', text)
    .addColumn('description', 'varchar(2000)', text)
    .addColumn('remark', 'varchar(500)', text)
    .execute();
  await db.schema
    .createIndex('bs_digitalassets_info_register_no_uq')
    .on('bs_digitalassets_info')
    .column('register_no')
    .unique()
    .execute();
  await db.schema
    .createIndex('bs_digitalassets_info_category_idx')
    .on('bs_digitalassets_info')
    .columns(['category', 'level'])
    .execute();

  await db.schema
    .createTable('bs_digitalassets_apply')
    .addColumn('id', 'integer', id(db))
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.references('bs_digitalassets_info.id').onDelete('set null'))
    .addColumn('register_no', 'varchar(50)', text)
    .addColumn('name', 'varchar(100)', text)
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('reason', 'varchar(500)', text)
    .addColumn('applicant_id', 'integer', (c) => c.notNull().references('user.id'))
    .addColumn('actvity_id', 'integer', (c) => c.references('approval_request.id').onDelete('set null'))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .addColumn('applied_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .addColumn('download_count', 'integer', zero)
    .execute();
  await db.schema
    .createIndex('bs_digitalassets_apply_actvity_uq')
    .on('bs_digitalassets_apply')
    .column('actvity_id')
    .unique()
    .execute();
  await db.schema
    .createIndex('bs_digitalassets_apply_applicant_idx')
    .on('bs_digitalassets_apply')
    .columns(['applicant_id', 'status'])
    .execute();
  await db.schema
    .createIndex('bs_digitalassets_apply_record_idx')
    .on('bs_digitalassets_apply')
    .columns(['record_id', 'status'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bs_digitalassets_apply').execute();
  await db.schema.dropTable('bs_digitalassets_info').execute();
}
