import { PostgresAdapter, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. Social education activities (issue 24; README "Social education activities (issue
 * 24)"): 活动类型, 活动 (also the capacity row its sign-ups take places from: total, used, open),
 * 活动报名 and 活动资料. Definitions in src/shared/records/activity/activity.ts.
 *
 * Moments are epoch ms (bigint); `open` is 0/1. A sign-up's places come from its activity's row
 * in one conditional UPDATE (records.repo `reserve`), so nothing here needs a lock. The one-live-
 * sign-up-per-phone rule is a peer rule in the write's transaction, backed by the index on
 * (activity_id, phone); one 活动资料 per activity is a unique index.
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
const user = (c: ColumnDefinitionBuilder) => c.references('user.id').onDelete('set null');

export async function up(db: Kysely<any>): Promise<void> {
  await base(db, db.schema.createTable('activity_type'))
    .addColumn('name', 'varchar(30)', (c) => c.notNull())
    .addColumn('description', 'varchar(200)', text)
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(9999))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('activity_type_name_uq').on('activity_type').column('name').unique().execute();

  await base(db, db.schema.createTable('activity'))
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('type_id', 'integer', (c) => c.notNull().references('activity_type.id'))
    .addColumn('cover', 'varchar(500)', text)
    .addColumn('place', 'varchar(100)', (c) => c.notNull())
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint', (c) => c.notNull())
    .addColumn('signup_start', 'bigint')
    .addColumn('signup_end', 'bigint')
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('used', 'integer', zero)
    .addColumn('max_persons', 'integer')
    .addColumn('audience', 'varchar(50)', text)
    .addColumn('organizer', 'integer', user)
    .addColumn('contact_phone', 'varchar(30)', text)
    .addColumn('summary', 'varchar(300)', text)
    .addColumn('content', 'text', text)
    .addColumn('open', 'integer', zero)
    .addColumn('status', 'integer', zero)
    .addColumn('publish_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('activity_start_idx')
    .on('activity')
    .columns(['start_time', 'status'])
    .execute();

  await base(db, db.schema.createTable('activity_sign'))
    .addColumn('activity_id', 'integer', (c) => c.notNull().references('activity.id'))
    .addColumn('name', 'varchar(30)', (c) => c.notNull())
    .addColumn('phone', 'varchar(11)', (c) => c.notNull())
    .addColumn('persons', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(200)', text)
    .addColumn('status', 'integer', zero)
    .addColumn('check_in_time', 'bigint')
    .addColumn('cancel_reason', 'varchar(200)', text)
    .execute();
  await db.schema
    .createIndex('activity_sign_phone_idx')
    .on('activity_sign')
    .columns(['activity_id', 'phone'])
    .execute();
  await db.schema
    .createIndex('activity_sign_status_idx')
    .on('activity_sign')
    .columns(['activity_id', 'status'])
    .execute();

  await base(db, db.schema.createTable('activity_record'))
    .addColumn('activity_id', 'integer', (c) => c.notNull().references('activity.id'))
    .addColumn('held_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('participants', 'integer', zero)
    .addColumn('summary', 'varchar(2000)', text)
    .addColumn('photos', 'varchar(1000)', text)
    .addColumn('files', 'varchar(500)', text)
    .execute();
  await db.schema
    .createIndex('activity_record_activity_uq')
    .on('activity_record')
    .column('activity_id')
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['activity_record', 'activity_sign', 'activity', 'activity_type'])
    await db.schema.dropTable(t).execute();
}
