import type { FastifyInstance } from 'fastify';
import { DONE } from '../../plugins/envelope';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LoginBody } from '../../../shared/api/auth';
import type { Config } from '../../config';
import { perAddress } from '../../plugins/flood-guard';
import type { AuthService } from './auth.service';

export const TOKEN_COOKIE = 'token';
/** Sign-in calls per minute from one address. */
export const LOGIN_CALLS_PER_MINUTE = 120;

/** /singleMuseum/login/*: sign-in, sign-out, role functions, menu data and the current user. */
export function authRoutes(app: FastifyInstance, deps: { auth: AuthService; config: Config }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, config } = deps;

  r.post(
    '/login/webLogin',
    {
      schema: { body: LoginBody },
      // A flood guard only: guessing is stopped by the per-person and per-address failure
      // throttle. Staff arriving together behind one museum NAT address must all get in.
      config: { public: true, rateLimit: perAddress(LOGIN_CALLS_PER_MINUTE) },
    },
    async (req, reply) => {
      const result = await auth.login(req.body, req.ip);
      // The cookie lets <img>, <audio> and download links authenticate (GET only); JS reads it
      // to send the `token` header, as the spec's 7-day token cookie does.
      reply.setCookie(TOKEN_COOKIE, result.token, {
        path: '/',
        maxAge: config.sessionMs / 1000,
        sameSite: 'lax',
        secure: Boolean(config.tls),
        httpOnly: false,
      });
      return result;
    },
  );

  r.post('/login/logout', async (req, reply) => {
    await auth.logout(req.user.tokenHash);
    reply.clearCookie(TOKEN_COOKIE, { path: '/' });
    return DONE;
  });

  r.post('/login/getRoleFunction', async (req) => auth.roleFunction(req.user));
  r.get('/login/menu', async (req) => auth.menu(req.user));
  r.get('/login/userInfo', async (req) => auth.userInfo(req.user));
}
