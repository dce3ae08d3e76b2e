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

/** One more no-show on a volunteer's count (records-design §3.6 notPresent). */
export async function addNoShow(trx: Db, volunteerId: number, time: number): Promise<void> {
  await trx
    .updateTable('volunteer_adult')
    .set({ no_show_count: sql`no_show_count + 1`, update_time: time })
    .where('id', '=', volunteerId)
    .execute();
}
