import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ScheduleIdQuery,
  ScheduleListQuery,
  ScheduleSave,
  ScheduleUpdate,
} from '../../../shared/api/schedule';
import { requireTokenHeader } from '../../plugins/auth';
import { DONE } from '../../plugins/envelope';
import type { ScheduleService } from './schedule.service';

/**
 * /singleMuseum/applet/bsSchedule/*: the caller's own schedule (spec office.md §7). Any
 * signed-in person keeps one; nobody reads or changes another's.
 */
export function scheduleRoutes(app: FastifyInstance, deps: { schedule: ScheduleService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { schedule } = deps;
  const base = '/applet/bsSchedule';

  r.get(`${base}/list`, { schema: { querystring: ScheduleListQuery } }, async (req) =>
    schedule.list(req.user.id, req.query),
  );
  r.get(`${base}/detail`, { schema: { querystring: ScheduleIdQuery } }, async (req) =>
    schedule.detail(req.user.id, req.query.id),
  );
  r.post(`${base}/save`, { schema: { body: ScheduleSave } }, async (req) =>
    schedule.save(req.user.id, req.body),
  );
  r.post(`${base}/update`, { schema: { body: ScheduleUpdate } }, async (req) => {
    await schedule.update(req.user.id, req.body);
    return DONE;
  });
  // The spec's GET, and a POST for the offline outbox (only POST carries Idempotency-Key).
  r.get(`${base}/delete`, { schema: { querystring: ScheduleIdQuery } }, async (req) => {
    requireTokenHeader(req);
    await schedule.remove(req.user.id, req.query.id);
    return DONE;
  });
  r.post(`${base}/delete`, { schema: { body: ScheduleIdQuery } }, async (req) => {
    await schedule.remove(req.user.id, req.body.id);
    return DONE;
  });
}
