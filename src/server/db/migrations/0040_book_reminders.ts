import type { Kysely } from 'kysely';

/*
 * FROZEN. Reminders of due and overdue loans (issue 22; README "Book lending"): one row per loan
 * per museum day a reminder went out. The primary key is the "once a day per loan" rule, held by
 * the database, so two instances or a job re-run after a crash never send a second one; `due_date`
 * lets a renewal's new due date earn its own 即将到期 reminder.
 *
 * The reading room lends to every member of staff, so the built-in 普通员工 role (myselfRole) of an
 * existing museum is granted the reader's entries here, as a new one is seeded (as 0020 did for
 * 业务数据); a museum that had granted some of them keeps its rows.
 */
const READER = [
  'book.panel',
  'book.book',
  'book.periodical',
  'book.publication',
  'book.borrowRecord',
  'book.receiveRecord',
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('book_reminder')
    .addColumn('approval_id', 'integer', (c) =>
      c.notNull().references('bs_book_approval.id').onDelete('cascade'),
    )
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('due_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('book_reminder_pk', ['approval_id', 'day'])
    .execute();

  const staff = await db.selectFrom('role').select('id').where('code', '=', 'myselfRole').executeTakeFirst();
  if (!staff) return;
  const held = new Set(
    (
      await db
        .selectFrom('role_menu')
        .select('menu_key')
        .where('role_id', '=', staff.id)
        .where('menu_key', 'in', READER)
        .execute()
    ).map((r) => r.menu_key as string),
  );
  const missing = READER.filter((k) => !held.has(k));
  if (missing.length)
    await db
      .insertInto('role_menu')
      .values(missing.map((menu_key) => ({ role_id: staff.id, menu_key })))
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // The grants stay: a museum may have chosen them since.
  await db.schema.dropTable('book_reminder').execute();
}
