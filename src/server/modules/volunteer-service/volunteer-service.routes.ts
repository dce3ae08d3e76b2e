import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  AnnualCheck,
  AnnualCheckQuery,
  BatchConfirmBody,
  CheckQuery,
  DayCounts,
  DayQuery,
  GenerateQuery,
  MySession,
  QrCode,
  RotatingCode,
  SetExplainQuery,
  ShowRecruitQuery,
  StatsQuery,
  TotalsQuery,
  VolunteerStats,
} from '../../../shared/api/volunteer-service';
import { IdQuery } from '../../../shared/records/schemas';
import {
  exhibitionSession,
  sessionCheckIn,
  volunteerExhibition,
} from '../../../shared/records/volunteer/exhibition-service';
import { serviceRecord } from '../../../shared/records/volunteer/service-hours';
import { requireTokenHeader } from '../../plugins/auth';
import type { VolunteerService } from './volunteer-service.service';

/**
 * Volunteer service's own calls (shared/api/volunteer-service.ts), beside the records engine's.
 * The spec's GET writes (setExplain, showRecruit, check, checkTime) need the token header like
 * every write and have a POST twin at the same path, the one the phone's outbox sends (with
 * Idempotency-Key; check and checkTime also dedupe on the phone's client id).
 */
export function volunteerServiceRoutes(app: FastifyInstance, deps: { volunteer: VolunteerService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const v = deps.volunteer;

  /** A write the spec makes a GET: the GET (token header required) and its POST twin. */
  function getWrite<S extends z.ZodObject>(
    url: string,
    schema: S,
    summary: string,
    handler: (req: FastifyRequest, input: z.output<S>) => Promise<unknown>,
  ) {
    r.get(url, { schema: { querystring: schema }, config: { summary, mutation: true } }, async (req) => {
      requireTokenHeader(req);
      return handler(req, req.query as z.output<S>);
    });
    r.post(
      url,
      { schema: { body: schema }, config: { summary: `${summary}（POST，可带 Idempotency-Key）` } },
      async (req) => handler(req, req.body as z.output<S>),
    );
  }

  const session = exhibitionSession.base;
  r.post(
    `${session}/generate`,
    { schema: { body: GenerateQuery }, config: { summary: '讲解场次 · 按每日讲解时间批量生成' } },
    async (req) => v.generate(req.user, req.body),
  );
  getWrite(`${session}/showRecruit`, ShowRecruitQuery, '讲解场次 · 开放或关闭认领', async (req, q) => {
    await v.showRecruit(req.user, q);
    return { id: q.id, recruitOpen: q.recruitOpen };
  });
  getWrite(
    `${session}/setExplain`,
    SetExplainQuery,
    '讲解场次 · 安排讲解员（须有讲解证书、时间不重叠）',
    (req, q) => v.setExplain(req.user, q),
  );

  const ex = volunteerExhibition.base;
  r.get(
    `${ex}/qrCode`,
    { schema: { querystring: IdQuery }, config: { summary: '志愿服务展览 · 展厅签到码', answer: QrCode } },
    async (req) => v.code(req.user, req.query),
  );
  r.get(
    `${ex}/rotatingCode`,
    {
      schema: { querystring: IdQuery },
      config: { summary: '志愿服务展览 · 展厅平板轮换签到码（2 分钟有效）', answer: RotatingCode },
    },
    async (req) => v.rotatingCode(req.user, req.query),
  );
  getWrite(`${ex}/revokeQr`, IdQuery, '志愿服务展览 · 作废旧签到码（版本加一）', (req, q) =>
    v.revokeCode(req.user, q),
  );
  r.get(`${ex}/qrKey`, { config: { summary: '志愿服务展览 · 签到码公钥（Ed25519，SPKI）' } }, async () => ({
    publicKey: await v.qr.publicKey(),
    algorithm: 'Ed25519',
  }));

  const ci = sessionCheckIn.base;
  getWrite(`${ci}/check`, CheckQuery, '场次签到 · 签到（扫码、离线补传、管理员代签）', (req, q) =>
    v.check(req.user, q),
  );
  getWrite(`${ci}/checkTime`, CheckQuery, '场次签到 · 签退或补签（计算服务时长）', (req, q) =>
    v.checkTime(req.user, q),
  );
  r.get(
    `${ci}/mySession`,
    {
      schema: { querystring: IdQuery },
      config: { summary: '场次签到 · 我的场次（手机签到页，含公钥与服务器时间）', answer: MySession },
    },
    async (req) => v.mySession(req.user, req.query),
  );
  r.get(
    `${ci}/dayCounts`,
    {
      schema: { querystring: DayQuery },
      config: { summary: '场次签到 · 某日各场次签到人数', answer: DayCounts },
    },
    async (req) => v.dayCounts(req.user, req.query),
  );

  r.post(
    `${ci}/markAbsent`,
    { config: { summary: '场次签到 · 将已结束场次中未签到的标记为缺勤' } },
    async (req) => v.markAbsentNow(req.user),
  );

  const sr = serviceRecord.base;
  r.post(
    `${sr}/batchConfirm`,
    { schema: { body: BatchConfirmBody }, config: { summary: '志愿服务记录 · 批量确认时长' } },
    async (req) => v.batchConfirm(req.user, req.body),
  );
  r.get(
    `${sr}/totals`,
    { schema: { querystring: TotalsQuery }, config: { summary: '志愿服务记录 · 志愿者已确认时长合计' } },
    async (req) => v.totals(req.user, req.query),
  );
  r.get(
    `${sr}/annualCheck`,
    {
      schema: { querystring: AnnualCheckQuery },
      config: { summary: '志愿服务记录 · 年度时长考核（只列出，不处理）', answer: AnnualCheck },
    },
    async (req) => v.annualCheck(req.user, req.query),
  );
  r.get(
    `${sr}/stats`,
    {
      schema: { querystring: StatsQuery },
      config: {
        summary: '志愿服务记录 · 年度统计（按月时长、服务组时长、出勤、新增志愿者）',
        answer: VolunteerStats,
      },
    },
    async (req) => v.stats(req.user, req.query),
  );
}
