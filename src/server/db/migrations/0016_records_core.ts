import { PostgresAdapter, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. The records engine's own tables (issue 18; ARCHITECTURE.md §9). Portable across
 * SQLite and PostgreSQL: only integer, bigint and varchar/text columns; times are epoch ms.
 *
 * - bs_status_log: every status change of a record (records-design §1 "Status history"): which
 *   table and row, the transition's name, from and to, who, an optional comment, when. Append
 *   only; it is the detail panel's timeline.
 * - dict_type and dict_item: the dictionaries (collectDict). An item belongs to its dictionary
 *   by `dict_key` (a value, not an id: records store the key in their own definitions); its
 *   `value` is unique within the key. `is_system` marks seeded rows (never deleted).
 *
 * Every record table carries the base columns of records-design §1: id, create_time, create_by,
 * update_time, update_by, del_flag (1 for a soft-deleted row).
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
  await db.schema
    .createTable('bs_status_log')
    .addColumn('id', 'integer', id(db))
    .addColumn('table_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'varchar(50)', (c) => c.notNull())
    .addColumn('from_status', 'integer')
    .addColumn('to_status', 'integer', (c) => c.notNull())
    .addColumn('operator_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('comment', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bs_status_log_record_idx')
    .on('bs_status_log')
    .columns(['table_name', 'record_id', 'id'])
    .execute();

  await base(db, db.schema.createTable('dict_type'))
    .addColumn('dict_key', 'varchar(50)', (c) => c.notNull().unique())
    .addColumn('dict_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('is_system', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await base(db, db.schema.createTable('dict_item'))
    .addColumn('dict_key', 'varchar(50)', (c) => c.notNull())
    .addColumn('label', 'varchar(50)', (c) => c.notNull())
    .addColumn('value', 'varchar(50)', (c) => c.notNull())
    .addColumn('parent_value', 'varchar(50)', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('is_system', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('dict_item_key_value_uq')
    .on('dict_item')
    .columns(['dict_key', 'value'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dict_item').execute();
  await db.schema.dropTable('dict_type').execute();
  await db.schema.dropTable('bs_status_log').execute();
}
