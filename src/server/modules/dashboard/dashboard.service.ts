import type { Kysely } from 'kysely';
import {
  DASHBOARD_GRANTS,
  TOUR_BACKFILL_DAYS,
  type ActivityLine,
  type ExhibitionLine,
  type OAExhibitionList,
  type RelicPie,
  type ServiceCount,
  type TourLine,
  type TourRecordList,
  type TourRecordSave,
} from '../../../shared/api/dashboards';
import { EXHIBITION_TYPES } from '../../../shared/records/content/exhibition';
import {
  dayLabels,
  exhibitionGroup,
  monthEnd,
  monthLabels,
  openInMonth,
  topWithOther,
  tourSeries,
  type TourSum,
} from '../../../shared/rules/dashboards';
import { addDays, museumDate } from '../../../shared/rules/museum-time';
import type { Db } from '../../db/index';
import { invalid, notFound } from '../../errors';
import type { Access } from '../auth/access';
import type { SessionUser } from '../auth/auth.service';

/**
 * The dashboards' numbers (README "Dashboards and the workbench"; research/records-design.md §9),
 * each summed in SQL from the rows it describes, never stored as a figure of its own — except
 * 观众记录 (`tour_record`), which is itself the record of admissions and typed counts.
 *
 * Sources that another module owns and this one only reads (the collection, activities) are
 * looked up through `sources`, so a database without them answers an empty result, not an error.
 */

/** Content rows with the publish states: drafts (0) are not yet the museum's exhibitions. */
const SHOWN = [1, 2];

export interface DashboardSources {
  /** 文物 counts per group value (category, level, preservation) with each value's word. */
  relicGroups?: (db: Db, by: RelicPie['by']) => Promise<{ label: string; value: number }[]>;
  /** Activities and participants per month 'yyyy-MM' between two days. */
  activityMonths?: (
    db: Db,
    from: string,
    to: string,
  ) => Promise<{ month: string; activities: number; participants: number }[]>;
}

