import {
  PostgresAdapter,
  sql,
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
} from 'kysely';

/*
 * FROZEN. Volunteers' people, notices and recruits (issue 20; src/shared/records/volunteer/):
 * service groups (seeded with the posts of DB51/T 2990-2023), applications, adult and student
 * volunteers, school groups, volunteer notices, recruits (also the capacity row of their
 * sign-ups: total, used, open) and sign-ups. Every table has the base columns of every record.
 * Dates are 'yyyy-MM-dd' text, moments epoch ms (bigint), choices integers, refs integers.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

function base(db: Kysely<any>, name: string): CreateTableBuilder<string, any> {
  return db.schema
    .createTable(name)
    .addColumn('id', 'integer', id(db))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('create_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0));
}

const text = (n: number) =>
  [`varchar(${n})`, (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('')] as const;
const GROUPS = [
  '讲解组',
  '导览咨询组',
  '活动服务组',
  '策划宣传组',
  '文保辅助组',
  '陈列辅助组',
  '影像采编组',
  '文字校译组',
];

/** The person's columns every volunteer table shares. */
function person(t: CreateTableBuilder<string, any>) {
  return t
    .addColumn('name', 'varchar(30)', (c) => c.notNull())
    .addColumn('gender', 'integer')
    .addColumn('birth_date', ...text(10))
    .addColumn('id_type', 'integer')
    .addColumn('id_number', ...text(30))
    .addColumn('phone', ...text(20))
    .addColumn('guardian_name', ...text(30))
    .addColumn('guardian_phone', ...text(30));
}

export async function up(db: Kysely<any>): Promise<void> {
  await base(db, 'volunteer_group')
    .addColumn('name', 'varchar(30)', (c) => c.notNull())
    .addColumn('staff_owner_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('description', ...text(500))
    .addColumn('sort', 'integer')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  const now = Date.now();
  await db
    .insertInto('volunteer_group')
    .values(
      GROUPS.map((name, i) => ({ name, sort: (i + 1) * 10, status: 1, create_time: now, update_time: now })),
    )
    .execute();

  await person(base(db, 'volunteer_application'))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('political_status', ...text(20))
    .addColumn('education', ...text(20))
    .addColumn('work_unit', ...text(100))
    .addColumn('occupation', 'integer')
    .addColumn('address', ...text(200))
    .addColumn('emergency_name', ...text(30))
    .addColumn('emergency_phone', ...text(30))
    .addColumn('grade', ...text(20))
    .addColumn('class_name', ...text(20))
    .addColumn('group_id', 'integer')
    .addColumn('available_times', ...text(100))
    .addColumn('specialties', ...text(200))
    .addColumn('experience', ...text(1000))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('interview_time', 'bigint')
    .addColumn('interview_place', ...text(100))
    .addColumn('interviewer', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('interview_score', 'integer')
    .addColumn('interview_comment', ...text(500))
    .addColumn('volunteer_id', 'integer')
    .execute();
  await db.schema
    .createIndex('volunteer_application_status_idx')
    .on('volunteer_application')
    .columns(['type', 'status', 'id'])
    .execute();

  await person(base(db, 'volunteer_adult'))
    .addColumn('volunteer_no', ...text(20))
    .addColumn('group_id', 'integer')
    .addColumn('work_unit', ...text(100))
    .addColumn('address', ...text(200))
    .addColumn('emergency_name', ...text(30))
    .addColumn('emergency_phone', ...text(30))
    .addColumn('specialties', ...text(200))
    .addColumn('appointable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('join_date', ...text(10))
    .addColumn('regular_date', ...text(10))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('prev_status', 'integer')
    .addColumn('block_reason', ...text(200))
    .addColumn('exit_reason', ...text(200))
    .addColumn('regular_reason', ...text(200))
    .addColumn('no_show_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('application_id', 'integer')
    .execute();
  await db.schema
    .createIndex('volunteer_adult_no_uq')
    .on('volunteer_adult')
    .column('volunteer_no')
    .unique()
    .where(sql.ref('del_flag'), '=', 0)
    .execute();
  await db.schema.createIndex('volunteer_adult_user_idx').on('volunteer_adult').column('user_id').execute();

  await base(db, 'volunteer_school_group')
    .addColumn('school_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('school_type', 'integer')
    .addColumn('contact_teacher', ...text(30))
    .addColumn('teacher_phone', ...text(30))
    .addColumn('address', ...text(200))
    .addColumn('student_count', 'integer')
    .addColumn('grades', ...text(50))
    .addColumn('remark', ...text(500))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await person(base(db, 'volunteer_student'))
    .addColumn('student_no', ...text(20))
    .addColumn('category', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('school', ...text(100))
    .addColumn('grade', ...text(20))
    .addColumn('class_name', ...text(20))
    .addColumn('school_group_id', 'integer')
    .addColumn('group_id', 'integer')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', ...text(500))
    .addColumn('application_id', 'integer')
    .execute();
  await db.schema
    .createIndex('volunteer_student_no_uq')
    .on('volunteer_student')
    .column('student_no')
    .unique()
    .where(sql.ref('del_flag'), '=', 0)
    .execute();

  await base(db, 'volunteer_notice')
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('category', 'integer', (c) => c.notNull())
    .addColumn('cover', ...text(200))
    .addColumn('summary', ...text(200))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('audience', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('group_id', 'integer')
    .addColumn('is_top', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('publish_time', 'bigint')
    .execute();

  await base(db, 'volunteer_recruit')
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('cover', ...text(200))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('group_id', 'integer')
    .addColumn('target_type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('requirements', ...text(500))
    .addColumn('location', ...text(100))
    .addColumn('activity_start', 'bigint')
    .addColumn('activity_end', 'bigint')
    .addColumn('signup_start', 'bigint')
    .addColumn('signup_end', 'bigint')
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('open', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hours_per_person', ...text(4))
    .addColumn('need_review', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('show', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('show_external', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('publish_time', 'bigint')
    .execute();

  await base(db, 'volunteer_recruit_sign')
    .addColumn('recruit_id', 'integer', (c) => c.notNull())
    .addColumn('volunteer_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(30)', (c) => c.notNull())
    .addColumn('phone', ...text(20))
    .addColumn('places', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('signup_time', 'bigint')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('review_comment', ...text(200))
    .addColumn('present_time', 'bigint')
    .addColumn('hours', ...text(4))
    .execute();
  // One live sign-up per volunteer and recruit, even when two arrive at once.
  await db.schema
    .createIndex('volunteer_recruit_sign_uq')
    .on('volunteer_recruit_sign')
    .columns(['recruit_id', 'volunteer_id'])
    .unique()
    .where(sql.ref('del_flag'), '=', 0)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'volunteer_recruit_sign',
    'volunteer_recruit',
    'volunteer_notice',
    'volunteer_student',
    'volunteer_school_group',
    'volunteer_adult',
    'volunteer_application',
    'volunteer_group',
  ])
    await db.schema.dropTable(t).execute();
}
