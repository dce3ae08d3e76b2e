import {
  PostgresAdapter,
  sql,
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
} from 'kysely';

/*
 * FROZEN. Volunteer service (issue 20; research/records-design.md §3.3, §3.7, §3.8, §10):
 * 志愿服务记录, 志愿服务展览, 讲解场次, 讲解资格, 场次签到, 服务设置, 学生服务时段 and 预约, and the check-in
 * code's signing key. Definitions in src/shared/records/volunteer/{service-hours,exhibition-service,
 * service-setting,student-service}.ts.
 *
 * Volunteers are named by their account (`user.id`). Hours are whole minutes (`service_minutes`),
 * exact on both databases. Times of day are 'HH:mm', days 'yyyy-MM-dd' (both sort as text).
 * `explainer_ids` is ',3,5,' so "is person 5 on it" is one portable LIKE.
 *
 * Check-ins dedupe on the phone's client ids (`client_in_id`, `client_out_id`: partial unique
 * indexes where not empty) and on (session, volunteer). A certificate number is unique once
 * issued. `volunteer_qr_key` holds the server's Ed25519 key pair (PKCS8/SPKI PEM) that signs the
 * halls' check-in codes: made once, on first use, by whichever instance gets there first.
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
const user = (c: ColumnDefinitionBuilder) => c.references('user.id').onDelete('set null');

export async function up(db: Kysely<any>): Promise<void> {
  await base(db, db.schema.createTable('volunteer_service_record'))
    .addColumn('volunteer_id', 'integer', user)
    .addColumn('volunteer_kind', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('service_type', 'integer', (c) => c.notNull())
    .addColumn('service_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('start_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('end_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('service_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('content', 'varchar(500)', text)
    .addColumn('location', 'varchar(100)', text)
    .addColumn('audience_count', 'integer')
    .addColumn('source_table', 'varchar(50)', text)
    .addColumn('source_id', 'integer')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('confirm_by', 'integer', user)
    .addColumn('confirm_time', 'bigint')
    .addColumn('reject_reason', 'varchar(200)', text)
    .execute();
  await db.schema
    .createIndex('volunteer_service_record_person_idx')
    .on('volunteer_service_record')
    .columns(['volunteer_id', 'status', 'service_date'])
    .execute();
  await db.schema
    .createIndex('volunteer_service_record_date_idx')
    .on('volunteer_service_record')
    .columns(['service_date', 'id'])
    .execute();
  // One record per source row (a check-in writes exactly one).
  await db.schema
    .createIndex('volunteer_service_record_source_uq')
    .on('volunteer_service_record')
    .columns(['source_table', 'source_id'])
    .unique()
    .where(sql.ref('source_table'), '<>', '')
    .execute();

  await base(db, db.schema.createTable('volunteer_exhibition'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('hall', 'varchar(50)', (c) => c.notNull())
    .addColumn('start_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('end_date', 'varchar(10)', text)
    .addColumn('explain_minutes', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('explain_times', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('need_qualification', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('intro', 'varchar(2000)', text)
    .addColumn('qr_version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await base(db, db.schema.createTable('volunteer_session'))
    .addColumn('exhibition_id', 'integer', (c) => c.notNull().references('volunteer_exhibition.id'))
    .addColumn('service_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('start_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('end_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('quota', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('recruit_open', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('explainer_ids', 'varchar(1000)', text)
    .addColumn('team_order_id', 'integer')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancel_reason', 'varchar(200)', text)
    .execute();
  await db.schema
    .createIndex('volunteer_session_slot_uq')
    .on('volunteer_session')
    .columns(['exhibition_id', 'service_date', 'start_time'])
    .unique()
    .execute();
  await db.schema
    .createIndex('volunteer_session_date_idx')
    .on('volunteer_session')
    .columns(['service_date', 'start_time'])
    .execute();

  await base(db, db.schema.createTable('volunteer_qualification'))
    .addColumn('exhibition_id', 'integer', (c) => c.notNull().references('volunteer_exhibition.id'))
    .addColumn('volunteer_id', 'integer', user)
    .addColumn('trial_time', 'bigint')
    .addColumn('trial_score', 'integer')
    .addColumn('examiner_ids', 'varchar(1000)', text)
    .addColumn('comment', 'varchar(500)', text)
    .addColumn('cert_no', 'varchar(50)', text)
    .addColumn('issue_date', 'varchar(10)', text)
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('volunteer_qualification_uq')
    .on('volunteer_qualification')
    .columns(['exhibition_id', 'volunteer_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('volunteer_qualification_cert_uq')
    .on('volunteer_qualification')
    .column('cert_no')
    .unique()
    .where(sql.ref('cert_no'), '<>', '')
    .execute();

  await base(db, db.schema.createTable('volunteer_check_in'))
    .addColumn('detail_id', 'integer', (c) => c.notNull().references('volunteer_session.id'))
    .addColumn('volunteer_id', 'integer', user)
    .addColumn('role', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('check_in_time', 'bigint')
    .addColumn('check_out_time', 'bigint')
    .addColumn('source', 'integer')
    .addColumn('service_minutes', 'integer')
    .addColumn('device_in_time', 'bigint')
    .addColumn('device_out_time', 'bigint')
    .addColumn('clock_skew_ms', 'integer')
    .addColumn('flags', 'varchar(300)', text)
    .addColumn('remark', 'varchar(200)', text)
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('client_in_id', 'varchar(40)', text)
    .addColumn('client_out_id', 'varchar(40)', text)
    .addColumn('device_id', 'varchar(64)', text)
    .execute();
  await db.schema
    .createIndex('volunteer_check_in_uq')
    .on('volunteer_check_in')
    .columns(['detail_id', 'volunteer_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('volunteer_check_in_client_in_uq')
    .on('volunteer_check_in')
    .column('client_in_id')
    .unique()
    .where(sql.ref('client_in_id'), '<>', '')
    .execute();
  await db.schema
    .createIndex('volunteer_check_in_client_out_uq')
    .on('volunteer_check_in')
    .column('client_out_id')
    .unique()
    .where(sql.ref('client_out_id'), '<>', '')
    .execute();
  await db.schema
    .createIndex('volunteer_check_in_device_idx')
    .on('volunteer_check_in')
    .columns(['device_id', 'check_in_time'])
    .execute();

  await base(db, db.schema.createTable('volunteer_service_setting'))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('intro', 'varchar(2000)', text)
    .addColumn('open_weekdays', 'varchar(13)', text)
    .addColumn('sessions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('advance_days', 'integer')
    .addColumn('cancel_before_hours', 'integer')
    .addColumn('min_age', 'integer')
    .addColumn('max_age', 'integer')
    .addColumn('trainee_hours', 'integer')
    .addColumn('trainee_months', 'integer')
    .addColumn('annual_min_hours', 'integer')
    .addColumn('pre_duty_training_hours', 'integer')
    .addColumn('next_hall_hours', 'integer')
    .addColumn('hours_unit', 'integer')
    .addColumn('max_hours_per_day', 'integer')
    .addColumn('early_minutes', 'integer')
    .addColumn('late_minutes', 'integer')
    .addColumn('auto_confirm_hours', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('no_show_block_count', 'integer')
    .execute();
  await db.schema
    .createIndex('volunteer_service_setting_type_uq')
    .on('volunteer_service_setting')
    .column('type')
    .unique()
    .execute();

  // 服务预约: slots are capacity rows (total, used, open); bookings take places from them.
  await base(db, db.schema.createTable('volunteer_student_slot'))
    .addColumn('service_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('start_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('end_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('open', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('volunteer_student_slot_uq')
    .on('volunteer_student_slot')
    .columns(['service_date', 'start_time'])
    .unique()
    .execute();
  await base(db, db.schema.createTable('volunteer_student_appoint'))
    .addColumn('slot_id', 'integer', (c) => c.notNull().references('volunteer_student_slot.id'))
    .addColumn('volunteer_id', 'integer', user)
    .addColumn('persons', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(200)', text)
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancel_reason', 'varchar(200)', text)
    .execute();
  await db.schema
    .createIndex('volunteer_student_appoint_slot_idx')
    .on('volunteer_student_appoint')
    .columns(['slot_id', 'status'])
    .execute();

  await db.schema
    .createTable('volunteer_qr_key')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'volunteer_qr_key',
    'volunteer_student_appoint',
    'volunteer_student_slot',
    'volunteer_service_setting',
    'volunteer_check_in',
    'volunteer_qualification',
    'volunteer_session',
    'volunteer_exhibition',
    'volunteer_service_record',
  ])
    await db.schema.dropTable(t).execute();
}