export function createDashboardService(deps: {
  db: Db;
  access: Access;
  sources?: DashboardSources;
  now?: () => number;
}) {
  const { db, access } = deps;
  const sources = deps.sources ?? {};
  const now = deps.now ?? Date.now;
  // Columns of the content and volunteer tables the typed schema leaves open.
  const loose = db as unknown as Kysely<Record<string, Record<string, unknown>>>;

  async function tourSums(from: string, to: string): Promise<TourSum[]> {
    const rows = await db
      .selectFrom('tour_record')
      .select((eb) => [
        'date',
        'source',
        eb.fn.sum<number>('count').as('count'),
        eb.fn.sum<number>('minor_count').as('minors'),
        eb.fn.sum<number>('team_count').as('teams'),
      ])
      .where('del_flag', '=', 0)
      .where('date', '>=', from)
      .where('date', '<=', to)
      .groupBy(['date', 'source'])
      .execute();
    return rows.map((r) => ({
      date: String(r.date),
      source: Number(r.source),
      count: Number(r.count ?? 0),
      minors: Number(r.minors ?? 0),
      teams: Number(r.teams ?? 0),
    }));
  }

  async function exhibitions() {
    const rows = await loose
      .selectFrom('bs_exhibition')
      .select(['id', 'title', 'exh_type', 'start_date', 'end_date'])
      .where('del_flag', '=', 0)
      .where('status', 'in', SHOWN)
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      title: String(r.title ?? ''),
      exhType: Number(r.exh_type ?? 0),
      startDate: String(r.start_date ?? ''),
      endDate: String(r.end_date ?? ''),
    }));
  }

  return {
    async relicPie(user: SessionUser, by: RelicPie['by'] = 'category'): Promise<RelicPie> {
      await access.require(user, DASHBOARD_GRANTS.relicPie);
      const groups = sources.relicGroups ? await sources.relicGroups(db, by) : [];
      const total = groups.reduce((a, g) => a + g.value, 0);
      return { by, total, items: topWithOther(groups) };
    },

    async exhibitionLine(user: SessionUser): Promise<ExhibitionLine> {
      await access.require(user, DASHBOARD_GRANTS.exhibitions);
      const months = monthLabels(museumDate(now()), 12);
      const permanent = months.map(() => 0);
      const temporary = months.map(() => 0);
      for (const e of await exhibitions()) {
        const group = exhibitionGroup(e.exhType);
        if (!group) continue;
        months.forEach((m, i) => {
          if (openInMonth(e.startDate, e.endDate, m))
            (group === 'permanent' ? permanent : temporary)[i]! += 1;
        });
      }
      const tours = tourSeries(await tourSums(`${months[0]}-01`, monthEnd(months[11]!)), months, 'month');
      return { months, permanent, temporary, visitors: tours.total };
    },

    async oaExhibitionList(user: SessionUser): Promise<OAExhibitionList> {
      await access.require(user, DASHBOARD_GRANTS.exhibitions);
      const today = museumDate(now());
      const label = (v: number) => EXHIBITION_TYPES.find((o) => o.value === v)?.label ?? '';
      const all = (await exhibitions())
        .filter((e) => e.startDate && exhibitionGroup(e.exhType) !== null)
        .map((e) => ({ ...e, typeLabel: label(e.exhType) }));
      const byStart = (a: { startDate: string; id: number }, b: { startDate: string; id: number }) =>
        a.startDate.localeCompare(b.startDate) || a.id - b.id;
      // On now: the temporary ones first, by their closing day (what closes soonest leads).
      const current = all
        .filter((e) => e.startDate <= today && (!e.endDate || e.endDate >= today))
        .sort(
          (a, b) =>
            (a.endDate ? 0 : 1) - (b.endDate ? 0 : 1) || a.endDate.localeCompare(b.endDate) || byStart(a, b),
        )
        .slice(0, 20);
      const upcoming = all
        .filter((e) => e.startDate > today)
        .sort(byStart)
        .slice(0, 10);
      return { today, current, upcoming };
    },

    async activity(user: SessionUser): Promise<ActivityLine> {
      await access.require(user, DASHBOARD_GRANTS.activity);
      const months = monthLabels(museumDate(now()), 12);
      const rows = sources.activityMonths
        ? await sources.activityMonths(db, `${months[0]}-01`, monthEnd(months[11]!))
        : [];
      const at = new Map(rows.map((r) => [r.month, r]));
      return {
        months,
        activities: months.map((m) => at.get(m)?.activities ?? 0),
        participants: months.map((m) => at.get(m)?.participants ?? 0),
      };
    },

    async serviceCount(user: SessionUser): Promise<ServiceCount> {
      await access.require(user, DASHBOARD_GRANTS.volunteers);
      const today = museumDate(now());
      const year = Number(today.slice(0, 4));
      const adults = await loose
        .selectFrom('volunteer_adult')
        .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
        .where('del_flag', '=', 0)
        .where('status', 'in', [1, 2])
        .groupBy('status')
        .execute();
      const adultsOf = (s: number) => Number(adults.find((a) => Number(a.status) === s)?.n ?? 0);
      const students = await loose
        .selectFrom('volunteer_student')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('del_flag', '=', 0)
        .where('status', '=', 1)
        .executeTakeFirst();
      const service = await db
        .selectFrom('volunteer_service_record')
        .select((eb) => [
          eb.fn.sum<number>('service_minutes').as('minutes'),
          eb.fn.sum<number>('audience_count').as('served'),
          eb.fn.countAll<number>().as('n'),
        ])
        .where('del_flag', '=', 0)
        .where('status', '=', 1)
        .where('service_date', '>=', `${year}-01-01`)
        .where('service_date', '<=', `${year}-12-31`)
        .executeTakeFirst();
      return {
        year,
        trainee: adultsOf(1),
        regular: adultsOf(2),
        students: Number(students?.n ?? 0),
        serviceMinutes: Number(service?.minutes ?? 0),
        served: Number(service?.served ?? 0),
        records: Number(service?.n ?? 0),
      };
    },

    async tourLine(user: SessionUser, q: { by?: 'day' | 'month'; date?: string }): Promise<TourLine> {
      await access.require(user, DASHBOARD_GRANTS.tourLine);
      const today = museumDate(now());
      const end = q.date ?? today;
      const by = q.by ?? 'day';
      const labels = by === 'day' ? dayLabels(end, 30) : monthLabels(end, 12);
      const from = by === 'day' ? labels[0]! : `${labels[0]}-01`;
      const to = by === 'day' ? end : monthEnd(labels[11]!);
      const s = tourSeries(await tourSums(from, to), labels, by);
      const todays = await tourSums(today, today);
      const add = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
      return {
        by,
        ...s,
        today: todays.reduce((a, r) => a + r.count, 0),
        sum: { total: add(s.total), minors: add(s.minors), teams: add(s.teams) },
      };
    },

    async tourList(
      user: SessionUser,
      q: { from?: string; to?: string; source?: number; currentPage: number; pageCount: number },
    ): Promise<TourRecordList> {
      await access.require(user, DASHBOARD_GRANTS.tourLine);
      let b = db.selectFrom('tour_record').where('tour_record.del_flag', '=', 0);
      if (q.from) b = b.where('date', '>=', q.from);
      if (q.to) b = b.where('date', '<=', q.to);
      if (q.source) b = b.where('source', '=', q.source);
      const total = await b.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await b
        .leftJoin('user', 'user.id', 'tour_record.create_by')
        .select([
          'tour_record.id',
          'date',
          'source',
          'count',
          'minor_count',
          'team_count',
          'remark',
          'tour_record.create_time',
          'user.user_name',
        ])
        .orderBy('date', 'desc')
        .orderBy('tour_record.id', 'desc')
        .limit(q.pageCount)
        .offset((q.currentPage - 1) * q.pageCount)
        .execute();
      return {
        total: Number(total.n),
        list: rows.map((r) => ({
          id: Number(r.id),
          date: r.date,
          source: Number(r.source),
          count: Number(r.count),
          minorCount: Number(r.minor_count),
          teamCount: Number(r.team_count),
          remark: String(r.remark ?? ''),
          createTime: Number(r.create_time),
          createBy: String(r.user_name ?? ''),
        })),
      };
    },

    /** 手工补录 or a gate counter's reading: checked in words a clerk can act on. */
    async tourSave(user: SessionUser, body: TourRecordSave & { source: number; count: number }) {
      await access.require(user, DASHBOARD_GRANTS.tourWrite);
      const t = now();
      const today = museumDate(t);
      if (body.date > today) throw invalid(`日期不能晚于今天（${today}）：观众人数只能在当天或之后补录`);
      const earliest = addDays(today, -TOUR_BACKFILL_DAYS);
      if (body.date < earliest)
        throw invalid(`只能补录 ${earliest} 以后的观众人数（最近 ${TOUR_BACKFILL_DAYS} 天）`);
      const row = await db
        .insertInto('tour_record')
        .values({
          date: body.date,
          source: body.source,
          count: body.count,
          minor_count: Number(body.minorCount ?? 0),
          team_count: Number(body.teamCount ?? 0),
          remark: body.remark,
          ref_table: '',
          create_time: t,
          create_by: user.id,
          update_time: t,
          update_by: user.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: Number(row.id) };
    },

    /** Withdraws a typed row (kept, flagged); an admission's row is the gate's, never withdrawn here. */
    async tourDelete(user: SessionUser, id: number) {
      await access.require(user, DASHBOARD_GRANTS.tourWrite);
      const row = await db
        .selectFrom('tour_record')
        .select(['id', 'source', 'ref_table'])
        .where('id', '=', id)
        .where('del_flag', '=', 0)
        .executeTakeFirst();
      if (!row) throw notFound('该观众记录不存在或已删除');
      if (row.ref_table) throw invalid('入馆核验自动记录的观众人数不能删除（请在预约中处理）');
      await db
        .updateTable('tour_record')
        .set({ del_flag: 1, update_time: now(), update_by: user.id })
        .where('id', '=', id)
        .where('del_flag', '=', 0)
        .execute();
    },
  };
}
export type DashboardService = ReturnType<typeof createDashboardService>;
