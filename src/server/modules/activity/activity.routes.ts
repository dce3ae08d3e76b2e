import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ACTIVITY_STAT_CALL, ActivityStatQuery } from '../../../shared/api/activity';
import type { ActivityService } from './activity.service';

/**
 * Social education's hand-written call (shared/api/activity.ts), beside the engine's calls of
 * its four records under /activity: the monthly statistic the 活动统计 page and the workbench draw.
 */
export function activityRoutes(app: FastifyInstance, deps: { activities: ActivityService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    ACTIVITY_STAT_CALL,
    {
      schema: { querystring: ActivityStatQuery },
      config: { summary: '社教活动 · 每月活动场次、参与人数与报名人数（截至所选月份的 12 个月）' },
    },
    async (req) => deps.activities.monthly(req.user, (req.query as ActivityStatQuery).month),
  );
}
