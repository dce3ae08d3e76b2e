import { PostgresAdapter, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. Book lending (issue 22; research/records-design.md §4): 借阅规则 (one settings row),
 * 书刊 (books, periodicals one row per issue, the museum's publications) and 借阅/领用申请.
 * Definitions in src/shared/records/book/books.ts.
 *
 * A catalogue row's stock is `total_count` (the holding, typed) and two counters moved only by
 * single UPDATEs (src/server/modules/book/book.repo.ts): `reserved_count` (approved, not yet
 * picked up) and `lent_count` (on loan). Approving reserves with `… WHERE total_count -
 * reserved_count - lent_count >= n`, so the last copy is never given twice. Days 'yyyy-MM-dd'
 * sort as text (the overdue filter compares `due_date` with today's).
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

export async function up(db: Kysely<any>): Promise<void> {
  await base(db, db.schema.createTable('bs_book_rule'))
    .addColumn('max_active', 'integer')
    .addColumn('max_borrow_days', 'integer')
    .addColumn('max_defers', 'integer')
    .addColumn('max_defer_days', 'integer')
    .addColumn('pickup_days', 'integer')
    .addColumn('max_receive', 'integer')
    .execute();

  await base(db, db.schema.createTable('bs_book_info'))
    .addColumn('type', 'integer', one)
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('subtitle', 'varchar(200)', text)
    .addColumn('author', 'varchar(200)', text)
    .addColumn('publisher', 'varchar(100)', text)
    .addColumn('publish_date', 'varchar(7)', text)
    .addColumn('isbn', 'varchar(17)', text)
    .addColumn('issn', 'varchar(9)', text)
    .addColumn('cn', 'varchar(20)', text)
    .addColumn('frequency', 'integer', (c) => c.notNull().defaultTo(4))
    .addColumn('year', 'integer')
    .addColumn('volume', 'integer')
    .addColumn('issue', 'varchar(10)', text)
    .addColumn('clc_no', 'varchar(30)', text)
    .addColumn('call_no', 'varchar(30)', text)
    .addColumn('edition', 'varchar(20)', text)
    .addColumn('pages', 'integer')
    .addColumn('binding', 'integer', one)
    .addColumn('price', 'bigint')
    .addColumn('summary', 'varchar(2000)', text)
    .addColumn('keywords', 'varchar(200)', text)
    .addColumn('cover', 'varchar(200)', text)
    .addColumn('ebook_file_id', 'varchar(200)', text)
    .addColumn('location', 'varchar(100)', (c) => c.notNull())
    .addColumn('total_count', 'integer', zero)
    .addColumn('reserved_count', 'integer', zero)
    .addColumn('lent_count', 'integer', zero)
    .addColumn('lend_mode', 'integer', one)
    .addColumn('source', 'integer', one)
    .addColumn('entry_date', 'varchar(10)', text)
    .addColumn('status', 'integer', one)
    .execute();
  await db.schema
    .createIndex('bs_book_info_type_idx')
    .on('bs_book_info')
    .columns(['type', 'status'])
    .execute();
  await db.schema.createIndex('bs_book_info_isbn_idx').on('bs_book_info').column('isbn').execute();

  await base(db, db.schema.createTable('bs_book_approval'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('bs_book_info.id'))
    .addColumn('apply_type', 'integer', one)
    .addColumn('applicant_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('dept_id', 'integer')
    .addColumn('quantity', 'integer', one)
    .addColumn('borrow_days', 'integer')
    .addColumn('reason', 'varchar(200)', text)
    .addColumn('status', 'integer', one)
    .addColumn('approver_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('approve_time', 'bigint')
    .addColumn('approve_comment', 'varchar(200)', text)
    .addColumn('pickup_deadline', 'varchar(10)', text)
    .addColumn('receive_time', 'bigint')
    .addColumn('due_date', 'varchar(10)', text)
    .addColumn('deferred_days', 'integer')
    .addColumn('defer_reason', 'varchar(200)', text)
    .addColumn('defer_count', 'integer', zero)
    .addColumn('return_time', 'bigint')
    .addColumn('return_condition', 'integer', zero)
    .addColumn('return_remark', 'varchar(200)', text)
    .execute();
  await db.schema
    .createIndex('bs_book_approval_applicant_idx')
    .on('bs_book_approval')
    .columns(['applicant_id', 'status'])
    .execute();
  await db.schema
    .createIndex('bs_book_approval_book_idx')
    .on('bs_book_approval')
    .columns(['book_id', 'status'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['bs_book_approval', 'bs_book_info', 'bs_book_rule'])
    await db.schema.dropTable(t).execute();
}
