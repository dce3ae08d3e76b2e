import { ACTIVITY_GRANTS, activity, activitySign } from '../../../shared/records/activity/activity';
import {
  absentProblem,
  cancelProblem,
  checkInProblem,
  monthlyStat,
  monthsEnding,
  museumMonth,
  signUpProblem,
  type ActivityWindow,
  type MonthlyStat,
} from '../../../shared/records/activity/rules';
import { parseMuseumDate } from '../../../shared/rules/museum-time';
import type { Db } from '../../db/index';
import { invalid } from '../../errors';
import * as repo from '../../records/records.repo';
import * as stat from './activity.repo';
import type { RecordService } from '../../records/records.service';
import type { Access } from '../auth/access';
import type { SessionUser } from '../auth/auth.service';

/**
 * Social education activities' server side (README "Social education activities (issue 24)"):
 * the records are the engine's (shared/records/activity/activity.ts); this adds what reads the
 * activity behind a sign-up (the window, the places, check-in and cancel times) and the monthly
 * statistic. The places themselves are the engine's booking: one conditional UPDATE of the
 * activity's `used` inside the sign-up's insert, so a race for the last places never oversells.
 */

/** Who reads the statistic: 活动统计, and those who run activities (the workbench's chart). */
export const STAT_GRANT = [ACTIVITY_GRANTS.statistic, ACTIVITY_GRANTS.manage, ACTIVITY_GRANTS.data];

const windowOf = (row: Record<string, unknown>): ActivityWindow => ({
  open: row.open === true || row.open === 1,
  startTime: Number(row.startTime),
  endTime: Number(row.endTime),
  signupStart: (row.signupStart as number | null) ?? null,
  signupEnd: (row.signupEnd as number | null) ?? null,
  total: Number(row.total),
  used: Number(row.used ?? 0),
  maxPersons: (row.maxPersons as number | null) ?? null,
});

export function createActivityService(deps: {
  db: Db;
  access: Access;
  records: RecordService;
  now?: () => number;
}) {
  const { db, access, records } = deps;
  const now = deps.now ?? Date.now;

  // A new sign-up: the activity is published, inside its window, and has the places (the words
  // a person acts on; the conditional UPDATE after this is the guarantee under a race).
  records.registerWriteCheck(activitySign.name, async (q, row, before) => {
    if (before || !row.activityId) return null;
    const a = await repo.find(q, activity, Number(row.activityId));
    if (!a) return null; // the engine's ref check says it
    const why = signUpProblem(windowOf(a), Number(row.persons ?? 1), now());
    return why ? { field: 'activityId', message: why } : null;
  });

  const timed = (check: (a: ActivityWindow, t: number) => string | null) =>
    (async (trx, { row, time }) => {
      const a = await repo.find(trx, activity, Number(row.activityId));
      if (!a) throw invalid('该活动不存在或已删除，请刷新后重试');
      const why = check(windowOf(a), time);
      if (why) throw invalid(why);
    }) satisfies Parameters<RecordService['registerEffect']>[1];
  records.registerEffect(`${activitySign.name}.checkInWindow`, timed(checkInProblem));
  records.registerEffect(`${activitySign.name}.absentWindow`, timed(absentProblem));
  records.registerEffect(`${activitySign.name}.cancelWindow`, timed(cancelProblem));

  return {
    /** Activities, participants and sign-ups per museum month, the 12 months ending with `month`. */
    async monthly(user: SessionUser, month?: string): Promise<MonthlyStat> {
      await access.require(user, STAT_GRANT);
      const months = monthsEnding(month ?? museumMonth(now()));
      const from = parseMuseumDate(`${months[0]}-01`)!;
      const [ly, lm] = months.at(-1)!.split('-').map(Number) as [number, number];
      const next = lm === 12 ? `${ly + 1}-01` : `${ly}-${String(lm + 1).padStart(2, '0')}`;
      const to = parseMuseumDate(`${next}-01`)!;
      // Held activities: published or taken down (a draft never happened), not deleted.
      const acts = await stat.heldActivities(db, from, to);
      const ids = acts.map((a) => a.id);
      const signs = await stat.signTotals(db, ids);
      const recs = await stat.recorded(db, ids);
      const signOf = new Map(signs.map((x) => [x.activityId, x]));
      const recOf = new Map(recs.map((r) => [r.activityId, r.participants]));
      return monthlyStat(
        months,
        acts.map((a) => ({
          id: a.id,
          startTime: a.startTime,
          recorded: recOf.get(a.id) ?? null,
          signed: signOf.get(a.id)?.signed ?? 0,
          present: signOf.get(a.id)?.present ?? 0,
        })),
      );
    },
  };
}
export type ActivityService = ReturnType<typeof createActivityService>;
