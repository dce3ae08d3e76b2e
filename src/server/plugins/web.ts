import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { DRIVE_PREFIX, ErrorCode, MUSEUM_PREFIX } from '../../shared/api/envelope';
import { sendEnvelope } from './envelope';
import { DOCUMENT_ONLY } from './security-headers';

/**
 * A script or style sheet the page loads obeys the page's policies, so on /assets the
 * document-only headers (security-headers.ts) were about 900 bytes of every answer: a signed-in
 * launch fetches about a hundred chunks, and those headers were a sixth of what it moved over
 * the museum's Wi-Fi on HTTP/1.1 (issue 25, tests/bench/first-load.ts). Worker scripts
 * (`*.worker-*.js`) run under the policy of their own answer, so they keep all of it.
 */
const SUBRESOURCE = /^\/assets\/(?![^/]*\.worker-)[^/]+\.(js|css)$/;

/** Files that must be revalidated on every load, or an installed app would never see an update. */
const NEVER_STALE = new Set(['/sw.js', '/manifest.webmanifest', '/index.html', '/login.html', '/']);

/**
 * Serves the built front end. Hashed files under /assets are immutable; the service worker,
 * manifest and the two pages are `no-cache`. /login is the sign-in page (login.html: plain HTML
 * and a small script, issue 25); other unknown non-API GETs that accept HTML get index.html so
 * the client router can draw the route; unknown API paths get the envelope with 404.
 */
export const webPlugin = fp(async function webPlugin(app: FastifyInstance, opts: { distDir: string }) {
  const index = path.join(opts.distDir, 'index.html');
  const built = fs.existsSync(index);
  if (built) {
    await app.register(fastifyStatic, {
      root: opts.distDir,
      wildcard: true,
      // `/` is the app itself; without an index the static plugin would refuse the directory (403).
      index: ['index.html'],
      cacheControl: false,
      // The build writes .br and .gz beside each text asset (scripts/precompress.ts); the
      // request's Accept-Encoding picks one, with Vary: Accept-Encoding for caches.
      preCompressed: true,
      setHeaders(res, filePath) {
        // With preCompressed this is the file sent, which may be the .br or .gz sibling: the
        // rules below are about the file asked for.
        const sent = '/' + path.relative(opts.distDir, filePath).split(path.sep).join('/');
        const rel = sent.replace(/\.(br|gz)$/, '');
        res.setHeader('vary', 'accept-encoding');
        if (rel.startsWith('/assets/')) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        else if (NEVER_STALE.has(rel)) res.setHeader('cache-control', 'no-cache');
        else res.setHeader('cache-control', 'public, max-age=3600');
        if (rel === '/sw.js') res.setHeader('service-worker-allowed', '/');
        // `res` is the raw ServerResponse (@fastify/static's type names only what it documents);
        // tests/server/web.test.ts proves the headers go.
        if (SUBRESOURCE.test(rel))
          for (const name of DOCUMENT_ONLY) (res as unknown as ServerResponse).removeHeader(name);
      },
    });
    // Precompressed like every page (preCompressed above), whatever its query (`?redirect=`).
    // With its HEAD: the sign-in page asks HEAD /login whether the server answers.
    app.get('/login', { exposeHeadRoute: true }, (_req, reply) => reply.sendFile('login.html'));
  }

  app.setNotFoundHandler(async (req, reply) => {
    if (req.url.startsWith(MUSEUM_PREFIX) || req.url.startsWith(DRIVE_PREFIX)) {
      return sendEnvelope(req, reply, 404, ErrorCode.notFound, '接口不存在');
    }
    const wantsHtml =
      (req.method === 'GET' || req.method === 'HEAD') && /text\/html|\*\/\*/.test(req.headers.accept ?? '');
    const looksLikeFile = /\.[a-z0-9]+$/i.test(req.url.split('?')[0] ?? '');
    if (!wantsHtml || looksLikeFile)
      return reply.code(404).type('text/plain; charset=utf-8').send('未找到该文件');
    if (!built) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('前端尚未构建：请运行 npm start（会自动构建）');
    }
    reply.header('cache-control', 'no-cache');
    return reply.type('text/html; charset=utf-8').send(fs.createReadStream(index));
  });
});
