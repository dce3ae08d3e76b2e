import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode } from '../../shared/api/envelope';
import { AppError } from '../errors';

export const FORM_NEEDS_TOKEN = '表单格式的请求须在请求头中携带登录令牌（token），请登录后重试';

/**
 * `application/x-www-form-urlencoded` bodies (issue 16 §5; spec/office.md §7 says some museum
 * calls are "form-encoded"). Every value arrives as text, as a form sends it, and the route's
 * own schema reads it: flags take `true`/`false` and `1`/`0`, ids and numbers are coerced, a
 * key sent twice (`receiver=5&receiver=6`) becomes a list.
 *
 * Only with the `token` header. A form post is a "simple" request that any other web page can
 * make the browser send, with no preflight; JSON cannot be sent that way. Requiring the header,
 * which a foreign page cannot set, keeps the calls that need no session (sign-in, share codes)
 * out of reach of a cross-site form, as they were when only JSON was read.
 */
export const formBodyPlugin = fp(async function formBodyPlugin(app: FastifyInstance) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (req, body, done) => {
    const token = req.headers.token;
    if (typeof token !== 'string' || token === '') {
      done(new AppError(ErrorCode.badRequest, FORM_NEEDS_TOKEN, 415), undefined);
      return;
    }
    const out: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(body as string)) {
      const held = out[key];
      if (held === undefined) out[key] = value;
      else out[key] = Array.isArray(held) ? [...held, value] : [held, value];
    }
    done(null, out);
  });
});
