import type { Kysely } from 'kysely';

/*
 * FROZEN. 部门汇总 and 个人汇总 are attendance summaries, so the menu files them under 考勤
 * (issue 17 §5) and their grant keys follow: every role that was granted the old key holds the
 * new one, so no one loses a page. The keys are written out here, never imported: a migration
 * must keep meaning what it meant when it shipped.
 */
const RENAMED: readonly (readonly [string, string])[] = [
  ['oa.project.departmentSummary', 'oa.attendance.departmentSummary'],
  ['oa.project.personalSummary', 'oa.attendance.personalSummary'],
];

async function rename(db: Kysely<any>, from: string, to: string): Promise<void> {
  // (role_id, menu_key) is the key: a role already holding `to` (none should) keeps one row.
  await db
    .deleteFrom('role_menu')
    .where('menu_key', '=', from)
    .where('role_id', 'in', db.selectFrom('role_menu').select('role_id').where('menu_key', '=', to))
    .execute();
  await db.updateTable('role_menu').set({ menu_key: to }).where('menu_key', '=', from).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const [from, to] of RENAMED) await rename(db, from, to);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [from, to] of RENAMED) await rename(db, to, from);
}
