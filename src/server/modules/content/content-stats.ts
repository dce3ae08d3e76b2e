import {
  TONGJI_DEFAULT_DAYS,
  TONGJI_GRANT,
  TONGJI_MAX_DAYS,
  TONGJI_RECORDS,
  type TongjiDays,
  type TongjiMonths,
  type TongjiRecords,
  type TongjiSite,
  type TongjiTop,
} from '../../../shared/api/content-stats';
import { CONTENT_RECORDS } from '../../../shared/records/content/index';
import { DAY_MS, addDays, museumDate, parseMuseumDate } from '../../../shared/rules/museum-time';
import type { Db } from '../../db/index';
import { invalid } from '../../errors';
import type { Access } from '../auth/access';
import type { SessionUser } from '../auth/auth.service';
import { VIEW_KIND } from './views';
import * as repo from './views.repo';

/**
 * 访问统计's figures (README "View counts and 统计"): sums of `content_view_day` (views.ts) for
 * one site's records over a range of museum days. Each call is one grouped query (plus the titles
 * of the top rows), so a page stays a few small calls however many days are stored.
 *
 * Who: the site's 访问统计 leaf (website.tongji, enWebsite.tongji), as the page it backs.
 */

const byName = new Map(CONTENT_RECORDS.map((d) => [d.name, d]));

export interface TongjiRange {
  from?: string | undefined;
  to?: string | undefined;
}

/** 'yyyy-MM' `n` months after `month`. */
function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const i = y * 12 + (m - 1) + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}

export function createContentStats(deps: { db: Db; access: Access; now?: () => number }) {
  const { db, access } = deps;
  const now = deps.now ?? Date.now;

  /** The range asked, or the last 30 museum days; refused when backwards or longer than 366 days. */
  function rangeOf(r: TongjiRange): { from: string; to: string } {
    const to = r.to ?? museumDate(now());
    const from = r.from ?? addDays(to, -(TONGJI_DEFAULT_DAYS - 1));
    const span = Math.round((parseMuseumDate(to)! - parseMuseumDate(from)!) / DAY_MS) + 1;
    if (span < 1) throw invalid('开始日期不能晚于结束日期');
    if (span > TONGJI_MAX_DAYS) throw invalid(`统计范围最长 ${TONGJI_MAX_DAYS} 天，请缩短日期范围`);
    return { from, to };
  }

  async function guard(user: SessionUser, site: TongjiSite) {
    await access.require(user, TONGJI_GRANT[site]);
    return TONGJI_RECORDS[site].map((r) => r.record);
  }

  return {
    /** `GET bs/tongji/days`: views and plays per museum day of the range (the last 30 days). */
    async days(user: SessionUser, site: TongjiSite, r: TongjiRange): Promise<TongjiDays> {
      const records = await guard(user, site);
      const { from, to } = rangeOf(r);
      const days: string[] = [];
      for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
      const out: TongjiDays = { from, to, days, views: days.map(() => 0), plays: days.map(() => 0) };
      const at = new Map(days.map((d, i) => [d, i]));
      for (const row of await repo.perDay(db, records, from, to)) {
        const i = at.get(row.day);
        if (i === undefined) continue;
        (row.kind === VIEW_KIND.play ? out.plays : out.views)[i]! += row.n;
      }
      return out;
    },

    /** `GET bs/tongji/months`: views and plays per museum month, the 12 months ending with the range's last. */
    async months(user: SessionUser, site: TongjiSite, r: TongjiRange): Promise<TongjiMonths> {
      const records = await guard(user, site);
      const last = rangeOf(r).to.slice(0, 7);
      const months = Array.from({ length: 12 }, (_, i) => addMonths(last, i - 11));
      const out: TongjiMonths = { months, views: months.map(() => 0), plays: months.map(() => 0) };
      const end = addDays(`${addMonths(last, 1)}-01`, -1);
      for (const row of await repo.perDay(db, records, `${months[0]}-01`, end)) {
        const i = months.indexOf(row.day.slice(0, 7));
        if (i < 0) continue;
        (row.kind === VIEW_KIND.play ? out.plays : out.views)[i]! += row.n;
      }
      return out;
    },

    /** `GET bs/tongji/top`: the rows viewed most in the range (10 unless `limit`), with their record. */
    async top(user: SessionUser, site: TongjiSite, r: TongjiRange & { limit?: number }): Promise<TongjiTop> {
      const records = await guard(user, site);
      const { from, to } = rangeOf(r);
      const rows = await repo.topRows(db, records, from, to, r.limit ?? 10, VIEW_KIND);
      // Titles, a query per record among the rows (a handful at most).
      const titles = new Map<string, { title: string; deleted: boolean }>();
      for (const name of new Set(rows.map((x) => x.record))) {
        const ids = rows.filter((x) => x.record === name).map((x) => x.id);
        for (const f of await repo.titlesOf(db, byName.get(name)!.table, ids))
          titles.set(`${name}:${f.id}`, f);
      }
      return {
        items: rows.map((x) => {
          const t = titles.get(`${x.record}:${x.id}`);
          return {
            record: x.record,
            recordTitle: byName.get(x.record)!.title,
            id: x.id,
            title: t?.title ?? '',
            views: x.views,
            plays: x.plays,
            deleted: !t || t.deleted,
          };
        }),
      };
    },

    /** `GET bs/tongji/records`: views and plays per record of the site in the range, and the totals. */
    async records(user: SessionUser, site: TongjiSite, r: TongjiRange): Promise<TongjiRecords> {
      const records = await guard(user, site);
      const { from, to } = rangeOf(r);
      const { sums, visited } = await repo.perRecord(db, records, from, to);
      const list = TONGJI_RECORDS[site].map(({ record, title }) => {
        const sum = (k: number) =>
          sums.filter((x) => x.record === record && x.kind === k).reduce((a, x) => a + x.n, 0);
        const rows = visited.find((x) => x.record === record)?.rows ?? 0;
        return { record, title, views: sum(VIEW_KIND.view), plays: sum(VIEW_KIND.play), rows };
      });
      return {
        records: list,
        total: {
          views: list.reduce((a, x) => a + x.views, 0),
          plays: list.reduce((a, x) => a + x.plays, 0),
        },
      };
    },
  };
}
export type ContentStats = ReturnType<typeof createContentStats>;
