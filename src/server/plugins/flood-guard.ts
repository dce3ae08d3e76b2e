import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { DRIVE_PREFIX, MUSEUM_PREFIX } from '../../shared/api/envelope';
import { clientAddress } from '../client-address';

/*
 * The general flood guard of the API (issue 16 §6). A museum's tablets usually reach the server
 * from one address (one NAT, one proxy), and one grid of 200 thumbnails is 200 requests, so a
 * limit per address refused a whole museum once a few people browsed photos. The limit is kept
 * per signed-in person instead; calls without a valid session (sign-in, share visitors, anything
 * with a missing or made-up token) share a generous ceiling per address.
 *
 * The person is the session the auth plugin looked up in its onRequest hook (req.caller): a
 * token counts as a person only when it is a live session, so a flooder sending random tokens
 * gets no fresh bucket per request and stays under its address's ceiling. The limiter's hook is
 * route-level onRequest, which Fastify runs after the instance's onRequest hooks, so the caller
 * is known when the key is made. Sessions are refused later (preParsing): made-up tokens are
 * counted before they are answered 999.
 *
 * Counters live in the process (@fastify/rate-limit's LocalStore), or with REDIS_URL in Redis,
 * shared by every instance (ARCHITECTURE §10): a person's 1,200 a minute are 1,200 whichever
 * instance each request lands on. Routes' own limits (sign-in, share codes, chunks) follow.
 * If Redis is unreachable the guard lets requests through rather than failing them all: it is
 * a flood guard, and the sign-in and share-code failure counters it would back up are in the
 * database.
 */

const isApi = (url: string) => url.startsWith(MUSEUM_PREFIX) || url.startsWith(DRIVE_PREFIX);

/** The key an address is counted under, by every per-address limit. */
const addressKey = (req: FastifyRequest) => `ip:${clientAddress(req.ip)}`;

/** The general limit's key: the signed-in person, else the client address. */
const floodKey = (req: FastifyRequest) => (req.caller ? `user:${req.caller.id}` : addressKey(req));

/**
 * A route's own limit per client address, signed in or not (sign-in calls, share-code checks):
 * these guard against guessing from one place, so a session must not buy a separate count.
 */
export const perAddress = (max: number) => ({ max, timeWindow: 60_000, keyGenerator: addressKey });

/** Distinct people and addresses remembered per minute; beyond it the least recent are forgotten. */
const COUNTERS_KEPT = 50_000;

export async function registerFloodGuard(
  app: FastifyInstance,
  limits: { perPerson: number; anonymousPerAddress: number },
  shared?: { client: Redis; nameSpace: string },
) {
  await app.register(rateLimit, {
    ...(shared ? { redis: shared.client, nameSpace: shared.nameSpace, skipOnError: true } : {}),
    timeWindow: 60_000,
    keyGenerator: floodKey,
    max: (_req, key) => (key.startsWith('user:') ? limits.perPerson : limits.anonymousPerAddress),
    cache: COUNTERS_KEPT,
    // Pages and assets are not counted; a route's own `config.rateLimit` replaces this limit
    // (with this key unless it names another, e.g. perAddress).
    allowList: (req) => !isApi(req.url),
    // The x-ratelimit-* trio on every answer under the limit: nothing of ours reads them, and
    // each call carried them (issue 25: a call's fixed cost). A refused call still says when to
    // try again (retry-after, and the trio).
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `请求过于频繁，请 ${Math.ceil(ctx.ttl / 1000)} 秒后再试`,
    }),
  });
}
