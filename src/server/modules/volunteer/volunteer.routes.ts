import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Id } from '../../../shared/api/fields';
import { f } from '../../../shared/records/define';
// Links zod into the field builders, whose schemas this file reads (records/define.ts).
import '../../../shared/records/schemas';
import { adultVolunteer, volunteerApplication } from '../../../shared/records/volunteer/people';
import { recruit, volunteerNotice } from '../../../shared/records/volunteer/recruit';
import { invalid } from '../../errors';
import { DONE } from '../../plugins/envelope';
import { replayInstead } from '../../plugins/idempotency';
import { requireTokenHeader } from '../../plugins/auth';
import type { RecordService } from '../../records/records.service';
import * as repo from '../../records/records.repo';
import type { Db } from '../../db/index';
import type { Access } from '../auth/access';
import type { VolunteerService } from './volunteer.service';

/**
 * The volunteer calls the engine cannot serve from a definition alone (office.md §7, /v2):
 * the spec's one-call-two-outcomes writes (interviewResult, block with lift, publishOrCancel),
 * each dispatching to one engine transition so guards, the status log and 状态已变化，请刷新 stay
 * the engine's; the sign-up; and the recruit's 展示 switches. Each GET write needs the token
 * header and has a POST twin for the outbox, like the engine's.
 */
export function volunteerRoutes(
  app: FastifyInstance,
  deps: { volunteers: VolunteerService; records: RecordService; access: Access; db: Db },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { volunteers, records, access, db } = deps;

  function write(
    url: string,
    schema: z.ZodObject,
    summary: string,
    handler: (req: FastifyRequest, input: Record<string, unknown>, reply: FastifyReply) => Promise<unknown>,
  ) {
    r.route({
      method: 'GET',
      url,
      schema: { querystring: schema },
      config: { summary, mutation: true },
      handler: async (req, reply) => {
        requireTokenHeader(req);
        return handler(req, req.query as Record<string, unknown>, reply);
      },
    });
    r.route({
      method: 'POST',
      url,
      schema: { body: schema },
      config: { summary: `${summary}（POST，可带 Idempotency-Key）` },
      handler: async (req, reply) => handler(req, req.body as Record<string, unknown>, reply),
    });
  }

  const result = z
    .preprocess(
      (v) => (typeof v === 'string' ? Number(v) : v),
      z.union([z.literal(1), z.literal(2)], { error: () => '面试结果只能是 1（通过）或 2（不通过）' }),
    )
    .meta({ title: '面试结果' });
  write(
    `${volunteerApplication.base}/interviewResult`,
    z.object({
      id: Id,
      result,
      interviewScore: f.int('面试成绩', { max: 100 }).schema,
      comment: f.textarea('面试意见', { max: 500 }).schema,
    }),
    '志愿者申请 · 面试结果（1 通过，2 不通过）',
    async (req, b) => {
      const body = b as { id: number; result: 1 | 2; interviewScore?: number; comment?: string };
      if (body.result === 1 && body.interviewScore === undefined) throw invalid('请填写面试成绩');
      if (body.result === 2 && !body.comment) throw invalid('请填写不通过原因');
      if (body.result === 1) await volunteers.preparePass(body);
      // A pass answers the volunteer and its account; a new account's initial password is
      // shown here once (and sent by SMS), never again, not even to a replay of this call
      // (README "Volunteer accounts").
      const answer = await records.transition(
        volunteerApplication,
        body.result === 1 ? 'interviewPass' : 'interviewFail',
        req.user,
        body,
        (replay) => replayInstead(req, replay),
      );
      return answer ?? DONE;
    },
  );

  write(
    `${volunteerApplication.base}/withdraw`,
    z.object({ id: Id }),
    '志愿者申请 · 申请人撤回（待审核、待面试时）',
    async (req, b) => {
      await volunteers.withdraw(req.user, b.id as number);
      return DONE;
    },
  );

  const lift = f.bool('解除停用').schema;
  write(
    `${adultVolunteer.base}/block`,
    z.object({ id: Id, reason: f.textarea('停用原因', { max: 200 }).schema, lift }),
    '社会志愿者 · 停用（lift=true 为解除停用）',
    async (req, b) => {
      const body = b as { id: number; reason?: string; lift?: boolean };
      if (body.lift) {
        const row = await repo.find(db, adultVolunteer, body.id);
        const key = row?.prevStatus === 2 ? 'liftRegular' : 'liftTrainee';
        await records.transition(adultVolunteer, key, req.user, body);
      } else {
        if (!body.reason) throw invalid('请填写停用原因');
        await records.transition(adultVolunteer, 'block', req.user, body);
      }
      return DONE;
    },
  );

  write(
    `${volunteerNotice.base}/publishOrCancel`,
    z.object({ id: Id }),
    '志愿者公告 · 发布或下线（按当前状态）',
    async (req, b) => {
      const id = b.id as number;
      const row = await repo.find(db, volunteerNotice, id);
      await records.transition(volunteerNotice, row?.status === 1 ? 'takeDown' : 'publish', req.user, { id });
      return DONE;
    },
  );

  for (const [call, column, label] of [
    ['show', 'show', '小程序展示'],
    ['showExternal', 'show_external', '官网展示'],
  ] as const)
    write(
      `${recruit.base}/${call}`,
      z.object({ id: Id, show: f.bool(label, { required: true }).schema }),
      `志愿者招募 · ${label}（show=1 展示，0 不展示）`,
      async (req, b) => {
        await access.require(req.user, recruit.access.write);
        await volunteers.toggle(b.id as number, column, b.show as boolean, req.user);
        return DONE;
      },
    );

  // Recruit page's 停用 on a sign-up row: blocks the volunteer (records-design §3.6 "block").
  write(
    `${recruit.base}/block`,
    z.object({ id: Id, reason: f.textarea('停用原因', { required: true, max: 200 }).schema }),
    '招募报名 · 停用该志愿者',
    async (req, b) => {
      const volunteerId = await volunteers.volunteerOfSign(b.id as number);
      await records.transition(adultVolunteer, 'block', req.user, { id: volunteerId, reason: b.reason });
      return DONE;
    },
  );

  r.post(
    `${recruit.base}/signUp`,
    {
      schema: {
        body: z.object({
          recruitId: f.int('招募', { required: true, min: 1 }).schema,
          volunteerId: f.int('志愿者', { min: 1 }).schema,
        }),
      },
      config: {
        summary: '志愿者招募 · 报名（名额在同一条件更新中占用；带 volunteerId 为管理员代报名）',
        answer: z.object({ id: z.number(), status: z.number() }),
      },
    },
    async (req) => {
      const body = req.body as { recruitId: number; volunteerId?: number };
      if (body.volunteerId !== undefined) await access.require(req.user, 'volunteer.sign');
      return volunteers.signUp(req.user, body);
    },
  );
}
