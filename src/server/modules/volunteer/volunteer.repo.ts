import { sql } from 'kysely';
import type { Db } from '../../db/index';

/** The SQL of the volunteer module that needs more than the query builder's plain calls. */

/** The next number of a year's series (V20260001, S20260001): the highest so far plus one. */
export async function nextNumber(
  trx: Db,
  table: 'volunteer_adult' | 'volunteer_student',
  column: 'volunteer_no' | 'student_no',
  prefix: string,
): Promise<string> {
  const r = await trx
    .selectFrom(table as 'volunteer_adult')
    .select(sql<string>`max(${sql.ref(column)})`.as('top'))
    .where(sql.ref(column), 'like', `${prefix}%`)
    .executeTakeFirst();
  const top = r?.top ? Number(String(r.top).slice(prefix.length)) : 0;
  return `${prefix}${String(top + 1).padStart(4, '0')}`;
}

/**
 * One more no-show on an adult volunteer's count (records-design §3.6 notPresent, §3.7 缺勤), by
 * the volunteer's id or by their account (a session's check-in names the account). Answers the
 * volunteer after the change, or undefined when no adult volunteer matches.
 */
export async function addNoShow(
  trx: Db,
  who: { id: number } | { userId: number },
  time: number,
): Promise<
  { id: number; name: string; volunteerNo: string; noShowCount: number; status: number } | undefined
> {
  const match = 'id' in who ? (['id', who.id] as const) : (['user_id', who.userId] as const);
  await trx
    .updateTable('volunteer_adult')
    .set({ no_show_count: sql`no_show_count + 1`, update_time: time })
    .where(match[0], '=', match[1])
    .where('del_flag', '=', 0)
    .execute();
  const r = await trx
    .selectFrom('volunteer_adult')
    .select(['id', 'name', 'volunteer_no', 'no_show_count', 'status'])
    .where(match[0], '=', match[1])
    .where('del_flag', '=', 0)
    .executeTakeFirst();
  return r
    ? {
        id: Number(r.id),
        name: String(r.name),
        volunteerNo: String(r.volunteer_no),
        noShowCount: Number(r.no_show_count),
        status: Number(r.status),
      }
    : undefined;
}

/** The accounts granted a menu key, with the super administrators (who hold every key). */
export async function usersGranted(db: Db, menuKey: string, adminRole: string): Promise<number[]> {
  const rows = await db
    .selectFrom('user_role')
    .innerJoin('role', 'role.id', 'user_role.role_id')
    .leftJoin('role_menu', (j) =>
      j.onRef('role_menu.role_id', '=', 'role.id').on('role_menu.menu_key', '=', menuKey),
    )
    .select('user_role.user_id')
    .distinct()
    .where((eb) => eb.or([eb('role.code', '=', adminRole), eb('role_menu.menu_key', '=', menuKey)]))
    .execute();
  return rows.map((r) => Number(r.user_id));
}
