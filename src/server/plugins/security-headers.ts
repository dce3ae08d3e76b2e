import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers (CSP, HSTS, nosniff, frame and referrer policies…) on every
 * answer, computed once. Two kinds of answer trade the document's headers for fewer:
 * - the built scripts and style sheets under /assets drop DOCUMENT_ONLY (plugins/web.ts,
 *   where the file actually sent is known);
 * - the API's JSON answers take apiAnswerHeaders (plugins/envelope.ts).
 *
 * @fastify/helmet built a new helmet middleware on every request
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

/**
 * Headers that only a document (or a worker's own script) acts on: the page's CSP and framing,
 * referrer, cross-origin and legacy IE policies. What stays on every answer: nosniff, the
 * resource policy (no other site may load ours) and HSTS (with TLS).
 */
export const DOCUMENT_ONLY = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/**
 * The policy of an API answer in JSON (the envelope): nothing may load from it and nothing may
 * frame it. The app reads these answers with fetch, where a document's policies do nothing; a
 * person who opens one in a tab gets a JSON document, and this is the policy it needs (OWASP's
 * REST guidance). The page's own policy (some 430 bytes) and the other document-only headers
 * were about 650 of the 900 bytes of headers on every call, written by the server and parsed
 * by the tablet at every listing, search and poll (issue 25: a signed-in call's fixed cost).
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Trades the document's headers set at onRequest for the API's (see API_CSP). */
export function apiAnswerHeaders(raw: ServerResponse) {
  for (const name of DOCUMENT_ONLY) raw.removeHeader(name);
  raw.setHeader('content-security-policy', API_CSP);
}
