import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. 馆区地图 (issue 18; src/shared/records/site/museum-map.ts): the museum's floors (and
 * its site), each with a plan (rich text whose first image is the drawing), and its halls, each
 * a point on its floor's plan. Base columns of every record.
 *
 * - museum_floor: `code` the floor's short name (1F, B1, SITE), unique, fixed once halls use it;
 *   `sort` ascending.
 * - museum_hall: `floor` holds its floor's code (a value, as a dictionary item names its
 *   dictionary); `map_x`, `map_y` 0–100 (% of the plan's width and height from its top left),
 *   both or neither; `open_state` 1 开放, 2 闭展, 3 布展中.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('museum_floor')
    .addColumn('id', 'integer', id(db))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('create_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'varchar(20)', (c) => c.notNull())
    .addColumn('code', 'varchar(10)', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer')
    .execute();
  await db.schema.createIndex('museum_floor_code_uq').on('museum_floor').column('code').unique().execute();
  await db.schema.createIndex('museum_floor_name_uq').on('museum_floor').column('name').unique().execute();

  await db.schema
    .createTable('museum_hall')
    .addColumn('id', 'integer', id(db))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('create_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'varchar(30)', (c) => c.notNull())
    .addColumn('floor', 'varchar(10)', (c) => c.notNull())
    .addColumn('hall_no', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .addColumn('open_state', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('map_x', 'integer')
    .addColumn('map_y', 'integer')
    .addColumn('intro', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer')
    .execute();
  await db.schema.createIndex('museum_hall_name_uq').on('museum_hall').column('name').unique().execute();
  await db.schema.createIndex('museum_hall_floor_idx').on('museum_hall').columns(['floor', 'sort']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('museum_hall').execute();
  await db.schema.dropTable('museum_floor').execute();
}
