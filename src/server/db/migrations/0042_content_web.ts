import { PostgresAdapter, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. The website's and the English website's own records (issue 23; README "Website and
 * English website pages"; src/shared/records/content/website.ts): 官网文章 (清宫文化, 资讯, 公告,
 * 制度建设 by column), 发展历程, 文物鉴定 requests and records, 英文精品文物, 英文活动. Conventions
 * as 0041_content: lists of uploads ',3,5,' text; times epoch ms; days 'yyyy-MM-dd'; sort 9999
 * when left empty.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
const sort = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(9999);

type Column = [name: string, type: string, build?: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder];

function table(db: Kysely<any>, name: string, columns: readonly Column[]): CreateTableBuilder<any, any> {
  let t = db.schema
    .createTable(name)
    .addColumn('id', 'integer', id(db))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('create_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0));
  for (const [col, type, build] of columns) t = t.addColumn(col, type as 'text', build ?? ((c) => c));
  return t;
}

const common = (titleMax: number, summaryMax: number): Column[] => [
  ['title', `varchar(${titleMax})`, (c) => c.notNull()],
  ['cover', 'varchar(500)', text],
  ['summary', `varchar(${summaryMax})`, text],
  ['content', 'text', text],
  ['sort', 'integer', sort],
];
const publish: Column[] = [
  ['status', 'integer', zero],
  ['publish_time', 'bigint'],
  ['view_count', 'integer', zero],
];

const TABLES: Record<string, Column[]> = {
  bs_article: [
    ['column', 'integer', zero],
    ...common(100, 200),
    ['source', 'varchar(50)', text],
    ['attachments', 'varchar(500)', text],
    ...publish,
  ],
  bs_course: [
    ['year', 'integer', (c) => c.notNull()],
    ['event_date', 'varchar(10)', text],
    ['title', 'varchar(100)', (c) => c.notNull()],
    ['summary', 'varchar(500)', text],
    ['images', 'varchar(500)', text],
    ['sort', 'integer', sort],
    ...publish,
  ],
  bs_identify: [
    ['channel', 'integer', zero],
    ['applicant', 'varchar(50)', (c) => c.notNull()],
    ['phone', 'varchar(20)', text],
    ['email', 'varchar(100)', text],
    ['relic_name', 'varchar(100)', (c) => c.notNull()],
    ['category', 'varchar(50)', text],
    ['description', 'varchar(2000)', text],
    ['photos', 'varchar(500)', text],
    ['expert_id', 'integer', (c) => c.references('user.id')],
    ['reject_reason', 'varchar(200)', text],
    ['accept_time', 'bigint'],
    ['status', 'integer', zero],
  ],
  bs_identify_record: [
    ['request_id', 'integer', (c) => c.references('bs_identify.id')],
    ['relic_name', 'varchar(100)', (c) => c.notNull()],
    ['expert_id', 'integer', (c) => c.references('user.id')],
    ['identify_date', 'varchar(10)', text],
    ['era', 'varchar(50)', text],
    ['material', 'varchar(50)', text],
    ['conclusion', 'integer', zero],
    ['opinion', 'varchar(2000)', text],
    ['record_photos', 'varchar(500)', text],
    ['report', 'varchar(200)', text],
  ],
  en_relic: [
    ...common(200, 500),
    ['era', 'varchar(100)', text],
    ['material', 'varchar(100)', text],
    ['dimensions', 'varchar(100)', text],
    ['gallery', 'varchar(500)', text],
    // The collection's relic (issue 24) once it lands: no reference yet.
    ['relic_id', 'integer'],
    ...publish,
  ],
  en_activity: [
    ...common(200, 500),
    ['start_date', 'varchar(10)', text],
    ['end_date', 'varchar(10)', text],
    ['time_text', 'varchar(100)', text],
    ['place', 'varchar(200)', text],
    ['audience', 'varchar(100)', text],
    ['booking', 'varchar(200)', text],
    ...publish,
  ],
};

/** The index each list reads by: its scope, then status and sort (requests by status, newest). */
const INDEXES: Record<string, string[]> = {
  bs_article: ['column', 'status', 'sort'],
  bs_course: ['year', 'sort'],
  bs_identify: ['status', 'id'],
  bs_identify_record: ['request_id'],
  en_relic: ['status', 'sort'],
  en_activity: ['status', 'start_date'],
};

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of Object.entries(TABLES)) {
    await table(db, name, columns).execute();
    await db.schema.createIndex(`${name}_list_idx`).on(name).columns(INDEXES[name]!).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of Object.keys(TABLES).reverse()) await db.schema.dropTable(name).execute();
}
