import { sql, type Kysely } from 'kysely';

/*
 * FROZEN. 意向服务组 becomes several groups (records-design §3.1 groupIds; README "Volunteers"):
 * `volunteer_application.group_ids` holds the chosen groups' ids as ',3,7,' (the records
 * engine's list of ids, f.refs: exact "has group 7" as LIKE '%,7,%' on SQLite and PostgreSQL).
 * Each existing application's one group carries over. The old `group_id` column stays, unread,
 * so a rollback loses nothing; nothing writes it any more.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('volunteer_application')
    .addColumn('group_ids', 'varchar(400)', (c) => c.notNull().defaultTo(''))
    .execute();
  // ',' || 3 || ',' reads the same on both databases (PostgreSQL casts the integer to text).
  await db
    .updateTable('volunteer_application')
    .set({ group_ids: sql`',' || cast(group_id as varchar(20)) || ','` })
    .where('group_id', 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('volunteer_application').dropColumn('group_ids').execute();
}
