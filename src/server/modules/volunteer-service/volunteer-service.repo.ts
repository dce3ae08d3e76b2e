import { sql } from 'kysely';
import {
  CHECKIN_ABSENT,
  CHECKIN_CONFIRMED,
  CHECKIN_IN,
  CHECKIN_OUT,
} from '../../../shared/records/volunteer/exhibition-service';
import { NO_SHOW_LIMIT } from '../../../shared/records/volunteer/people';
import { SERVICE_CONFIRMED, SERVICE_PENDING } from '../../../shared/records/volunteer/service-hours';
import type { Db } from '../../db/index';

/**
 * The sums behind the volunteer lists' charts (serviceRecord/stats): grouped by month with
 * substr on 'yyyy-MM-dd' text, which SQLite and PostgreSQL both read the same way.
 */
export async function yearStats(db: Db, kind: number, year: number) {
  const from = `${year}-01-01`;
  const to = `${year}-12-31`;
  const month = (col: string) => sql<string>`substr(${sql.ref(col)}, 6, 2)`;
  const months = () => Array.from({ length: 12 }, () => 0);
  const hours = await db
    .selectFrom('volunteer_service_record')
    .select([month('service_date').as('m'), 'status', sql<number>`sum(service_minutes)`.as('minutes')])
    .where('volunteer_kind', '=', kind)
    .where('del_flag', '=', 0)
    .where('service_date', '>=', from)
    .where('service_date', '<=', to)
    .groupBy([month('service_date'), 'status'])
    .execute();
  const hoursByMonth = months();
  let confirmedMinutes = 0;
  let pendingMinutes = 0;
  for (const r of hours) {
    const m = Number(r.minutes ?? 0);
    if (Number(r.status) === SERVICE_CONFIRMED) {
      hoursByMonth[Number(r.m) - 1]! += m;
      confirmedMinutes += m;
    } else if (Number(r.status) === SERVICE_PENDING) pendingMinutes += m;
  }
  const groups =
    kind === 1
      ? await db
          .selectFrom('volunteer_service_record as r')
          .leftJoin('volunteer_adult as a', (j) =>
            j.onRef('a.user_id', '=', 'r.volunteer_id').on('a.del_flag', '=', 0),
          )
          .leftJoin('volunteer_group as g', 'g.id', 'a.group_id' as never)
          .select(['g.id as groupId', 'g.name as name', sql<number>`sum(r.service_minutes)`.as('minutes')])
          .where('r.volunteer_kind', '=', 1)
          .where('r.status', '=', SERVICE_CONFIRMED)
          .where('r.del_flag', '=', 0)
          .where('r.service_date', '>=', from)
          .where('r.service_date', '<=', to)
          .groupBy(['g.id', 'g.name'])
          .execute()
      : [];
  const attendance = await db
    .selectFrom('volunteer_check_in as c')
    .innerJoin('volunteer_session as s', 's.id', 'c.detail_id')
    .select([
      month('s.service_date').as('m'),
      sql<number>`sum(case when c.status in (${CHECKIN_IN}, ${CHECKIN_OUT}, ${CHECKIN_CONFIRMED}) then 1 else 0 end)`.as(
        'present',
      ),
      sql<number>`sum(case when c.status = ${CHECKIN_ABSENT} then 1 else 0 end)`.as('absent'),
    ])
    .where('c.del_flag', '=', 0)
    .where('s.del_flag', '=', 0)
    .where('s.service_date', '>=', from)
    .where('s.service_date', '<=', to)
    .groupBy(month('s.service_date'))
    .execute();
  const attendanceByMonth = months().map(() => ({ present: 0, absent: 0 }));
  for (const r of attendance)
    attendanceByMonth[Number(r.m) - 1] = { present: Number(r.present), absent: Number(r.absent) };
  const joined = await db
    .selectFrom('volunteer_adult')
    .select([month('join_date').as('m'), sql<number>`count(*)`.as('n')])
    .where('del_flag', '=', 0)
    .where('join_date', '>=', from)
    .where('join_date', '<=', to)
    .groupBy(month('join_date'))
    .execute();
  const newByMonth = months();
  for (const r of joined) newByMonth[Number(r.m) - 1] = Number(r.n);
  const suggest = await db
    .selectFrom('volunteer_adult')
    .select(sql<number>`count(*)`.as('n'))
    .where('del_flag', '=', 0)
    .where('status', 'in', [1, 2])
    .where('no_show_count', '>=', NO_SHOW_LIMIT)
    .executeTakeFirst();
  return {
    confirmedMinutes,
    pendingMinutes,
    hoursByMonth,
    hoursByGroup: groups
      .map((g) => ({
        groupId: g.groupId === null ? null : Number(g.groupId),
        name: (g.name as string | null) ?? '未关联志愿者档案',
        minutes: Number(g.minutes ?? 0),
      }))
      .sort((a, b) => b.minutes - a.minutes),
    attendanceByMonth,
    newByMonth,
    suggestBlock: Number(suggest?.n ?? 0),
  };
}

/** Every adult volunteer on the roll with their confirmed minutes of `year` (0 when none). */
export async function adultYearMinutes(db: Db, year: number) {
  const rows = await db
    .selectFrom('volunteer_adult as a')
    .leftJoin('volunteer_service_record as r', (j) =>
      j
        .onRef('r.volunteer_id', '=', 'a.user_id')
        .on('r.status', '=', SERVICE_CONFIRMED)
        .on('r.del_flag', '=', 0)
        .on('r.volunteer_kind', '=', 1)
        .on('r.service_date', '>=', `${year}-01-01`)
        .on('r.service_date', '<=', `${year}-12-31`),
    )
    .select(['a.id', 'a.status', sql<number>`coalesce(sum(r.service_minutes), 0)`.as('minutes')])
    .where('a.del_flag', '=', 0)
    .groupBy(['a.id', 'a.status'])
    .execute();
  return rows.map((r) => ({ id: Number(r.id), status: Number(r.status), minutes: Number(r.minutes) }));
}
