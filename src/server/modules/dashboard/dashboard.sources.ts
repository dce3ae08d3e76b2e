import type { Kysely } from 'kysely';
import type { RelicPie } from '../../../shared/api/dashboards';
import type { RecordDef } from '../../../shared/records/define';
import type { Db } from '../../db/index';
import type { DashboardSources } from './dashboard.service';
import { monthlyStat } from '../../../shared/records/activity/rules';
import { addDays, parseMuseumDate } from '../../../shared/rules/museum-time';
import * as activityStat from '../activity/activity.repo';

/**
 * Where the dashboards read other modules' rows: the collection (culturarelic/pie) and the
 * social-education activities (socialEducational/activity). A source whose record is not
 * declared answers nothing, so its chart reads empty rather than failing.
 */

/** The collection's grouping columns and the census dictionary naming their values (records-design §8). */
const RELIC_GROUPS: Record<RelicPie['by'], { column: string; dict: string }> = {
  category: { column: 'category', dict: 'relic_category' },
  level: { column: 'level', dict: 'relic_level' },
  preservation: { column: 'preservation', dict: 'relic_preservation' },
};

export function dashboardSources(defs: readonly RecordDef[]): DashboardSources {
  const has = (name: string) => defs.some((d) => d.name === name);
  const sources: DashboardSources = {};
  if (has('bsDigitalassetsInfo'))
    sources.relicGroups = async (db: Db, by) => {
      const { column, dict } = RELIC_GROUPS[by];
      const loose = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const rows = await loose
        .selectFrom('bs_digitalassets_info')
        .select((eb) => [eb.ref(column).as('value'), eb.fn.countAll<number>().as('n')])
        .where('del_flag', '=', 0)
        .groupBy(column)
        .execute();
      const words = await db
        .selectFrom('dict_item')
        .select(['value', 'label'])
        .where('dict_key', '=', dict)
        .where('del_flag', '=', 0)
        .execute();
      const word = new Map(words.map((w) => [w.value, w.label]));
      const out = new Map<string, number>();
      for (const r of rows) {
        const v = String(r.value ?? '');
        const label = v ? (word.get(v) ?? v) : '未填写';
        out.set(label, (out.get(label) ?? 0) + Number(r.n));
      }
      return [...out].map(([label, value]) => ({ label, value }));
    };
  // The activity module's own monthly statistic (held activities, their recorded or checked-in
  // participants), so 活动统计 and the workbench never disagree.
  if (has('activity'))
    sources.activityMonths = async (db: Db, from: string, to: string) => {
      const acts = await activityStat.heldActivities(
        db,
        parseMuseumDate(from)!,
        parseMuseumDate(addDays(to, 1))!,
      );
      const ids = acts.map((a) => a.id);
      const signs = new Map((await activityStat.signTotals(db, ids)).map((x) => [x.activityId, x]));
      const recs = new Map((await activityStat.recorded(db, ids)).map((r) => [r.activityId, r.participants]));
      const months: string[] = [];
      for (let m = from.slice(0, 7); m <= to.slice(0, 7);) {
        months.push(m);
        const [y, mm] = m.split('-').map(Number) as [number, number];
        m = mm === 12 ? `${y + 1}-01` : `${y}-${String(mm + 1).padStart(2, '0')}`;
      }
      const stat = monthlyStat(
        months,
        acts.map((a) => ({
          id: a.id,
          startTime: a.startTime,
          recorded: recs.get(a.id) ?? null,
          signed: signs.get(a.id)?.signed ?? 0,
          present: signs.get(a.id)?.present ?? 0,
        })),
      );
      return months.map((month, i) => ({
        month,
        activities: stat.activities[i] ?? 0,
        participants: stat.participants[i] ?? 0,
      }));
    };
  return sources;
}
