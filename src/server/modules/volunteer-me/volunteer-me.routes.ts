import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CancelSignBody,
  ClaimAnswer,
  ClaimBody,
  MyRecords,
  MyRecordsQuery,
  VolunteerMe,
} from '../../../shared/api/volunteer-me';
import type { VolunteerMeService } from './volunteer-me.service';

/**
 * The volunteer's own calls (shared/api/volunteer-me.ts), under /singleMuseum/v2/volunteer.
 * No menu grant: each answers only the caller's own data, and a caller who is not a volunteer
 * is refused in Chinese. Claims and withdrawals are POST (with Idempotency-Key from the app).
 */
export function volunteerMeRoutes(app: FastifyInstance, deps: { me: VolunteerMeService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { me } = deps;
  const base = '/v2/volunteer/me';

  r.get(
    base,
    {
      config: {
        summary: '志愿者本人 · 手机端首页（编号、时长、证书、场次、可认领、招募、公告）',
        answer: VolunteerMe,
      },
    },
    async (req) => me.me(req.user),
  );
  r.get(
    `${base}/records`,
    {
      schema: { querystring: MyRecordsQuery },
      config: { summary: '志愿者本人 · 我的服务记录（分页）', answer: MyRecords },
    },
    async (req) => me.records(req.user, req.query),
  );
  r.post(
    `${base}/claim`,
    {
      schema: { body: ClaimBody },
      config: { summary: '志愿者本人 · 认领开放的讲解场次（名额在同一条件更新中占用）', answer: ClaimAnswer },
    },
    async (req) => me.claim(req.user, req.body),
  );
  r.post(
    `${base}/cancelSign`,
    { schema: { body: CancelSignBody }, config: { summary: '志愿者本人 · 取消我的招募报名（名额退回）' } },
    async (req) => me.cancelSign(req.user, req.body),
  );
}
