import { z } from 'zod';
import { MONTH_RE } from '../records/activity/rules';

export type { MonthlyStat } from '../records/activity/rules';

/**
 * Social education's statistic (README "Social education activities (issue 24)"; records-design
 * §9 "socialEducational activity"): `GET /singleMuseum/activity/statistic?month=yyyy-MM`
 * answers activities, participants and sign-ups per museum month, the 12 months ending with
 * `month` (this month when absent), oldest first, for 活动统计. The spec's dashboard call,
 * `GET /singleMuseum/applet/socialEducational/activity`, answers the workbench's 12 months from
 * the same statistic (README "Dashboards and the workbench"): one source, two shapes.
 */
export const ACTIVITY_STAT_CALL = '/activity/statistic';

export const ActivityStatQuery = z.object({
  month: z.string().trim().regex(MONTH_RE, '统计月份须为 yyyy-MM 格式（如 2026-11）').optional(),
});
export type ActivityStatQuery = z.infer<typeof ActivityStatQuery>;
