import type { Kysely } from 'kysely';

/*
 * FROZEN. A team's documents and explainer (issue 21; research/records-design.md §7.5):
 * 介绍信 and 安全承诺书 (uploads bound to the row, required for schools, public bodies and
 * companies), the exhibition and language of the explanation a team asks for, and the volunteer
 * session its approval created (README "Visitor reservations").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('appoint_team_order')
    .addColumn('letter_file', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('appoint_team_order')
    .addColumn('pledge_file', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('appoint_team_order')
    .addColumn('explain_exhibition_id', 'integer', (c) => c.references('volunteer_exhibition.id'))
    .execute();
  await db.schema
    .alterTable('appoint_team_order')
    .addColumn('explain_language', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('appoint_team_order').addColumn('explain_session_id', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of [
    'explain_session_id',
    'explain_language',
    'explain_exhibition_id',
    'pledge_file',
    'letter_file',
  ])
    await db.schema.alterTable('appoint_team_order').dropColumn(c).execute();
}
