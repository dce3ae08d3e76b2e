import { PostgresAdapter, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. Visitor reservations (issue 21; research/records-design.md §7): 预约设置, 时段模板, 门票,
 * 个人预约, 参观人, 团队预约, 黑名单. Definitions in src/shared/records/reservation/.
 *
 * A ticket's places are counters in its row, moved only by single conditional UPDATEs
 * (README "Visitor reservations"): `surplus_sum` (individuals may still book), `booked_sum`
 * (individual persons booked), `team_surplus` / `team_booked` the same for teams. One ticket per
 * (date, template).
 *
 * One booking per ID per day is a unique index, so two bookings racing for the same ID cannot
 * both land: `day_key` is 'yyyy-MM-dd|idType|idNumber' while the visitor holds a live booking
 * and the rule is on, NULL otherwise (both databases let NULLs repeat in a unique index).
 * Order numbers and entry codes are unique. Days 'yyyy-MM-dd' and times 'HH:mm' sort as text.
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
  await base(db, db.schema.createTable('appoint_setting'))
    .addColumn('open_time', 'varchar(5)', text)
    .addColumn('last_entry_time', 'varchar(5)', text)
    .addColumn('close_time', 'varchar(5)', text)
    .addColumn('closed_weekdays', 'varchar(13)', text)
    .addColumn('special_dates', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('advance_days', 'integer')
    .addColumn('release_time', 'varchar(5)', text)
    .addColumn('same_day_cutoff_minutes', 'integer')
    .addColumn('max_persons_per_order', 'integer')
    .addColumn('max_minors_per_order', 'integer')
    .addColumn('minor_age', 'integer')
    .addColumn('one_per_id_per_day', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('account_max_bookings30d', 'integer')
    .addColumn('cancel_deadline', 'varchar(5)', text)
    .addColumn('arrival_tolerance_minutes', 'integer')
    .addColumn('no_show_limit', 'integer')
    .addColumn('no_show_window_days', 'integer')
    .addColumn('block_days', 'integer')
    .addColumn('cancel_counts_as_no_show', 'integer', zero)
    .addColumn('team_min', 'integer')
    .addColumn('team_max', 'integer')
    .addColumn('team_min_advance_days', 'integer')
    .addColumn('team_minor_max', 'integer')
    .addColumn('team_adult_minor_ratio', 'integer')
    .addColumn('team_needs_approval', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('notice', 'varchar(5000)', text)
    .addColumn('team_notice', 'varchar(5000)', text)
    .execute();

  await base(db, db.schema.createTable('appoint_setting_times'))
    .addColumn('name', 'varchar(20)', (c) => c.notNull())
    .addColumn('start_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('end_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull())
    .addColumn('team_capacity', 'integer')
    .addColumn('weekdays', 'varchar(13)', (c) => c.notNull())
    .addColumn('valid_from', 'varchar(10)', text)
    .addColumn('valid_to', 'varchar(10)', text)
    .addColumn('sort', 'integer')
    .addColumn('enabled', 'integer', zero)
    .execute();

  await base(db, db.schema.createTable('appoint_ticket'))
    .addColumn('date', 'varchar(10)', (c) => c.notNull())
    .addColumn('time_id', 'integer', (c) => c.notNull().references('appoint_setting_times.id'))
    .addColumn('start_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('end_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('total_sum', 'integer', zero)
    .addColumn('surplus_sum', 'integer', zero)
    .addColumn('booked_sum', 'integer', zero)
    .addColumn('team_total', 'integer', zero)
    .addColumn('team_surplus', 'integer', zero)
    .addColumn('team_booked', 'integer', zero)
    .addColumn('is_open', 'integer', zero)
    .addColumn('close_reason', 'varchar(100)', text)
    .execute();
  await db.schema
    .createIndex('appoint_ticket_slot_uq')
    .on('appoint_ticket')
    .columns(['date', 'time_id'])
    .unique()
    .execute();

  await base(db, db.schema.createTable('appoint_order'))
    .addColumn('order_no', 'varchar(20)', (c) => c.notNull())
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('appoint_ticket.id'))
    .addColumn('date', 'varchar(10)', (c) => c.notNull())
    .addColumn('start_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('end_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('contact_name', 'varchar(30)', (c) => c.notNull())
    .addColumn('contact_phone', 'varchar(11)', (c) => c.notNull())
    .addColumn('visitor_count', 'integer', (c) => c.notNull())
    .addColumn('channel', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('verify_code', 'varchar(40)', (c) => c.notNull())
    .addColumn('cancel_time', 'bigint')
    .addColumn('cancel_reason', 'varchar(200)', text)
    .addColumn('finish_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('appoint_order_no_uq')
    .on('appoint_order')
    .column('order_no')
    .unique()
    .execute();
  await db.schema
    .createIndex('appoint_order_code_uq')
    .on('appoint_order')
    .column('verify_code')
    .unique()
    .execute();
  await db.schema
    .createIndex('appoint_order_date_idx')
    .on('appoint_order')
    .columns(['date', 'status'])
    .execute();
  await db.schema
    .createIndex('appoint_order_phone_idx')
    .on('appoint_order')
    .columns(['contact_phone', 'create_time'])
    .execute();

  await base(db, db.schema.createTable('appoint_team_order'))
    .addColumn('order_no', 'varchar(20)', (c) => c.notNull())
    .addColumn('team_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('unit_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('team_type', 'integer', (c) => c.notNull())
    .addColumn('leader_name', 'varchar(30)', (c) => c.notNull())
    .addColumn('leader_phone', 'varchar(11)', (c) => c.notNull())
    .addColumn('leader_id_type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('leader_id_number', 'varchar(30)', (c) => c.notNull())
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('appoint_ticket.id'))
    .addColumn('date', 'varchar(10)', (c) => c.notNull())
    .addColumn('start_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('visitor_count', 'integer', (c) => c.notNull())
    .addColumn('adult_count', 'integer', zero)
    .addColumn('minor_count', 'integer', zero)
    .addColumn('need_explain', 'integer', zero)
    .addColumn('purpose', 'varchar(200)', text)
    .addColumn('remark', 'varchar(200)', text)
    .addColumn('status', 'integer', zero)
    .addColumn('approve_comment', 'varchar(200)', text)
    .addColumn('approve_time', 'bigint')
    .addColumn('notice_content', 'varchar(500)', text)
    .addColumn('notice_time', 'bigint')
    .addColumn('actual_count', 'integer')
    .execute();
  await db.schema
    .createIndex('appoint_team_order_no_uq')
    .on('appoint_team_order')
    .column('order_no')
    .unique()
    .execute();
  await db.schema
    .createIndex('appoint_team_order_date_idx')
    .on('appoint_team_order')
    .columns(['date', 'status'])
    .execute();

  await base(db, db.schema.createTable('appoint_order_visitor'))
    .addColumn('order_id', 'integer', (c) => c.references('appoint_order.id'))
    .addColumn('team_order_id', 'integer', (c) => c.references('appoint_team_order.id'))
    .addColumn('date', 'varchar(10)', (c) => c.notNull())
    .addColumn('name', 'varchar(30)', (c) => c.notNull())
    .addColumn('id_type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('id_number', 'varchar(30)', (c) => c.notNull())
    .addColumn('is_minor', 'integer', zero)
    .addColumn('check_status', 'integer', zero)
    .addColumn('check_time', 'bigint')
    .addColumn('day_key', 'varchar(60)')
    .execute();
  await db.schema
    .createIndex('appoint_order_visitor_day_uq')
    .on('appoint_order_visitor')
    .column('day_key')
    .unique()
    .execute();
  await db.schema
    .createIndex('appoint_order_visitor_order_idx')
    .on('appoint_order_visitor')
    .columns(['order_id', 'team_order_id'])
    .execute();
  await db.schema
    .createIndex('appoint_order_visitor_id_idx')
    .on('appoint_order_visitor')
    .columns(['id_number', 'check_status', 'date'])
    .execute();

  await base(db, db.schema.createTable('appoint_black_list'))
    .addColumn('name', 'varchar(30)', (c) => c.notNull())
    .addColumn('id_type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('id_number', 'varchar(30)', (c) => c.notNull())
    .addColumn('reason', 'integer', (c) => c.notNull())
    .addColumn('remark', 'varchar(200)', text)
    .addColumn('auto', 'integer', zero)
    .addColumn('no_show_count', 'integer')
    .addColumn('start_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('end_date', 'varchar(10)', text)
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('release_reason', 'varchar(200)', text)
    .execute();
  await db.schema
    .createIndex('appoint_black_list_id_idx')
    .on('appoint_black_list')
    .columns(['id_number', 'status'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'appoint_black_list',
    'appoint_order_visitor',
    'appoint_team_order',
    'appoint_order',
    'appoint_ticket',
    'appoint_setting_times',
    'appoint_setting',
  ])
    await db.schema.dropTable(t).execute();
}
