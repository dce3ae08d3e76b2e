import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LOGIN_PER_MINUTE,
  PUBLIC_BASE,
  PUBLIC_READS_PER_MINUTE,
  PUBLIC_WRITES_PER_MINUTE,
  PublicBookBody,
  PublicBooked,
  PublicCancelBody,
  PublicCancelled,
  PublicIdQuery,
  PublicOrder,
  PublicOrderDetail,
  PublicTickets,
  SendCodeAnswer,
  VisitorSessionAnswer,
  SEND_CODE_PER_MINUTE,
  SendCodeBody,
  VISITOR_COOKIE,
  VISITOR_SESSION_CODE,
  VISITOR_SESSION_MESSAGE,
  VISITOR_SESSION_MS,
  VisitorLoginBody,
} from '../../../shared/api/reservation-public';
import { ErrorCode, MUSEUM_PREFIX, type ErrorCodeValue } from '../../../shared/api/envelope';
import { AppError } from '../../errors';
import { perAddress } from '../../plugins/flood-guard';
import { DONE, sendEnvelope } from '../../plugins/envelope';
import type { Syslog } from '../syslog/syslog.service';
import { addressOf } from '../syslog/syslog.service';
import { maskPhone, type PublicReservationService } from './public.service';

const KEY_RE = /^[A-Za-z0-9_.:-]{8,100}$/;
const COOKIE_PATH = `${MUSEUM_PREFIX}${PUBLIC_BASE}`;

/** The raw visitor token: `Authorization: Bearer …` (mini-program) or the page's HttpOnly cookie. */
function tokenOf(req: FastifyRequest): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '').trim();
  return req.cookies[VISITOR_COOKIE] || undefined;
}

/**
 * The visitor's public calls (shared/api/reservation-public.ts), under /singleMuseum/appointPublic:
 * no staff session (`public`), each limited per client address like /register's; the ones that
 * act for a visitor need a visitor session (a code checked for that phone). A missing or
 * expired visitor session answers HTTP 401 with code 1020 (never the staff's 999, which would
 * open the staff 登录超时 dialog).
 *
 * The cookie is HttpOnly and SameSite=Strict, on these calls' path only: another site cannot
 * make a visitor's browser send it (CSRF), and the page's scripts never read it.
 */
