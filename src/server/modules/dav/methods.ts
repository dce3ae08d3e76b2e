import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatSize } from '../../../shared/drive/file-types';
import { joinName, nameProblem } from '../../../shared/drive/names';
import { BlobTooLargeError } from '../../storage/blob-store';
import { type FixedAreaKind, areaOf } from '../drive/area';
import { sendDownload } from '../drive/download';
import {
  COPY_INTO_SELF,
  MOVE_INTO_SELF,
  REPLACE_ANCESTOR,
  SAME_NAME,
  TARGET_MISSING,
} from '../drive/drive.service';
import type { LogAction } from '../../../shared/api/syslog';
import * as repo from './dav.repo';
import type { LockRow } from './dav.repo';
import { DavError, davErrorOf, statusLine } from './http';
import { covers, timeoutOf } from './locks';
import { contentTypeOf } from './mime';
import {
  AREA_DIRS,
  type DavAddress,
  folderOfSegs,
  hrefOf,
  lockPathOf,
  parentFolder,
  parseDavPath,
} from './paths';
import {
  DEAD_AREA_MAX,
  DEAD_MAX,
  DEAD_VALUE_MAX,
  type Desc,
  MS_NS,
  type Want,
  activeLock,
  descOfRow,
  parsePropfind,
  parseProppatch,
  responseOf,
  scratchType,
  storedValue,
  wantsDead,
  wantsQuota,
} from './props';
import {
  type DavCtx,
  type DavDeps,
  type Guards,
  type Resolver,
  SCRATCH_AREA_MAX,
  SCRATCH_MAX,
  SCRATCH_MS,
  type Target,
  etagOf,
  hrefOfTarget,
  isCollection,
  isHiddenName,
  lockPath,
  pathOfReference,
} from './resource';
import { DAV_NS, XML_DECL, child, elements, esc, is, parseXml, serializeChildren } from './xml';

/*
 * The WebDAV methods (RFC 4918 §9), each over the drive service's own calls, so names, rights,
 * quota, the recycle bin and copy-on-write content are the drive's. Every method that changes
 * something says what it did (`audit`) for the system log.
 */

export interface DavEnv {
  deps: DavDeps;
  resolver: Resolver;
  guards: Guards;
}

/** What the system log records of a change (dav.plugin writes it once the answer is sent). */
export interface DavAudit {
  action: LogAction;
  targetId?: number | string | null;
  params: Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyRequest {
    davAudit: DavAudit | null;
    davError: string | null;
  }
}

export const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';

/** Request bodies of PROPFIND, PROPPATCH and LOCK are small XML documents. */
const XML_BODY_MAX = 1024 * 1024;
/** A listing is written a page of entries at a time. */
const PAGE = 500;

const MULTISTATUS_OPEN = `${XML_DECL}<D:multistatus xmlns:D="DAV:">`;
const MULTISTATUS_CLOSE = '</D:multistatus>';

function audit(req: FastifyRequest, a: DavAudit) {
  req.davAudit = a;
}

/** The decoded path of a target, as the system log shows it. */
export function shownPath(addr: DavAddress): string {
  if (addr.area === null) return '/dav/';
  const area = AREA_DIRS.find((a) => a.kind === addr.area)!.name;
  return `/dav/${[area, ...addr.segs].join('/')}${addr.slash && addr.segs.length ? '/' : ''}`;
}

function bodyStream(req: FastifyRequest): Readable | null {
  const b = req.body as Readable | undefined;
  return b && typeof b.pipe === 'function' ? b : null;
}

