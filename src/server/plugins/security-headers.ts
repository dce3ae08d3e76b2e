import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers (CSP, HSTS, nosniff, frame and referrer policies…) on every
 * answer, computed once. (The built scripts and style sheets under /assets drop those that act
 * only on a document: plugins/web.ts, where the file actually sent is known.) @fastify/helmet built a new helmet middleware on every request
 * (`helmet(options)(req, res)`: parsing the options and the CSP directives again), about a
 * tenth of a signed-in call's fixed cost in the profile (tests/bench/README.md). Our options
 * hold no per-request part (no nonces, no directive functions), so the headers are the same
 * for every request: helmet runs once here against a recording response, and each request gets
 * the recorded headers, set on the raw response as helmet sets them (a route may still
 * override one with reply.header, as the public content routes do).
 */
export const securityHeaders = fp(async function securityHeaders(
  app: FastifyInstance,
  options: HelmetOptions,
) {
  const headers = staticHeaders(options);
  app.addHook('onRequest', (_req, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    done();
  });
});

/** The headers helmet sets for `options`, in its order. */
export function staticHeaders(options: HelmetOptions): [string, string][] {
  const set = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => void set.set(name, String(value)),
    removeHeader: (name: string) => void set.delete(name),
  };
  let failed: unknown;
  helmet(options)({} as never, res as never, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  return [...set.entries()];
}
