import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../shared/api/envelope';
import type { Db } from '../../db/index';
import { AppError } from '../../errors';
import type { BlobStore } from '../../storage/blob-store';
import type { AppPasswords } from '../auth/app-password.service';
import type { AuthService } from '../auth/auth.service';
import type { Areas } from '../drive/area';
import type { DriveService } from '../drive/drive.service';
import { type Syslog, whoOf } from '../syslog/syslog.service';
import * as repo from './dav.repo';
import { DavError, davErrorOf, sendDavError } from './http';
import { parseIfHeader, submittedTokens } from './if-header';
import { createDavLocks } from './locks';
import * as m from './methods';
import { DAV_PREFIX, parseDavPath } from './paths';
import { createGuards, createResolver, type DavCtx } from './resource';

/*
 * WebDAV (issue 26; README "Mount the drive (WebDAV)"): /dav/ for Windows Explorer, macOS
 * Finder and phone file apps, over the drive service. This plugin wires it into the server:
 *
 * - the methods (Fastify knows only the standard ones until told: registerDavMethods);
 * - every body left unread for the method to stream (PUT) or read (XML), never parsed here;
 * - authentication: HTTP Basic with an app password, over HTTPS only (plain HTTP only from the
 *   server itself, e.g. a reverse proxy or the tests), throttled like sign-in; OPTIONS is open,
 *   as Windows asks it before it sends credentials;
 * - answers never render on our origin (nosniff, a sandbox CSP, downloads as attachments);
 * - the system log: every change, and every refused credential, is written there (the capture
 *   hook sees only /wangpan and /singleMuseum, so this plugin writes its own entries).
 */

const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;

/** Teaches the server the WebDAV methods; call once on the root instance before any route. */
export function registerDavMethods(app: FastifyInstance) {
  for (const method of DAV_METHODS) app.addHttpMethod(method, { hasBody: true });
}

export const REALM = 'Basic realm="Guanwuyun WebDAV", charset="UTF-8"';
export const HTTPS_ONLY =
  '馆务云网盘只能通过 HTTPS 连接（应用密码不能在未加密的网络上传送）。请使用 https:// 开头的地址，或请管理员为服务器配置 HTTPS 证书（见 README“在局域网提供 HTTPS”）。\n';
export const ASK_CREDENTIALS = '请输入馆务云账号（或手机号）和在“个人中心”新建的应用密码（不是登录密码）。\n';

export interface DavPluginOptions {
  db: Db;
  drive: DriveService;
  areas: Areas;
  store: BlobStore;
  auth: AuthService;
  appPasswords: AppPasswords;
  syslog: Syslog;
  putMaxBytes: number;
}

function isLoopback(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
}

/** The user name and password of an HTTP Basic Authorization header, or null. */
export function basicCredentials(header: string | undefined): { user: string; pass: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 1) return null;
  return { user: text.slice(0, colon), pass: text.slice(colon + 1) };
}

function plain(reply: FastifyReply, code: number, text: string) {
  return reply.code(code).type('text/plain; charset=utf-8').send(text);
}