/** A small body as text; 413 past `max`. An absent body is ''. */
async function readText(req: FastifyRequest, max = XML_BODY_MAX): Promise<string> {
  const s = bodyStream(req);
  if (!s) return '';
  const parts: Buffer[] = [];
  let n = 0;
  for await (const c of s) {
    n += (c as Buffer).length;
    if (n > max) throw new DavError(413, '请求内容过大');
    parts.push(c as Buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Whether the request carries a body (MKCOL must not). */
function hasBody(req: FastifyRequest): boolean {
  const len = req.headers['content-length'];
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined;
}

type Depth = '0' | '1' | 'infinity' | null;
function depthOf(req: FastifyRequest): Depth {
  const d = req.headers.depth;
  if (d === undefined) return null;
  const v = String(d).trim().toLowerCase();
  if (v === '0' || v === '1' || v === 'infinity') return v;
  throw new DavError(400, 'Depth 请求头只能是 0、1 或 infinity');
}

/** An area's target narrowed (not the /dav/ root). */
type InAreaTarget = Exclude<Target, { kind: 'root' }>;

function parentLockPath(t: InAreaTarget): string {
  return lockPathOf(t.segs.slice(0, -1), true);
}

const nameOf = (t: InAreaTarget) => t.segs[t.segs.length - 1]!;

// ------------------------------------------------------------------ OPTIONS

export function options(reply: FastifyReply) {
  return reply
    .header('dav', '1, 2')
    .header('ms-author-via', 'DAV')
    .header('allow', ALLOW)
    .header('content-length', '0')
    .code(200)
    .send();
}

// ------------------------------------------------------------------ GET / HEAD

const FOLDER_TEXT =
  '这是馆务云网盘的 WebDAV 文件夹，请在电脑的文件管理器或手机的文件应用中连接此地址（见个人中心）。\n';

export async function get(env: DavEnv, ctx: DavCtx, req: FastifyRequest, reply: FastifyReply, t: Target) {
  const head = req.method === 'HEAD';
  if (t.kind === 'none') throw new DavError(404, '文件不存在或已被删除');
  if (isCollection(t)) {
    reply.type('text/plain; charset=utf-8');
    return head
      ? reply.header('content-length', Buffer.byteLength(FOLDER_TEXT)).send()
      : reply.send(FOLDER_TEXT);
  }
  if (t.kind === 'scratch') {
    reply.header('etag', await etagOf(env.deps, t));
    reply.header('last-modified', new Date(Number(t.row.updated_at)).toUTCString());
    reply.header('content-disposition', 'attachment');
    reply.type('application/octet-stream').header('content-length', t.row.size);
    return reply.send(head ? undefined : Buffer.from(t.row.content));
  }
  if (t.kind !== 'entry') throw new DavError(404, '文件不存在或已被删除');
  const content = await env.deps.drive.contentOf(t.area, t.row.id);
  if (!content) throw new DavError(404, '文件不存在或已被删除');
  const plan = {
    kind: 'file' as const,
    name: joinName(t.row.file_name, t.row.extend_name),
    md5: content.md5,
    size: Number(content.size),
    mtime: Number(t.row.upload_time),
  };
  return sendDownload(req, reply, plan, env.deps.store, { head, type: contentTypeOf(t.row.extend_name) });
}

// ------------------------------------------------------------------ PUT

export async function put(
  env: DavEnv,
  ctx: DavCtx,
  req: FastifyRequest,
  reply: FastifyReply,
  t: Target,
  addr: DavAddress,
) {
  const { drive } = env.deps;
  if (t.kind === 'root' || t.kind === 'areaRoot')
    throw new DavError(405, '这里不能上传文件，请进入“我的网盘”或资料库中的文件夹');
  const name = nameOf(t);
  const declared = declaredLength(req);
  audit(req, {
    action: t.kind === 'none' ? '新增' : '修改',
    targetId: t.kind === 'entry' ? t.row.id : null,
    params: { path: shownPath(addr), size: declared },
  });
  if (t.kind === 'entry' && t.row.is_dir === 1) throw new DavError(405, '同名文件夹已存在，不能上传为文件');
  if (t.kind === 'none' && !t.parentExists) throw new DavError(409, TARGET_MISSING);
  const area = await env.resolver.manage(ctx.user, t.areaKind);
  if (t.kind === 'none') {
    const problem = nameProblem(name, '文件名称');
    if (problem) throw new DavError(400, problem);
  }
  await env.guards.checkIf(ctx, t);
  await env.guards.requireTokens(ctx, t.areaKind, area.space, [
    { path: lockPath(t) },
    ...(t.kind === 'none' ? [{ path: parentLockPath(t) }] : []),
  ]);
  const max = env.deps.putMaxBytes;
  if (declared !== null && declared > max) {
    throw new DavError(413, `文件不能超过 ${formatSize(max)}`);
  }
  const body = bodyStream(req) ?? Readable.from([]);

  if (isHiddenName(name)) {
    const bytes = await readLimited(body, SCRATCH_MAX, '系统隐藏文件过大，未保存');
    const now = Date.now();
    const held = await repo.scratchBytes(env.deps.db, area.space, now, {
      folder: parentFolder(t.segs),
      name,
    });
    if (held + bytes.length > SCRATCH_AREA_MAX) throw new DavError(507, '系统隐藏文件占用过多，未保存');
    const { created } = await repo.putScratch(env.deps.db, {
      space: area.space,
      file_path: parentFolder(t.segs),
      name,
      content: bytes,
      size: bytes.length,
      created_by: ctx.user.id,
      updated_at: now,
      expires_at: now + SCRATCH_MS,
    });
    req.davAudit = null; // hidden system files are not the person's work: not logged
    return reply.code(created ? 201 : 204).send();
  }

  const room = await drive.room(area);
  const old = t.kind === 'entry' ? Number(t.row.file_size) : 0;
  const quotaLimit = room === null ? null : Math.max(0, room + old);
  const limit = quotaLimit === null ? max : Math.min(max, quotaLimit);
  if (declared !== null && quotaLimit !== null && declared > quotaLimit) {
    // The drive's own words: how much room is left and how much the file needs.
    await drive.checkRoom(area, declared - old);
  }
  try {
    if (t.kind === 'entry') {
      const r = await drive.replaceContent(area, t.row.id, body, {
        editable: () => true,
        unchanged: 'ignore',
        maxBytes: limit,
      });
      req.davAudit!.params.size = r.fileSize;
      return reply.code(204).header('etag', `"${r.md5}"`).send();
    }
    const placed = await drive.addFile({
      area,
      filePath: parentFolder(t.segs),
      fullName: name,
      content: body,
      maxBytes: limit,
      requireFolder: true,
      exactName: true,
    });
    req.davAudit!.targetId = placed.userFileId;
    req.davAudit!.params.size = placed.size;
    return reply.code(201).header('etag', `"${placed.md5}"`).send();
  } catch (err) {
    if (err instanceof BlobTooLargeError) {
      if (quotaLimit !== null && limit === quotaLimit) {
        throw new DavError(507, `存储空间不足：还剩 ${formatSize(Math.max(0, room!))}，文件未保存`);
      }
      throw new DavError(413, `文件不能超过 ${formatSize(max)}`);
    }
    const e = davErrorOf(err);
    if (e?.message === SAME_NAME) throw new DavError(409, SAME_NAME);
    if (e?.message === TARGET_MISSING) throw new DavError(409, TARGET_MISSING);
    throw err;
  }
}

/** The size a PUT declares: Content-Length, or macOS Finder's X-Expected-Entity-Length with chunked bodies. */
function declaredLength(req: FastifyRequest): number | null {
  for (const h of ['content-length', 'x-expected-entity-length']) {
    const v = req.headers[h];
    if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  }
  return null;
}

async function readLimited(body: Readable, max: number, tooLarge: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  let n = 0;
  for await (const c of body) {
    n += (c as Buffer).length;
    if (n > max) throw new DavError(507, tooLarge);
    parts.push(c as Buffer);
  }
  return Buffer.concat(parts);
}

// ------------------------------------------------------------------ MKCOL

export async function mkcol(
  env: DavEnv,
  ctx: DavCtx,
  req: FastifyRequest,
  reply: FastifyReply,
  t: Target,
  addr: DavAddress,
) {
  if (t.kind !== 'none') throw new DavError(405, '该位置已存在同名的文件或文件夹');
  audit(req, { action: '新增', params: { path: shownPath(addr) } });
  if (hasBody(req)) throw new DavError(415, '新建文件夹的请求不能带内容');
  if (!t.parentExists) throw new DavError(409, TARGET_MISSING);
  const name = nameOf(t);
  if (isHiddenName(name)) throw new DavError(403, `“${name}”是系统隐藏文件的名称，不能用作文件夹名称`);
  const problem = nameProblem(name, '文件夹名称');
  if (problem) throw new DavError(400, problem);
  const area = await env.resolver.manage(ctx.user, t.areaKind);
  await env.guards.checkIf(ctx, t);
  await env.guards.requireTokens(ctx, t.areaKind, area.space, [
    { path: parentLockPath(t) },
    { path: lockPath(t) },
  ]);
  try {
    const { userFileId } = await env.deps.drive.createFolder(area, {
      fileName: name,
      filePath: parentFolder(t.segs),
    });
    req.davAudit!.targetId = userFileId;
  } catch (err) {
    const e = davErrorOf(err);
    if (e?.message === SAME_NAME) throw new DavError(405, '该位置已存在同名的文件或文件夹');
    if (e?.message === TARGET_MISSING) throw new DavError(409, TARGET_MISSING);
    throw err;
  }
  return reply.code(201).send();
}

// ------------------------------------------------------------------ DELETE

export async function del(
  env: DavEnv,
  ctx: DavCtx,
  req: FastifyRequest,
  reply: FastifyReply,
  t: Target,
  addr: DavAddress,
) {
  if (t.kind === 'root' || t.kind === 'areaRoot') throw new DavError(403, '不能删除网盘或资料库本身');
  if (t.kind === 'none') throw new DavError(404, '文件不存在或已被删除');
  const depth = depthOf(req);
  if (isCollection(t) && depth !== null && depth !== 'infinity') {
    throw new DavError(400, '删除文件夹时 Depth 只能是 infinity');
  }
  if (t.kind === 'entry')
    audit(req, { action: '删除', targetId: t.row.id, params: { path: shownPath(addr) } });
  const area = await env.resolver.remove(ctx.user, t.areaKind);
  const here = lockPath(t);
  await env.guards.checkIf(ctx, t);
  await env.guards.requireTokens(ctx, t.areaKind, area.space, [
    { path: here, subtree: true },
    { path: parentLockPath(t) },
  ]);
  if (t.kind === 'scratch') {
    await repo.deleteScratch(env.deps.db, t.row.id);
    return reply.code(204).send();
  }
  // Into the recycle bin, as the web app's 删除 does: restorable from 回收站.
  await env.deps.drive.remove(area, [t.row.id], 1);
  await env.deps.locks.forget(area.space, here);
  if (t.row.is_dir) await repo.deleteScratchUnder(env.deps.db, area.space, folderOfSegs(t.segs));
  return reply.code(204).send();
}

// ------------------------------------------------------------------ COPY / MOVE

export async function copyMove(
  env: DavEnv,
  ctx: DavCtx,
  req: FastifyRequest,
  reply: FastifyReply,
  t: Target,
  addr: DavAddress,
) {
  const move = req.method === 'MOVE';
  const verb = move ? '移动' : '复制';
  if (t.kind === 'root' || t.kind === 'areaRoot') throw new DavError(403, `不能${verb}网盘或资料库本身`);
  if (t.kind === 'none') throw new DavError(404, '文件不存在或已被删除');

  const destHeader = req.headers.destination;
  if (typeof destHeader !== 'string' || !destHeader)
    throw new DavError(400, `${verb}时缺少 Destination 请求头`);
  const destPath = pathOfReference(destHeader, ctx.host);
  if (destPath === null) throw new DavError(502, '目标地址不在本服务器上');
  const destAddr = parseDavPath(destPath);
  if (destAddr === 'outside' || destAddr === 'unknown') throw new DavError(409, '目标位置不存在');
  if ('bad' in destAddr) throw new DavError(400, destAddr.bad);
  if (destAddr.area === null || !destAddr.segs.length)
    throw new DavError(403, `不能${verb}到网盘或资料库的根位置之外`);
  if (destAddr.area !== t.areaKind) {
    throw new DavError(403, '“我的网盘”与资料库之间不能直接复制或移动，请下载后再上传');
  }
  const overwrite = String(req.headers.overwrite ?? 'T').toUpperCase();
  if (overwrite !== 'T' && overwrite !== 'F') throw new DavError(400, 'Overwrite 请求头只能是 T 或 F');
  const depth = depthOf(req);
  if (move && depth !== null && depth !== 'infinity') throw new DavError(400, '移动时 Depth 只能是 infinity');
  if (!move && depth === '1') throw new DavError(400, '复制时 Depth 只能是 0 或 infinity');

  const d = await env.resolver.resolve(ctx.user, destAddr);
  if (d.kind === 'root' || d.kind === 'areaRoot') throw new DavError(403, `不能${verb}到这里`);
  const destName = nameOf(d);
  audit(req, {
    action: move ? '修改' : '新增',
    targetId: t.kind === 'entry' ? t.row.id : null,
    params: { path: shownPath(addr), destination: shownPath(destAddr), overwrite },
  });
  if (lockPath(t) === lockPath(d) || (t.kind === 'entry' && d.kind === 'entry' && t.row.id === d.row.id)) {
    throw new DavError(403, '源地址与目标地址相同');
  }
  if (d.kind === 'none' && !d.parentExists) throw new DavError(409, TARGET_MISSING);
  const exists = d.kind !== 'none';
  if (exists && overwrite === 'F') throw new DavError(412, '目标位置已存在同名的文件或文件夹（未覆盖）');
  if (isHiddenName(destName) !== (t.kind === 'scratch')) {
    throw new DavError(
      403,
      '系统隐藏文件（._ 开头、.DS_Store、Thumbs.db）与普通文件之间不能互相复制或重命名',
    );
  }

  const area = await env.resolver.manage(ctx.user, t.areaKind);
  const destPlaces = [{ path: lockPath(d), subtree: true }, { path: parentLockPath(d) }];
  const srcPlaces = move ? [{ path: lockPath(t), subtree: true }, { path: parentLockPath(t) }] : [];
  await env.guards.checkIf(ctx, t);
  await env.guards.requireTokens(ctx, t.areaKind, area.space, [...srcPlaces, ...destPlaces]);

  if (t.kind === 'scratch') {
    req.davAudit = null;
    const now = Date.now();
    if (d.kind === 'scratch') await repo.deleteScratch(env.deps.db, d.row.id);
    if (move) {
      await repo.renameScratch(env.deps.db, t.row.id, parentFolder(d.segs), destName, now, now + SCRATCH_MS);
    } else {
      await repo.putScratch(env.deps.db, {
        space: area.space,
        file_path: parentFolder(d.segs),
        name: destName,
        content: t.row.content,
        size: t.row.size,
        created_by: ctx.user.id,
        updated_at: now,
        expires_at: now + SCRATCH_MS,
      });
    }
    return reply.code(exists ? 204 : 201).send();
  }

  const problem = nameProblem(destName, t.row.is_dir ? '文件夹名称' : '文件名称');
  if (problem && !(move && destName === nameOf(t))) throw new DavError(400, problem);
  const target = parentFolder(d.segs);
  try {
    if (move) {
      const r = await env.deps.drive.moveTo(area, t.row.id, target, destName, { replace: exists });
      await env.deps.locks.forget(area.space, lockPath(t));
      if (t.row.is_dir) {
        await repo.moveScratchUnder(env.deps.db, area.space, folderOfSegs(t.segs), folderOfSegs(d.segs));
      }
      return reply.code(r.replaced ? 204 : 201).send();
    }
    const from = { id: t.row.id, path: t.row.is_dir ? folderOfSegs(t.segs) : null };
    const shallow = depth === '0';
    const r = await env.deps.drive.copyTo(area, t.row.id, target, destName, {
      replace: exists,
      shallow,
      // Dead properties travel with a copy (RFC 4918 §9.8.2), in the copy's transaction.
      then: (trx, newId) =>
        repo.copyProps(trx, area.space, from, {
          id: newId,
          path: t.row.is_dir && !shallow ? folderOfSegs(d.segs) : null,
        }),
    });
    req.davAudit!.targetId = r.userFileId;
    return reply.code(r.replaced ? 204 : 201).send();
  } catch (err) {
    const e = davErrorOf(err);
    if (e && [COPY_INTO_SELF, MOVE_INTO_SELF, REPLACE_ANCESTOR].includes(e.message)) {
      throw new DavError(403, e.message);
    }
    if (e?.message === SAME_NAME) throw new DavError(412, '目标位置已存在同名的文件或文件夹（未覆盖）');
    if (e?.message === TARGET_MISSING) throw new DavError(409, TARGET_MISSING);
    throw err;
  }
}

// ------------------------------------------------------------------ PROPFIND

/** The caller's quota in the personal drive (RFC 4331), or null elsewhere. */
async function quotaOf(
  env: DavEnv,
  ctx: DavCtx,
  kind: FixedAreaKind | null,
  want: Want,
): Promise<Desc['quota']> {
  if ((kind !== null && kind !== 'personal') || !wantsQuota(want)) return null;
  const area = await env.resolver.manage(ctx.user, 'personal');
  const info = await env.deps.drive.storage(ctx.user.id, area.space);
  const room = await env.deps.drive.room(area);
  return { used: info.storageSize, available: Math.max(0, room ?? 0) };
}

export async function propfind(
  env: DavEnv,
  ctx: DavCtx,
  req: FastifyRequest,
  reply: FastifyReply,
  t: Target,
) {
  const depth = depthOf(req);
  if (depth === 'infinity') {
    throw new DavError(
      403,
      '不支持 Depth: infinity 的 PROPFIND（一次列出整个网盘），请逐层列出文件夹',
      '<D:propfind-finite-depth/>',
    );
  }
  // No Depth header: one level, as the peers do (a client leaving it out wants a listing).
  const listing = depth !== '0';
  const want = parsePropfind(await readText(req));
  if (t.kind === 'none') throw new DavError(404, '文件不存在或已被删除');
  const needDead = wantsDead(want);
  const { drive, locks, db } = env.deps;
  const now = Date.now();

  const chunks: string[] = [];
  let stream: AsyncGenerator<string> | null = null;

  if (t.kind === 'root') {
    const quota = await quotaOf(env, ctx, null, want);
    chunks.push(responseOf(virtualDesc('/dav/', '馆务云', quota, null, now), want));
    if (listing) {
      for (const a of AREA_DIRS) {
        const q = a.kind === 'personal' ? quota : null;
        const rootLocks = await locks.covering(areaOf(ctx.user.id, a.kind).space, '/', now);
        chunks.push(
          responseOf(virtualDesc(hrefOf(a.kind, [], true), a.name, q, rootLocks, now, a.kind), want),
        );
      }
    }
  } else if (t.kind === 'scratch') {
    chunks.push(
      responseOf(
        {
          href: hrefOfTarget(t),
          collection: false,
          displayName: nameOf(t),
          size: t.row.size,
          mtime: Number(t.row.updated_at),
          etag: await etagOf(env.deps, t),
          contentType: scratchType(nameOf(t)),
          locks: await locks.covering(t.area.space, lockPath(t), now),
          areaKind: t.areaKind,
          quota: null,
          dead: [],
        },
        want,
      ),
    );
  } else {
    const folderSegs = t.segs;
    const collection = isCollection(t);
    const quota = collection ? await quotaOf(env, ctx, t.areaKind, want) : null;
    const here = lockPath(t);
    const above = await locks.covering(t.area.space, here, now);
    if (t.kind === 'areaRoot') {
      const name = AREA_DIRS.find((a) => a.kind === t.areaKind)!.name;
      chunks.push(
        responseOf(virtualDesc(hrefOf(t.areaKind, [], true), name, quota, above, now, t.areaKind), want),
      );
    } else {
      const md5 = t.row.is_dir ? null : ((await drive.contentOf(t.area, t.row.id))?.md5 ?? null);
      const dead = needDead ? await repo.propsOf(db, [t.row.id]) : [];
      chunks.push(
        responseOf(
          descOfRow(t.row, { areaKind: t.areaKind, segs: t.segs, md5, locks: above, quota, dead }),
          want,
        ),
      );
    }
    if (listing && collection) {
      const folder = folderOfSegs(folderSegs);
      const below = await locks.under(t.area.space, folder, now);
      const inherited = above.filter((l) => l.depth === -1);
      const area = t.area;
      const areaKind = t.areaKind;
      stream = (async function* children() {
        for (let offset = 0; ; offset += PAGE) {
          const rows = await drive.childrenPage(area, folder, offset, PAGE);
          const dead = needDead
            ? await repo.propsOf(
                db,
                rows.map((r) => r.id),
              )
            : [];
          const byId = new Map<number, typeof dead>();
          for (const p of dead) byId.set(p.user_file_id, [...(byId.get(p.user_file_id) ?? []), p]);
          let out = '';
          for (const r of rows) {
            const segs = [...folderSegs, r.is_dir ? r.file_name : joinName(r.file_name, r.extend_name)];
            out += responseOf(
              descOfRow(r, {
                areaKind,
                segs,
                md5: r.md5,
                locks: [...inherited, ...below] as LockRow[],
                quota,
                dead: byId.get(r.id) ?? [],
              }),
              want,
            );
          }
          if (out) yield out;
          if (rows.length < PAGE) return;
        }
      })();
    }
  }

  const head = MULTISTATUS_OPEN + chunks.join('');
  const body = stream
    ? Readable.from(
        (async function* all() {
          yield head;
          for await (const c of stream!) yield c;
          yield MULTISTATUS_CLOSE;
        })(),
      )
    : head + MULTISTATUS_CLOSE;
  return reply.code(207).type('application/xml; charset=utf-8').send(body);
}

/** A collection that is no drive row: the /dav/ root or an area's root. */
function virtualDesc(
  href: string,
  name: string,
  quota: Desc['quota'],
  locks: LockRow[] | null,
  now: number,
  areaKind: FixedAreaKind | null = null,
): Desc {
  return {
    href,
    collection: true,
    displayName: name,
    size: null,
    mtime: now,
    etag: null,
    contentType: null,
    locks,
    areaKind,
    quota,
    dead: [],
  };
}

// ------------------------------------------------------------------ PROPPATCH

export async function proppatch(
  env: DavEnv,
  ctx: DavCtx,
  req: FastifyRequest,
  reply: FastifyReply,
  t: Target,
  addr: DavAddress,
) {
  const ops = parseProppatch(await readText(req));
  if (t.kind === 'none') throw new DavError(404, '文件不存在或已被删除');
  if (t.kind === 'root' || t.kind === 'areaRoot') throw new DavError(403, '网盘和资料库本身不能设置属性');
  const area = await env.resolver.manage(ctx.user, t.areaKind);
  await env.guards.checkIf(ctx, t);
  await env.guards.requireTokens(ctx, t.areaKind, area.space, [{ path: lockPath(t) }]);

  // Decide every instruction first (RFC 4918 §9.2: all or nothing), then apply in document order.
  const results = ops.map((o) => {
    if (o.el.ns === MS_NS) return { o, code: 200, store: false };
    if (o.el.ns === DAV_NS)
      return { o, code: 403, store: false, condition: '<D:cannot-modify-protected-property/>' };
    if (t.kind === 'scratch') return { o, code: 403, store: false };
    if (o.op === 'set' && storedValue(o.el).length > DEAD_VALUE_MAX) return { o, code: 507, store: false };
    return { o, code: 200, store: true };
  });
  if (t.kind === 'entry' && results.every((r) => r.code === 200)) {
    // The count after this patch, to bound what one resource may hold.
    const existing = await repo.propsOf(env.deps.db, [t.row.id]);
    const keys = new Set(existing.map((p) => `${p.ns}\n${p.name}`));
    for (const r of results) {
      if (!r.store) continue;
      const k = `${r.o.el.ns}\n${r.o.el.local}`;
      if (r.o.op === 'set') keys.add(k);
      else keys.delete(k);
    }
    const adding = results.reduce(
      (n, r) => n + (r.store && r.o.op === 'set' ? storedValue(r.o.el).length : 0),
      0,
    );
    const tooMany = keys.size > DEAD_MAX;
    const tooMuch =
      adding > 0 && (await repo.propCharsOfSpace(env.deps.db, area.space)) + adding > DEAD_AREA_MAX;
    if (tooMany || tooMuch) for (const r of results) if (r.store && r.o.op === 'set') r.code = 507;
  }
  const failed = results.some((r) => r.code !== 200);
  if (failed) for (const r of results) if (r.code === 200) r.code = 424;
  const changes = results.filter((r) => r.store);
  if (!failed && t.kind === 'entry' && changes.length) {
    audit(req, {
      action: '修改',
      targetId: t.row.id,
      params: { path: shownPath(addr), properties: changes.map((r) => `{${r.o.el.ns}}${r.o.el.local}`) },
    });
    const id = t.row.id;
    await env.deps.db.transaction().execute(async (trx) => {
      for (const r of changes) {
        if (r.o.op === 'set') await repo.setProp(trx, id, r.o.el.ns, r.o.el.local, storedValue(r.o.el));
        else await repo.removeProp(trx, id, r.o.el.ns, r.o.el.local);
      }
    });
  }
  const byCode = new Map<number, string[]>();
  for (const r of results) {
    const el = r.o.el;
    const name =
      el.ns === DAV_NS
        ? `<D:${el.local}/>`
        : el.ns
          ? `<x:${el.local} xmlns:x="${esc(el.ns)}"/>`
          : `<${el.local}/>`;
    byCode.set(r.code, [...(byCode.get(r.code) ?? []), name]);
  }
  const condition = results.find((r) => r.condition)?.condition ?? '';
  let out = `${MULTISTATUS_OPEN}<D:response><D:href>${esc(hrefOfTarget(t))}</D:href>`;
  for (const [code, names] of byCode) {
    const error = code === 403 && condition ? `<D:error>${condition}</D:error>` : '';
    out += `<D:propstat><D:prop>${names.join('')}</D:prop><D:status>${statusLine(code)}</D:status>${error}</D:propstat>`;
  }
  out += `</D:response>${MULTISTATUS_CLOSE}`;
  return reply.code(207).type('application/xml; charset=utf-8').send(out);
}

// ------------------------------------------------------------------ LOCK / UNLOCK

function lockAnswer(
  reply: FastifyReply,
  lock: LockRow,
  areaKind: FixedAreaKind,
  code: number,
  withToken: boolean,
) {
  if (withToken) reply.header('lock-token', `<${lock.token}>`);
  const body = `${XML_DECL}<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLock(lock, areaKind)}</D:lockdiscovery></D:prop>`;
  return reply.code(code).type('application/xml; charset=utf-8').send(body);
}

export async function lock(
  env: DavEnv,
  ctx: DavCtx,
  req: FastifyRequest,
  reply: FastifyReply,
  t: Target,
  addr: DavAddress,
) {
  if (t.kind === 'root') throw new DavError(403, '不能锁定 WebDAV 根目录');
  const text = await readText(req);
  const timeout = timeoutOf(typeof req.headers.timeout === 'string' ? req.headers.timeout : undefined);
  const area = await env.resolver.manage(ctx.user, t.areaKind);
  const here = lockPath(t);

  if (!text.trim()) {
    // A refresh: the If header names the lock (RFC 4918 §9.10.2), here or on a collection above.
    if (!ctx.submitted.size) throw new DavError(400, '刷新锁时需要在 If 请求头中提供锁令牌');
    for (const token of ctx.submitted) {
      const l = await env.deps.locks.byToken(token);
      if (l && l.space === area.space && covers(l, here) && l.user_id === ctx.user.id) {
        return lockAnswer(reply, await env.deps.locks.refresh(l, timeout), t.areaKind, 200, false);
      }
    }
    throw new DavError(412, '锁已过期或不属于此文件，请重新锁定');
  }

  let info;
  try {
    info = parseXml(text);
  } catch {
    throw new DavError(400, '请求内容不是有效的 XML，请检查后重试');
  }
  if (!is(info, DAV_NS, 'lockinfo')) throw new DavError(400, 'LOCK 的请求内容应为 DAV:lockinfo');
  const scope = child(info, DAV_NS, 'lockscope');
  const exclusive = scope ? elements(scope).some((e) => is(e, DAV_NS, 'exclusive')) : false;
  const shared = scope ? elements(scope).some((e) => is(e, DAV_NS, 'shared')) : false;
  const type = child(info, DAV_NS, 'locktype');
  if (exclusive === shared || !type || !child(type, DAV_NS, 'write')) {
    throw new DavError(400, 'LOCK 须指定独占或共享的写锁（lockscope、locktype）');
  }
  const ownerEl = child(info, DAV_NS, 'owner');
  const depth = depthOf(req);
  if (depth === '1') throw new DavError(400, '锁的 Depth 只能是 0 或 infinity');
  const collection = isCollection(t);

  if (t.kind === 'none') {
    if (!t.parentExists) throw new DavError(409, TARGET_MISSING);
    const problem = isHiddenName(nameOf(t)) ? null : nameProblem(nameOf(t), '文件名称');
    if (problem) throw new DavError(400, problem);
  }
  await env.guards.checkIf(ctx, t);
  // Making a file in a locked folder changes the folder: its lock's token is needed.
  if (t.kind === 'none')
    await env.guards.requireTokens(ctx, t.areaKind, area.space, [{ path: parentLockPath(t) }]);

  const taken = await env.deps.locks.take({
    space: area.space,
    path: here,
    depth: collection && depth !== '0' ? -1 : 0,
    exclusive,
    owner: ownerEl ? serializeChildren(ownerEl) : '',
    userId: ctx.user.id,
    timeoutS: timeout,
  });
  if ('conflict' in taken) {
    const root = hrefOf(
      t.areaKind,
      taken.conflict.path.split('/').filter(Boolean),
      taken.conflict.path.endsWith('/'),
    );
    throw new DavError(
      423,
      '该文件或文件夹已被锁定（可能正在被 Office 等程序编辑），请稍后再试',
      `<D:no-conflicting-lock><D:href>${esc(root)}</D:href></D:no-conflicting-lock>`,
    );
  }
  audit(req, {
    action: '修改',
    targetId: t.kind === 'entry' ? t.row.id : null,
    params: { path: shownPath(addr), lock: exclusive ? 'exclusive' : 'shared' },
  });

  let created = false;
  if (t.kind === 'none') {
    // A lock on an unmapped URL makes an empty file there (RFC 4918 §9.10.4), as Word and Finder expect.
    try {
      if (isHiddenName(nameOf(t))) {
        const now = Date.now();
        await repo.putScratch(env.deps.db, {
          space: area.space,
          file_path: parentFolder(t.segs),
          name: nameOf(t),
          content: Buffer.alloc(0),
          size: 0,
          created_by: ctx.user.id,
          updated_at: now,
          expires_at: now + SCRATCH_MS,
        });
        req.davAudit = null;
      } else {
        const placed = await env.deps.drive.addFile({
          area,
          filePath: parentFolder(t.segs),
          fullName: nameOf(t),
          content: Buffer.alloc(0),
          requireFolder: true,
          exactName: true,
        });
        req.davAudit = {
          action: '新增',
          targetId: placed.userFileId,
          params: { path: shownPath(addr), lock: exclusive ? 'exclusive' : 'shared' },
        };
      }
      created = true;
    } catch (err) {
      await env.deps.locks.release(taken.lock.token);
      throw err;
    }
  }
  return lockAnswer(reply, taken.lock, t.areaKind, created ? 201 : 200, true);
}

export async function unlock(
  env: DavEnv,
  ctx: DavCtx,
  req: FastifyRequest,
  reply: FastifyReply,
  t: Target,
  addr: DavAddress,
) {
  const header = req.headers['lock-token'];
  const token = typeof header === 'string' ? header.trim().replace(/^<|>$/g, '') : '';
  if (!token) throw new DavError(400, '解锁时缺少 Lock-Token 请求头');
  const mismatch = new DavError(409, '锁令牌与此地址不符，或锁已过期', '<D:lock-token-matches-request-uri/>');
  if (t.kind === 'root') throw mismatch;
  const l = await env.deps.locks.byToken(token);
  if (!l || l.space !== t.area.space || !covers(l, lockPath(t))) throw mismatch;
  if (l.user_id !== ctx.user.id) throw new DavError(403, '该锁由其他人持有，不能解除');
  audit(req, {
    action: '修改',
    targetId: t.kind === 'entry' ? t.row.id : null,
    params: { path: shownPath(addr), unlock: true },
  });
  await env.deps.locks.release(token);
  return reply.code(204).send();
}