export function publicReservationRoutes(
  app: FastifyInstance,
  deps: { visitors: PublicReservationService; syslog: Syslog; secureCookies: boolean },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const v = deps.visitors;
  const base = PUBLIC_BASE;
  const reads = { public: true, rateLimit: perAddress(PUBLIC_READS_PER_MINUTE) };
  const writes = { public: true, rateLimit: perAddress(PUBLIC_WRITES_PER_MINUTE) };

  async function visitorOf(req: FastifyRequest) {
    const s = await v.sessionOf(tokenOf(req));
    if (!s) throw new AppError(VISITOR_SESSION_CODE as ErrorCodeValue, VISITOR_SESSION_MESSAGE, 401);
    return s;
  }

  /** The system log's entry for a visitor's booking or cancel, with the phone masked as who. */
  function audit(
    req: FastifyRequest,
    phone: string,
    e: { action: '新增' | '修改'; targetId: number | null; ok: boolean; error?: string },
  ) {
    const ua = req.headers['user-agent'];
    deps.syslog.record(
      {
        userId: null,
        userName: `访客 ${maskPhone(phone)}`,
        ip: addressOf(req.ip),
        userAgent: typeof ua === 'string' ? ua : '',
      },
      {
        action: e.action,
        module: '预约',
        table: 'appoint_order',
        targetId: e.targetId,
        method: req.method,
        path: req.url.split('?')[0],
        params: req.body,
        result: e.ok ? 1 : 0,
        errorMessage: e.ok ? null : (e.error ?? null),
      },
    );
  }

  r.get(
    `${base}/tickets`,
    {
      config: {
        ...reads,
        answer: PublicTickets,
        summary: '参观预约（公开）· 可预约日期与场次（仅已放票的；含剩余名额、已关闭原因）及预约须知',
      },
    },
    async () => v.tickets(),
  );

  r.post(
    `${base}/sendCode`,
    {
      schema: { body: SendCodeBody },
      config: {
        public: true,
        rateLimit: perAddress(SEND_CODE_PER_MINUTE),
        audit: false,
        answer: SendCodeAnswer,
        summary: '参观预约（公开）· 获取手机验证码（6 位，5 分钟有效；同一手机号 60 秒一次、每天 10 次）',
      },
    },
    async (req) => v.sendCode(req.body.phone),
  );

  r.post(
    `${base}/login`,
    {
      schema: { body: VisitorLoginBody },
      config: {
        public: true,
        rateLimit: perAddress(LOGIN_PER_MINUTE),
        audit: false,
        answer: VisitorSessionAnswer,
        summary: '参观预约（公开）· 验证码验证，开启 2 小时的访客会话（Cookie，或 wantToken 时答令牌）',
      },
    },
    async (req, reply) => {
      const s = await v.login(req.body.phone, req.body.smsCode);
      reply.setCookie(VISITOR_COOKIE, s.token, {
        path: COOKIE_PATH,
        maxAge: VISITOR_SESSION_MS / 1000,
        sameSite: 'strict',
        secure: deps.secureCookies,
        httpOnly: true,
      });
      return { phone: s.phone, expiresAt: s.expiresAt, ...(req.body.wantToken ? { token: s.token } : {}) };
    },
  );

  r.post(
    `${base}/logout`,
    { config: { ...writes, audit: false, summary: '参观预约（公开）· 退出访客会话' } },
    async (req, reply) => {
      await v.logout(tokenOf(req));
      reply.clearCookie(VISITOR_COOKIE, { path: COOKIE_PATH });
      return DONE;
    },
  );

  r.get(
    `${base}/me`,
    {
      config: {
        ...reads,
        answer: VisitorSessionAnswer,
        summary: '参观预约（公开）· 当前访客会话（手机号打码、到期时间）',
      },
    },
    async (req) => {
      const s = await visitorOf(req);
      return { phone: maskPhone(s.phone), expiresAt: s.expiresAt };
    },
  );

  r.post(
    `${base}/book`,
    {
      schema: { body: PublicBookBody },
      config: {
        ...writes,
        audit: false,
        answer: PublicBooked,
        summary: '参观预约（公开）· 预约（联系电话为已验证的手机号；规则同前台预约；支持 Idempotency-Key）',
      },
    },
    async (req, reply) => {
      const s = await visitorOf(req);
      const key = req.headers['idempotency-key'];
      let claimed: string | null = null;
      if (typeof key === 'string') {
        if (!KEY_RE.test(key))
          return sendEnvelope(
            req,
            reply,
            400,
            ErrorCode.badRequest,
            'Idempotency-Key 格式不正确（8–100 位字母、数字或 _.:-）',
          );
        const c = await v.idempotency.claim(s.phone, key, `POST ${base}/book`);
        if (!c.claimed) {
          if (!c.prior) return sendEnvelope(req, reply, 409, ErrorCode.inProgress, '请求状态已变化，请重试');
          if (c.prior.response === null)
            return sendEnvelope(req, reply, 409, ErrorCode.inProgress, '相同的请求正在处理中，请稍候');
          // The first answer again; nothing is booked twice.
          reply.header('idempotent-replay', 'true');
          return JSON.parse(c.prior.response) as unknown;
        }
        claimed = key;
      }
      try {
        const made = await v.book(s.phone, req.body);
        if (claimed) await v.idempotency.complete(s.phone, claimed, made);
        audit(req, s.phone, { action: '新增', targetId: made.id, ok: true });
        return made;
      } catch (err) {
        // A refusal changed nothing: the same key may try again (e.g. with fewer visitors).
        if (claimed) await v.idempotency.release(s.phone, claimed);
        audit(req, s.phone, { action: '新增', targetId: null, ok: false, error: (err as Error).message });
        throw err;
      }
    },
  );

  r.get(
    `${base}/orderList`,
    {
      config: {
        ...reads,
        answer: z.array(PublicOrder),
        summary: '参观预约（公开）· 我的预约（本手机号的预约）',
      },
    },
    async (req) => v.orders((await visitorOf(req)).phone),
  );

  r.get(
    `${base}/orderDetail`,
    {
      schema: { querystring: PublicIdQuery },
      config: {
        ...reads,
        answer: PublicOrderDetail,
        summary: '参观预约（公开）· 预约详情与入馆码（仅本手机号的预约）',
      },
    },
    async (req) => v.order((await visitorOf(req)).phone, req.query.id),
  );

  r.post(
    `${base}/cancel`,
    {
      schema: { body: PublicCancelBody },
      config: {
        ...writes,
        audit: false,
        answer: PublicCancelled,
        summary: '参观预约（公开）· 取消预约（参观当日取消截止时间前、场次开始前；名额退回）',
      },
    },
    async (req) => {
      const s = await visitorOf(req);
      try {
        const done = await v.cancel(s.phone, req.body);
        audit(req, s.phone, { action: '修改', targetId: done.id, ok: true });
        return done;
      } catch (err) {
        audit(req, s.phone, {
          action: '修改',
          targetId: req.body.id,
          ok: false,
          error: (err as Error).message,
        });
        throw err;
      }
    },
  );
}
