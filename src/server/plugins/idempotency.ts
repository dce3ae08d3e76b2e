import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode } from '../../shared/api/envelope';
import type { Jobs } from '../cluster/jobs';
import type { Db } from '../db/index';
import * as repo from '../modules/idempotency/idempotency.repo';
import { payloadKey, sendEnvelope } from './envelope';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { key: string; userId: number; replay?: unknown };
  }
}

/**
 * Marks this request's answer as holding a secret shown once (a new account's initial
 * password): the stored copy a replay gets has `data` in its place, so the secret is never
 * written to the idempotency table (ARCHITECTURE.md §6). No-op when the request has no key.
 */
export function replayInstead(req: FastifyRequest, data: unknown): void {
  if (req.idempotency) req.idempotency.replay = data;
}

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_RE = /^[A-Za-z0-9_.:-]{8,100}$/;
/** Keys are kept a week: longer than any offline outbox is expected to wait before replaying. */
export const IDEMPOTENCY_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * `Idempotency-Key` on mutations (ARCHITECTURE.md §3): the first request with a key claims it
 * and its answer is stored; a replay by the same user returns that answer verbatim and runs
 * nothing. The offline outbox relies on this to replay without applying twice. Answers of 5xx
 * release the key, so a request that failed on our side may be tried again.
 */
export const idempotencyPlugin = fp(async function idempotencyPlugin(
  app: FastifyInstance,
  opts: { db: Db; jobs?: Jobs },
) {
  const { db } = opts;

  app.addHook('preHandler', async (req, reply) => {
    const key = req.headers['idempotency-key'];
    // The spec's GET writes (…/delete) are marked `mutation` and count as writes too.
    const write = MUTATIONS.has(req.method) || req.routeOptions.config.mutation === true;
    if (typeof key !== 'string' || !write || !req.user) return;
    if (!KEY_RE.test(key)) {
      return sendEnvelope(
        req,
        reply,
        400,
        ErrorCode.badRequest,
        'Idempotency-Key 格式不正确（8–100 位字母、数字或 _.:-）',
      );
    }
    const fingerprint = `${req.method} ${req.url.split('?')[0]}`;
    const userId = req.user.id;
    if (await repo.claim(db, userId, key, fingerprint, Date.now())) {
      req.idempotency = { key, userId };
      return;
    }
    const prior = await repo.find(db, userId, key);
    if (!prior) {
      // Released between our claim and our read (its request failed); the client may retry.
      return sendEnvelope(req, reply, 409, ErrorCode.inProgress, '请求状态已变化，请重试');
    }
    if (prior.fingerprint !== fingerprint) {
      return sendEnvelope(req, reply, 422, ErrorCode.invalid, '该 Idempotency-Key 已用于另一个请求');
    }
    if (prior.response === null || prior.status_code === null) {
      return sendEnvelope(req, reply, 409, ErrorCode.inProgress, '相同的请求正在处理中，请稍候');
    }
    reply.header('idempotent-replay', 'true');
    reply.raw.statusCode = prior.status_code;
    return reply.type('application/json; charset=utf-8').send(prior.response);
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const claim = req.idempotency;
    if (!claim) return payload;
    req.idempotency = undefined;
    const status = reply.statusCode;
    if (status >= 500 || typeof payload !== 'string') {
      await repo.release(db, claim.userId, claim.key);
    } else {
      await repo.complete(db, claim.userId, claim.key, status, stored(req.url, payload, claim.replay));
    }
    return payload;
  });

  /** The answer to keep: the sent one, or with its payload swapped for the secret-free `replay`. */
  function stored(url: string, payload: string, replay: unknown): string {
    if (replay === undefined) return payload;
    try {
      const env = JSON.parse(payload) as Record<string, unknown>;
      if (env.success !== true) return payload;
      return JSON.stringify({ ...env, [payloadKey(url)]: replay });
    } catch {
      // Not an envelope: keep nothing a replay could show rather than the secret.
      return JSON.stringify({ success: true, code: 0, message: '成功', [payloadKey(url)]: replay });
    }
  }

  const purge = () => repo.purgeOlderThan(db, Date.now() - IDEMPOTENCY_TTL_MS);
  if (opts.jobs) {
    // Hourly, by one instance at a time (cluster/jobs.ts).
    await opts.jobs.every('idempotency-purge', 3600_000, purge);
  } else {
    const sweep = setInterval(() => void purge().catch(() => undefined), 3600_000);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));
  }
});