function challenge(reply: FastifyReply, text: string) {
  return plain(reply.header('www-authenticate', REALM), 401, text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * A refused request may leave its body unread (a PUT refused before its bytes). A small rest is
 * read and dropped so the connection can serve the next request; a large one closes the
 * connection instead of reading gigabytes nobody wants.
 */
function dropBody(req: FastifyRequest, reply: FastifyReply) {
  const body = req.body as Readable | undefined;
  if (!body || typeof body.resume !== 'function' || body.readableEnded) return;
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared <= 1024 * 1024) body.resume();
  else reply.header('connection', 'close');
}

export async function davPlugin(app: FastifyInstance, opts: DavPluginOptions) {
  const { auth, appPasswords, syslog } = opts;
  const locks = createDavLocks(opts.db);
  const deps = {
    db: opts.db,
    drive: opts.drive,
    areas: opts.areas,
    locks,
    store: opts.store,
    putMaxBytes: opts.putMaxBytes,
  };
  const resolver = createResolver(deps);
  const guards = createGuards(deps, resolver);
  const env: m.DavEnv = { deps, resolver, guards };

  // Bodies are the methods' own: PUT streams them into the blob store, the others read XML.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
  app.decorateRequest('davAudit', null);
  app.decorateRequest('davError', null);

  // Expired locks and hidden files go hourly (and are ignored by every query meanwhile).
  const sweep = () =>
    Promise.all([locks.sweep(), repo.deleteExpiredScratch(opts.db, Date.now())]).catch((err: unknown) =>
      app.log.error({ err }, 'dav sweep failed'),
    );
  await sweep();
  const sweeper = setInterval(() => void sweep(), 3600_000);
  sweeper.unref();
  app.addHook('onClose', async () => clearInterval(sweeper));

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', "default-src 'none'; sandbox");
    if (req.method === 'OPTIONS') return;
    if (req.protocol !== 'https' && !isLoopback(req.ip)) {
      return plain(reply.header('www-authenticate', REALM), 403, HTTPS_ONLY);
    }
    const creds = basicCredentials(req.headers.authorization);
    if (!creds) return challenge(reply, ASK_CREDENTIALS);
    try {
      const ref = await appPasswords.authenticate(creds.user, creds.pass, req.ip);
      req.user = await auth.withRoles(ref);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === ErrorCode.loginLocked) {
        const wait = Number(err.extra?.retryAfter ?? 60);
        return plain(reply.header('retry-after', String(wait)), 429, `${err.message}\n`);
      }
      syslog.record(
        { ...whoOf(req), userName: creds.user.slice(0, 100) },
        {
          action: '登录失败',
          module: '登录',
          table: 'user',
          params: { username: creds.user, via: 'WebDAV' },
          result: 0,
          errorMessage: err.message,
          path: req.url.split('?')[0],
        },
      );
      if (err.code === ErrorCode.accountDisabled) return plain(reply, 403, `${err.message}\n`);
      return challenge(reply, err.message);
    }
  });

  app.addHook('onResponse', (req, reply, done) => {
    const a = req.davAudit;
    if (a && req.user) {
      const ok = reply.statusCode < 400;
      syslog.record(req, {
        action: a.action,
        module: '网盘',
        table: 'user_file',
        targetId: a.targetId ?? null,
        params: a.params,
        result: ok ? 1 : 0,
        errorMessage: ok ? null : (req.davError ?? `HTTP ${reply.statusCode}`),
        path: typeof a.params.path === 'string' ? a.params.path : undefined,
        durationMs: reply.elapsedTime,
      });
    }
    done();
  });

  app.setErrorHandler((err, req, reply) => {
    const e = err as { code?: string };
    // (Not req.raw.destroyed: a request whose body was read to its end is destroyed too.)
    if (req.raw.socket?.destroyed || e.code === 'ECONNRESET' || e.code === 'ERR_STREAM_PREMATURE_CLOSE') {
      // The client went away mid-upload: the staged bytes are gone, nothing was stored.
      req.davError = '连接中断，文件未保存';
      return reply.send();
    }
    let dav = davErrorOf(err);
    if (!dav && (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === '23505')) {
      dav = new DavError(409, '同名文件已存在或已被他人修改，请刷新后重试');
    }
    if (!dav) {
      req.log.error({ err }, 'dav request failed');
      dav = new DavError(500, '服务器异常，请稍后再试');
    }
    req.davError = dav.message;
    dropBody(req, reply);
    return sendDavError(reply, dav);
  });

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.method === 'OPTIONS') return m.options(reply);
    const addr = parseDavPath(req.url.split('?')[0]!);
    if (addr === 'outside') throw new DavError(404, '地址不存在');
    if (addr === 'unknown') {
      const creates = ['PUT', 'MKCOL', 'LOCK'].includes(req.method);
      throw creates
        ? new DavError(403, '只能在“我的网盘”、“其他资源”或“高清图片”中新建或上传')
        : new DavError(404, '地址不存在：/dav/ 下只有“我的网盘”、“其他资源”和“高清图片”');
    }
    if ('bad' in addr) throw new DavError(400, addr.bad);
    const ifHeader = req.headers.if;
    const ifLists = typeof ifHeader === 'string' ? parseIfHeader(ifHeader) : null;
    if (typeof ifHeader === 'string' && !ifLists) throw new DavError(400, 'If 请求头格式不正确');
    const header = (h: string | string[] | undefined) => (typeof h === 'string' ? h : undefined);
    const ctx: DavCtx = {
      user: req.user,
      ifLists,
      submitted: submittedTokens(ifLists),
      host: req.headers.host,
      ifMatch: header(req.headers['if-match']),
      // GET and HEAD answer If-None-Match with 304 themselves (downloads).
      ifNoneMatch:
        req.method === 'GET' || req.method === 'HEAD' ? undefined : header(req.headers['if-none-match']),
    };
    const t = await resolver.resolve(req.user, addr);
    switch (req.method) {
      case 'GET':
      case 'HEAD':
        return m.get(env, ctx, req, reply, t);
      case 'PUT':
        return m.put(env, ctx, req, reply, t, addr);
      case 'MKCOL':
        return m.mkcol(env, ctx, req, reply, t, addr);
      case 'DELETE':
        return m.del(env, ctx, req, reply, t, addr);
      case 'COPY':
      case 'MOVE':
        return m.copyMove(env, ctx, req, reply, t, addr);
      case 'PROPFIND':
        return m.propfind(env, ctx, req, reply, t);
      case 'PROPPATCH':
        return m.proppatch(env, ctx, req, reply, t, addr);
      case 'LOCK':
        return m.lock(env, ctx, req, reply, t, addr);
      case 'UNLOCK':
        return m.unlock(env, ctx, req, reply, t, addr);
      default:
        reply.header('allow', m.ALLOW);
        throw new DavError(405, `不支持 ${req.method} 方法`);
    }
  };

  const methods = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'PATCH', ...DAV_METHODS];
  app.route({ method: methods, url: DAV_PREFIX, handler });
  app.route({ method: methods, url: `${DAV_PREFIX}/*`, handler });
  // Windows' WebDAV client asks the server's root what it speaks before it maps a drive.
  app.route({ method: 'OPTIONS', url: '/', handler: (_req, reply) => m.options(reply) });
}
