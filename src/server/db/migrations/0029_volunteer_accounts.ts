import type { Kysely } from 'kysely';

/*
 * FROZEN. Volunteer accounts (issue 20; README "Volunteer accounts and the phone view"): an
 * account made for a volunteer at the interview's pass carries a one-time initial password, and
 * `must_change_password` = 1 until its owner sets their own (personal/password clears it). The
 * phone view asks for the new password before anything else while it is set.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('user')
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user').dropColumn('must_change_password').execute();
}
