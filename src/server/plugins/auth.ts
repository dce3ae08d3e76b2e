import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  DRIVE_PREFIX,
  ErrorCode,
  MUSEUM_PREFIX,
  SESSION_EXPIRED_MESSAGE,
  SESSION_EXPIRED_STATUS,
} from '../../shared/api/envelope';
import type { AuthService, SessionUser } from '../modules/auth/auth.service';
import { forbidden } from '../errors';
import { sendEnvelope } from './envelope';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every API request that is not public; routes may rely on it. */
    user: SessionUser;
    /**
     * The live session the request's token names, with its roles, looked up in onRequest
     * (before the flood guard counts the request, which keys by it); null without one. Not yet
     * authorisation: routes use `user`.
     */
    caller: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** The route needs no session (sign-in). */
    public?: boolean;
    /**
     * A share visitor's route: a session is used when present but not needed ('always': the
     * share page's calls; 'withBatch': preview and download, only when the query names a
     * `shareBatchNum`). `req.user` is then null for anonymous visitors. With SHARE_REQUIRE_LOGIN
     * every share route needs a session.
     */
    shareVisitor?: 'always' | 'withBatch';
    /**
     * A GET that changes something (the spec's GET attach/deleteAttachment): like every
     * mutation it needs the `token` header; the cookie alone does not authorise it (CSRF).
     */
    mutation?: boolean;
  }
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request may go on without a session as a share visitor (see shareVisitor). */
function anonymousShareRead(req: FastifyRequest): boolean {
  const mode = req.routeOptions.config.shareVisitor;
  if (mode === 'always') return true;
  const q = req.query as Record<string, unknown> | undefined;
  return mode === 'withBatch' && typeof q?.shareBatchNum === 'string';
}

/**
 * The session check. The token comes from the `token` header, or from the `token` cookie for
 * GETs only: media and download elements cannot set headers, while a mutation must carry the
 * header, which a cross-site form cannot, so the cookie never authorises a change (CSRF).
 * A missing, unknown, expired or disabled session answers HTTP 999 (spec/office.md §8).
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { auth: AuthService; shareRequireLogin: boolean }) => {
    app.decorateRequest('user', null as unknown as SessionUser);
    app.decorateRequest('caller', null);
    const isApi = (req: FastifyRequest) =>
      req.url.startsWith(MUSEUM_PREFIX) || req.url.startsWith(DRIVE_PREFIX);

    // onRequest: who is calling, in one indexed read, so the flood guard (a route-level
    // onRequest hook, run after this one) counts a live session's requests against its person
    // and everything else against the address. Nothing is refused here.
    app.addHook('onRequest', async (req) => {
      if (!isApi(req) || req.routeOptions.config.public) return;
      const header = req.headers.token;
      const fromHeader = typeof header === 'string' && header ? header : undefined;
      const cookieOk = SAFE.has(req.method) && !req.routeOptions.config.mutation;
      const token = fromHeader ?? (cookieOk ? req.cookies.token : undefined);
      req.caller = (token && (await opts.auth.lookup(token))) || null;
    });

    // preParsing, after the flood guard: requests with made-up tokens are counted before they
    // are refused, and bodies are never parsed without a session.
    app.addHook('preParsing', async (req, reply) => {
      if (!isApi(req) || req.routeOptions.config.public) return;
      const caller = req.caller;
      if (!caller && !opts.shareRequireLogin && anonymousShareRead(req)) return;
      if (!caller) {
        return sendEnvelope(
          req,
          reply,
          SESSION_EXPIRED_STATUS,
          ErrorCode.sessionExpired,
          SESSION_EXPIRED_MESSAGE,
        );
      }
      req.user = caller;
    });
  },
  // Named: fastify-plugin names an anonymous plugin from a stack trace (src/server/stack-map.ts).
  { name: 'auth' },
);

/**
 * For the spec's GET calls that change data (`…/delete`): like every mutation, they must carry
 * the token in the header. The cookie also rides on a plain link from another site
 * (SameSite=Lax), so a GET it alone authorises could be forged (CSRF).
 */
export function requireTokenHeader(req: FastifyRequest) {
  const header = req.headers.token;
  if (typeof header !== 'string' || !header) throw forbidden('此操作须在馆务云页面中进行，请刷新页面后重试');
}
