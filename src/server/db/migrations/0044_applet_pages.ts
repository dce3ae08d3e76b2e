import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. The mini-program's own pages (issue 23; README "Mini-program pages";
 * src/shared/records/content/applet.ts): 数字文物 bs_digital_relic (a relic's public showcase;
 * relic_id links the collection's row later), 志愿者简介 bs_volunteer_intro (one row per museum)
 * and 志愿者风采 bs_volunteer_story. Each with the engine's base columns; lists of uploads are
 * ',3,5,' text, times epoch ms, days 'yyyy-MM-dd', `sort` 9999 when left empty.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
const last = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(9999);

type Column = [name: string, type: string, build?: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder];

const publish: Column[] = [
  ['status', 'integer', zero],
  ['publish_time', 'bigint'],
  ['view_count', 'integer', zero],
];

const TABLES: Record<string, Column[]> = {
  bs_digital_relic: [
    ['title', 'varchar(100)', (c) => c.notNull()],
    ['era', 'varchar(50)', text],
    ['material', 'varchar(50)', text],
    ['dimensions', 'varchar(100)', text],
    ['images', 'varchar(500)', text],
    ['summary', 'varchar(200)', text],
    ['content', 'text', text],
    ['model_url', 'varchar(500)', text],
    ['audio_id', 'varchar(200)', text],
    ['audio_seconds', 'integer'],
    ['relic_id', 'integer'],
    ['sort', 'integer', last],
    ...publish,
  ],
  bs_volunteer_intro: [
    ['title', 'varchar(100)', (c) => c.notNull()],
    ['cover', 'varchar(500)', text],
    ['content', 'text', text],
  ],
  bs_volunteer_story: [
    ['title', 'varchar(100)', (c) => c.notNull()],
    ['photos', 'varchar(500)', text],
    ['story_date', 'varchar(10)', text],
    ['people', 'varchar(100)', text],
    ['summary', 'varchar(200)', text],
    ['content', 'text', text],
    ['sort', 'integer', last],
    ...publish,
  ],
};

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of Object.entries(TABLES)) {
    let t = db.schema
      .createTable(name)
      .addColumn('id', 'integer', id(db))
      .addColumn('create_time', 'bigint', (c) => c.notNull())
      .addColumn('create_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
      .addColumn('update_time', 'bigint', (c) => c.notNull())
      .addColumn('update_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
      .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0));
    for (const [col, type, build] of columns) t = t.addColumn(col, type as 'text', build ?? ((c) => c));
    await t.execute();
    if (columns.some(([n]) => n === 'status'))
      await db.schema.createIndex(`${name}_status_idx`).on(name).columns(['status', 'sort']).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of Object.keys(TABLES).reverse()) await db.schema.dropTable(name).execute();
}
