import { PostgresAdapter, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. Website and mini-program content (issue 23; research/records-design.md §5): the tables
 * of src/shared/records/content/*.ts, each with the engine's base columns. Every content table
 * has the common columns (title, cover, summary, content, sort, status, publish_time,
 * view_count) and its own.
 *
 * Lists of uploads and of rows are ',3,5,' text; times epoch ms (bigint); days 'yyyy-MM-dd';
 * money in fen. `sort` 9999 when left empty (new rows last). Readers list by status and sort,
 * a carousel by position: indexes on those.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

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

/** title, cover, summary, content, sort (+ publish columns at the end). */
const common = (titleMax: number, summaryMax: number): Column[] => [
  ['title', `varchar(${titleMax})`, (c) => c.notNull()],
  ['cover', 'varchar(500)', text],
  ['summary', `varchar(${summaryMax})`, text],
  ['content', 'text', text],
  ['sort', 'integer', (c) => c.notNull().defaultTo(9999)],
];
const publish: Column[] = [
  ['status', 'integer', zero],
  ['publish_time', 'bigint'],
  ['view_count', 'integer', zero],
];
const zh = common(100, 200);
const en = common(200, 500);

const TABLES: Record<string, Column[]> = {
  bs_audio_video: [
    ['media_type', 'integer', zero],
    ['video_type_id', 'varchar(50)', text],
    ...zh,
    ['media_file', 'varchar(200)', text],
    ['url', 'varchar(500)', text],
    ['duration_seconds', 'integer'],
    ['speaker', 'varchar(50)', text],
    ['play_count', 'integer', zero],
    ...publish,
  ],
  bs_carousel: [
    ['position', 'integer', zero],
    ['title', 'varchar(100)', text],
    ['images', 'varchar(500)', text],
    ['link_type', 'integer', zero],
    ['link_value', 'varchar(500)', text],
    ['start_time', 'bigint'],
    ['end_time', 'bigint'],
    ['sort', 'integer', (c) => c.notNull().defaultTo(9999)],
    ...publish,
  ],
  bs_guide_showroom: [
    ['hall_id', 'integer', (c) => c.references('museum_hall.id')],
    ...zh,
    ['audio_id', 'varchar(200)', text],
    ['audio_seconds', 'integer'],
    ['video_id', 'integer'],
    ...publish,
  ],
  bs_guide_chapter: [
    ['showroom_id', 'integer', (c) => c.references('bs_guide_showroom.id')],
    ['chapter_no', 'varchar(20)', text],
    ...zh,
    ['audio_id', 'varchar(200)', text],
    ['audio_seconds', 'integer'],
    ...publish,
  ],
  bs_guide_unit: [
    ['chapter_id', 'integer', (c) => c.references('bs_guide_chapter.id')],
    ...zh,
    ['images', 'varchar(500)', text],
    ['audio_id', 'varchar(200)', text],
    ['audio_seconds', 'integer'],
    ['video_id', 'integer'],
    ['label_code', 'varchar(20)', text],
    ...publish,
  ],
  bs_exhibition: exhibition(zh, 100),
  en_exhibition: [['zh_id', 'integer'], ...exhibition(en, 200)],
  bs_digital_exhibition: [...digital(zh), ['exhibition_id', 'integer'], ...publish],
  en_digital_exhibition: [['zh_id', 'integer'], ...digital(en), ...publish],
  bs_science: [
    ['category', 'integer', zero],
    ...zh,
    ['authors', 'varchar(200)', text],
    ['source_name', 'varchar(200)', text],
    ['publish_date', 'varchar(10)', text],
    ['paper_file', 'varchar(200)', text],
    ['keywords', 'varchar(200)', text],
    ...publish,
  ],
  bs_classroom: [
    ['course_type', 'varchar(50)', text],
    ...zh,
    ['age_group', 'varchar(50)', text],
    ['lecturer', 'varchar(50)', text],
    ['media_id', 'integer'],
    ['duration_minutes', 'integer'],
    ...publish,
  ],
  bs_electic_wave: [
    ['column', 'varchar(50)', (c) => c.notNull()],
    ['episode_no', 'integer'],
    ...zh,
    ['audio_id', 'varchar(200)', text],
    ['duration_seconds', 'integer'],
    ['anchor', 'varchar(50)', text],
    ['transcript', 'text', text],
    ...publish,
  ],
  bs_culturalcreative: [
    ['category', 'varchar(50)', text],
    ...zh,
    ['images', 'varchar(500)', text],
    ['price', 'bigint'],
    ['designer', 'varchar(50)', text],
    ['spec', 'varchar(200)', text],
    ['buy_type', 'integer', zero],
    ['buy_link', 'varchar(500)', text],
    ['is_recommend', 'integer', zero],
    ...publish,
  ],
  en_culturalcreative: [
    ['zh_id', 'integer'],
    ...en,
    ['images', 'varchar(500)', text],
    ['price', 'bigint'],
    ['buy_link', 'varchar(500)', text],
    ...publish,
  ],
  bs_relation: [
    ['main_table', 'varchar(50)', (c) => c.notNull()],
    ['main_id', 'integer', (c) => c.notNull()],
    ['sub_table', 'varchar(50)', (c) => c.notNull()],
    ['sub_id', 'integer', (c) => c.notNull()],
    ['note', 'varchar(200)', text],
    ['sort', 'integer', (c) => c.notNull().defaultTo(9999)],
  ],
  en_news: [['category', 'integer', zero], ...en, ['source', 'varchar(100)', text], ...publish],
  en_showroom: [['zh_id', 'integer'], ...en, ...publish],
};

function exhibition(base: Column[], textMax: number): Column[] {
  return [
    ['exh_type', 'integer', zero],
    ...base,
    ['showroom_ids', 'text', text],
    ['start_date', 'varchar(10)', text],
    ['end_date', 'varchar(10)', text],
    ['organizer', `varchar(${textMax})`, text],
    ['co_organizer', `varchar(${textMax})`, text],
    ['curator', `varchar(${textMax})`, text],
    ['banner', 'varchar(200)', text],
    ['ticket_info', 'varchar(200)', text],
    ...publish,
  ];
}

function digital(base: Column[]): Column[] {
  return [
    ['digital_type', 'integer', zero],
    ...base,
    ['url', 'varchar(500)', text],
    ['online_date', 'varchar(10)', text],
  ];
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of Object.entries(TABLES)) {
    await table(db, name, columns).execute();
    const has = (c: string) => columns.some(([n]) => n === c);
    const scope = ['position', 'showroom_id', 'chapter_id', 'category'].find(has);
    if (has('status'))
      await db.schema
        .createIndex(`${name}_status_idx`)
        .on(name)
        .columns([...(scope ? [scope] : []), 'status', 'sort'])
        .execute();
  }
  await db.schema
    .createIndex('bs_relation_main_idx')
    .on('bs_relation')
    .columns(['main_table', 'main_id', 'sort'])
    .execute();
  // The definitions' unique keys, backed here (two saves racing cannot both add the same row).
  await db.schema
    .createIndex('bs_relation_uq')
    .on('bs_relation')
    .columns(['main_table', 'main_id', 'sub_table', 'sub_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('bs_guide_unit_label_uq')
    .on('bs_guide_unit')
    .column('label_code')
    .unique()
    .where('label_code', '<>', '')
    .execute();
  await db.schema
    .createIndex('bs_relation_sub_idx')
    .on('bs_relation')
    .columns(['sub_table', 'sub_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of Object.keys(TABLES).reverse()) await db.schema.dropTable(name).execute();
}
