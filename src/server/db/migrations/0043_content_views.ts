import type { Kysely } from 'kysely';

/*
 * FROZEN. View and play counts of website and mini-program content (issue 23; README "View
 * counts and 统计"; server modules/content/views.ts).
 *
 * - `content_view_day`: one row per content row, museum day and kind (1 浏览, 2 播放), `n` the
 *   visits counted that day. `record` is the record's name (bsExhibition, enNews …), `row_id` its
 *   id. Counting is one upsert on the primary key (INSERT … ON CONFLICT DO UPDATE SET n = n + 1),
 *   so two visits at once never lose one; the 统计 pages sum it by day and record (index on day).
 * - `content_view_seen`: who was already counted today, as a salted hash of the visitor's
 *   address and browser (never the address itself). Its primary key is the "one counted view
 *   per visitor, row and museum day" rule, held by the database: of two requests racing, one
 *   inserts and the other finds the row. Rows of past days are pruned.
 * - `content_view_salt`: the day's random salt of those hashes. Deleted with the day's hashes,
 *   after which nobody (us included) can tell whose visit a hash was.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('content_view_day')
    .addColumn('record', 'varchar(50)', (c) => c.notNull())
    .addColumn('row_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('content_view_day_pk', ['record', 'row_id', 'day', 'kind'])
    .execute();
  await db.schema
    .createIndex('content_view_day_day_idx')
    .on('content_view_day')
    .columns(['day', 'record'])
    .execute();

  await db.schema
    .createTable('content_view_seen')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('record', 'varchar(50)', (c) => c.notNull())
    .addColumn('row_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('visitor', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('content_view_seen_pk', ['day', 'record', 'row_id', 'kind', 'visitor'])
    .execute();

  await db.schema
    .createTable('content_view_salt')
    .addColumn('day', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('salt', 'varchar(64)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('content_view_salt').execute();
  await db.schema.dropTable('content_view_seen').execute();
  await db.schema.dropTable('content_view_day').execute();
}
