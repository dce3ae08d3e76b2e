import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApproveBody,
  BookBody,
  FinishBody,
  GenerateBody,
  OpenOrCloseBody,
  StatDayQuery,
  StatMonthQuery,
  StatYearQuery,
  SurplusBody,
  TeamSaveBody,
} from '../../../shared/api/reservation';
import { appointOrder, appointTeamOrder, appointTicket } from '../../../shared/records/reservation/orders';
import { IdQuery } from '../../../shared/records/schemas';
import { DONE } from '../../plugins/envelope';
import type { ReservationService } from './reservation.service';

/**
 * Visitor reservations' own calls (shared/api/reservation.ts), beside the records engine's
 * lists, details and plain transitions. Every write is a POST (the outbox sends it with an
 * Idempotency-Key like any other).
 */
export function reservationRoutes(app: FastifyInstance, deps: { reservations: ReservationService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const v = deps.reservations;
  r.post(
    `${appointTicket.base}/generate`,
    {
      schema: { body: GenerateBody },
      config: { summary: '门票 · 按时段模板生成未来可预约天数的场次（已有的不变）' },
    },
    async (req) => v.generate(req.user, req.body),
  );
  r.post(
    `${appointTicket.base}/openOrClose`,
    {
      schema: { body: OpenOrCloseBody },
      config: { summary: '门票 · 开放或关闭场次（已有预约须 force，预约作废并短信通知）' },
    },
    async (req) => v.openOrClose(req.user, req.body),
  );
  r.post(
    `${appointTicket.base}/updateSurplusSum`,
    {
      schema: { body: SurplusBody },
      config: { summary: '门票 · 调整个人剩余名额（总名额随之调整，不低于已约）' },
    },
    async (req) => v.updateSurplusSum(req.user, req.body),
  );
  r.post(
    `${appointOrder.base}/book`,
    {
      schema: { body: BookBody },
      config: { summary: '个人预约 · 预约（名额以一条条件更新占用，永不超卖）' },
    },
    async (req) => v.book(req.user, req.body),
  );
  r.post(
    `${appointOrder.base}/finishAppoint`,
    {
      schema: { body: FinishBody },
      config: { summary: '个人预约 · 入馆核销（入馆码或证件号，全部或部分参观人）' },
    },
    async (req) => v.finishAppoint(req.user, req.body),
  );
  r.post(
    `${appointOrder.base}/markNoShow`,
    { config: { summary: '个人预约 · 立即执行失约统计（每小时自动执行）' } },
    async (req) => v.markNoShows(req.user),
  );
  r.get(
    `${appointOrder.base}/dayStat`,
    { schema: { querystring: StatDayQuery }, config: { summary: '个人预约 · 日统计（按场次）' } },
    async (req) => v.stat(req.user, 'day', req.query),
  );
  r.get(
    `${appointOrder.base}/weekStat`,
    {
      schema: { querystring: StatDayQuery },
      config: { summary: '个人预约 · 周统计（该日所在的周一至周日，按天）' },
    },
    async (req) => v.stat(req.user, 'week', req.query),
  );
  r.get(
    `${appointOrder.base}/monthStat`,
    { schema: { querystring: StatMonthQuery }, config: { summary: '个人预约 · 月统计（按天）' } },
    async (req) => v.stat(req.user, 'month', req.query),
  );
  r.get(
    `${appointOrder.base}/yearStat`,
    { schema: { querystring: StatYearQuery }, config: { summary: '个人预约 · 年统计（按月）' } },
    async (req) => v.stat(req.user, 'year', req.query),
  );
  r.post(
    `${appointTeamOrder.base}/save`,
    { schema: { body: TeamSaveBody }, config: { summary: '团队预约 · 登记团队（占用团队名额）' } },
    async (req) => v.saveTeam(req.user, req.body),
  );
  r.post(
    `${appointTeamOrder.base}/approve`,
    { schema: { body: ApproveBody }, config: { summary: '团队预约 · 审核（1 通过，2 不通过）' } },
    async (req) => {
      await v.approve(req.user, req.body);
      return DONE;
    },
  );
  r.get(
    `${appointTeamOrder.base}/visitorList`,
    { schema: { querystring: IdQuery }, config: { summary: '团队预约 · 人员名单（证件号打码）' } },
    async (req) => v.teamVisitors(req.user, req.query.id),
  );
}
