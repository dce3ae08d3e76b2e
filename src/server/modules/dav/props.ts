import { joinName, splitName } from '../../../shared/drive/names';
import type { FixedAreaKind } from '../drive/area';
import type { FileRow } from '../drive/drive.repo';
import type { LockRow, PropRow } from './dav.repo';
import { DavError, statusLine } from './http';
import { covers } from './locks';
import { contentTypeOf } from './mime';
import { hrefOf, lockPathOf } from './paths';
import { DAV_NS, type XmlElement, child, elements, esc, is, parseXml, serializeElement } from './xml';

/*
 * Properties (RFC 4918 §9.1, §9.2, §15; RFC 4331 quotas): what PROPFIND asks for, how each
 * resource's live properties are written, and the dead properties PROPPATCH stores.
 *
 * Live properties are the drive's own facts and cannot be set (403 cannot-modify-protected-
 * property): everything in the DAV: namespace. Windows' own properties (Win32FileAttributes,
 * Win32CreationTime… in urn:schemas-microsoft-com:) are accepted and ignored: Explorer sets them
 * after every copy and fails the copy when refused, and the drive keeps its own times. Any other
 * property is a dead property, stored as the client sent it (namespaces, xml:lang and nested
 * elements kept), at most DEAD_MAX per resource, DEAD_VALUE_MAX characters each and
 * DEAD_AREA_MAX characters in one area: they are not charged to any quota, so they are kept small.
 */

export const MS_NS = 'urn:schemas-microsoft-com:';
export const DEAD_MAX = 100;
export const DEAD_VALUE_MAX = 64 * 1024;
export const DEAD_AREA_MAX = 10 * 1024 * 1024;

export interface PropName {
  ns: string;
  local: string;
}

export type Want =
  { kind: 'all'; include: PropName[] } | { kind: 'names' } | { kind: 'some'; names: PropName[] };

const BAD_BODY = '请求内容不是有效的 XML，请检查后重试';

/** What a PROPFIND body asks for; an empty body is allprop (RFC 4918 §9.1). */
export function parsePropfind(body: string): Want {
  if (!body.trim()) return { kind: 'all', include: [] };
  let root: XmlElement;
  try {
    root = parseXml(body);
  } catch {
    throw new DavError(400, BAD_BODY);
  }
  if (!is(root, DAV_NS, 'propfind')) throw new DavError(400, 'PROPFIND 的请求内容应为 DAV:propfind');
  const names = (el: XmlElement) => elements(el).map((e) => ({ ns: e.ns, local: e.local }));
  const prop = child(root, DAV_NS, 'prop');
  if (child(root, DAV_NS, 'propname')) return { kind: 'names' };
  if (child(root, DAV_NS, 'allprop')) {
    const include = child(root, DAV_NS, 'include');
    return { kind: 'all', include: include ? names(include) : [] };
  }
  if (prop) return { kind: 'some', names: names(prop) };
  // Unknown children are extensions (RFC 4918 §17); with none we know, it is allprop.
  return { kind: 'all', include: [] };
}

/** One PROPPATCH instruction, in document order. */
export interface PatchOp {
  op: 'set' | 'remove';
  el: XmlElement;
}

export function parseProppatch(body: string): PatchOp[] {
  let root: XmlElement;
  try {
    root = parseXml(body);
  } catch {
    throw new DavError(400, BAD_BODY);
  }
  if (!is(root, DAV_NS, 'propertyupdate')) {
    throw new DavError(400, 'PROPPATCH 的请求内容应为 DAV:propertyupdate');
  }
  const ops: PatchOp[] = [];
  for (const part of elements(root)) {
    const op = is(part, DAV_NS, 'set') ? 'set' : is(part, DAV_NS, 'remove') ? 'remove' : null;
    if (!op) continue;
    const prop = child(part, DAV_NS, 'prop');
    if (!prop) throw new DavError(400, 'PROPPATCH 的 set/remove 中缺少 DAV:prop');
    for (const el of elements(prop)) ops.push({ op, el });
  }
  if (!ops.length) throw new DavError(400, 'PROPPATCH 中没有要修改的属性');
  return ops;
}

/** What a resource's properties are written from. */
export interface Desc {
  href: string;
  collection: boolean;
  displayName: string;
  size: number | null;
  mtime: number | null;
  etag: string | null;
  contentType: string | null;
  /** Unexpired locks covering it; null where nothing can be locked (the /dav/ root). */
  locks: LockRow[] | null;
  /** For lockroot hrefs. */
  areaKind: FixedAreaKind | null;
  quota: { used: number; available: number } | null;
  dead: PropRow[];
}

/**
 * The live properties, all of them in allprop. RFC 4331 §3 would leave the quotas out of allprop,
 * but Windows Explorer and client libraries read the free space from a plain (allprop) PROPFIND,
 * as Nextcloud's answers give it, so they are in.
 */
const LIVE = [
  'resourcetype',
  'displayname',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'creationdate',
  'supportedlock',
  'lockdiscovery',
  'quota-available-bytes',
  'quota-used-bytes',
] as const;
const LIVE_SET = new Set<string>(LIVE);

const isLive = (n: PropName) => n.ns === DAV_NS && LIVE_SET.has(n.local);

const SUPPORTED_LOCK =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';

/** One lock as DAV:activelock (RFC 4918 §14.1). */
export function activeLock(l: LockRow, areaKind: FixedAreaKind, now = Date.now()): string {
  const left = Math.max(0, Math.ceil((Number(l.expires_at) - now) / 1000));
  const root = hrefOf(areaKind, l.path.split('/').filter(Boolean), l.path.endsWith('/'));
  return (
    '<D:activelock><D:locktype><D:write/></D:locktype>' +
    `<D:lockscope>${l.exclusive ? '<D:exclusive/>' : '<D:shared/>'}</D:lockscope>` +
    `<D:depth>${l.depth === -1 ? 'infinity' : '0'}</D:depth>` +
    (l.owner ? `<D:owner>${l.owner}</D:owner>` : '') +
    `<D:timeout>Second-${left}</D:timeout>` +
    `<D:locktoken><D:href>${esc(l.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${esc(root)}</D:href></D:lockroot></D:activelock>`
  );
}

/** A live property's inner XML, or undefined where the resource has none. */
function liveValue(d: Desc, local: string): string | undefined {
  switch (local) {
    case 'resourcetype':
      return d.collection ? '<D:collection/>' : '';
    case 'displayname':
      return esc(d.displayName);
    case 'getcontentlength':
      return d.collection || d.size === null ? undefined : String(d.size);
    case 'getcontenttype':
      return d.collection || !d.contentType ? undefined : esc(d.contentType);
    case 'getetag':
      return d.etag ? esc(d.etag) : undefined;
    case 'getlastmodified':
      return d.mtime === null ? undefined : new Date(d.mtime).toUTCString();
    case 'creationdate':
      return d.mtime === null ? undefined : new Date(d.mtime).toISOString().replace(/\.\d{3}Z$/, 'Z');
    case 'supportedlock':
      return d.locks === null ? undefined : SUPPORTED_LOCK;
    case 'lockdiscovery':
      return d.locks === null ? undefined : d.locks.map((l) => activeLock(l, d.areaKind!)).join('');
    case 'quota-available-bytes':
      return d.quota ? String(Math.max(0, d.quota.available)) : undefined;
    case 'quota-used-bytes':
      return d.quota ? String(d.quota.used) : undefined;
    default:
      return undefined;
  }
}

/** An element named {ns}local with inner XML (or empty), written to stand anywhere in an answer. */
function propElement(ns: string, local: string, inner = ''): string {
  if (ns === DAV_NS) return inner ? `<D:${local}>${inner}</D:${local}>` : `<D:${local}/>`;
  // No default namespace is ever declared in our answers, so an unprefixed name has none.
  const open = ns ? `x:${local} xmlns:x="${esc(ns)}"` : local;
  const close = ns ? `x:${local}` : local;
  return inner ? `<${open}>${inner}</${close}>` : `<${open}/>`;
}

/** A stored dead property with only its name (PROPFIND propname). */
function deadName(p: PropRow): string {
  return propElement(p.ns, p.name);
}

function propstat(inner: string, code: number): string {
  return `<D:propstat><D:prop>${inner}</D:prop><D:status>${statusLine(code)}</D:status></D:propstat>`;
}

/** One DAV:response of a multistatus for a resource and what was asked. */
export function responseOf(d: Desc, want: Want): string {
  const found: string[] = [];
  const missing: string[] = [];
  if (want.kind === 'names') {
    for (const local of LIVE) if (liveValue(d, local) !== undefined) found.push(`<D:${local}/>`);
    for (const p of d.dead) found.push(deadName(p));
  } else {
    const names: PropName[] =
      want.kind === 'all' ? [...LIVE.map((local) => ({ ns: DAV_NS, local })), ...want.include] : want.names;
    const done = new Set<string>();
    for (const n of names) {
      const key = `${n.ns}\n${n.local}`;
      if (done.has(key)) continue;
      done.add(key);
      const live = n.ns === DAV_NS ? liveValue(d, n.local) : undefined;
      if (live !== undefined) {
        found.push(propElement(DAV_NS, n.local, live));
        continue;
      }
      const dead = d.dead.find((p) => p.ns === n.ns && p.name === n.local);
      if (dead) found.push(dead.value);
      else if (want.kind === 'some') missing.push(propElement(n.ns, n.local));
    }
    if (want.kind === 'all') {
      for (const p of d.dead) if (!done.has(`${p.ns}\n${p.name}`)) found.push(p.value);
    }
  }
  return (
    `<D:response><D:href>${esc(d.href)}</D:href>` +
    (found.length || !missing.length ? propstat(found.join(''), 200) : '') +
    (missing.length ? propstat(missing.join(''), 404) : '') +
    '</D:response>'
  );
}

/** The description of a drive row (a child in a listing, or the target itself). */
export function descOfRow(
  row: FileRow,
  o: {
    areaKind: FixedAreaKind;
    segs: string[];
    md5: string | null;
    locks: LockRow[];
    quota: Desc['quota'];
    dead: PropRow[];
  },
): Desc {
  const collection = row.is_dir === 1;
  return {
    href: hrefOf(o.areaKind, o.segs, collection),
    collection,
    displayName: collection ? row.file_name : joinName(row.file_name, row.extend_name),
    size: collection ? null : Number(row.file_size),
    mtime: Number(row.upload_time),
    etag: !collection && o.md5 ? `"${o.md5}"` : null,
    contentType: collection ? null : contentTypeOf(row.extend_name),
    locks: o.locks.filter((l) => covers(l, lockPathOf(o.segs, collection))),
    areaKind: o.areaKind,
    quota: collection ? o.quota : null,
    dead: o.dead,
  };
}

/** Whether answering `want` needs the quota (it costs a sum over the person's files). */
export function wantsQuota(want: Want): boolean {
  return want.kind !== 'some' || want.names.some((n) => n.ns === DAV_NS && n.local.startsWith('quota-'));
}

/** Whether answering `want` needs stored dead properties. */
export function wantsDead(want: Want): boolean {
  return want.kind !== 'some' || want.names.some((n) => !isLive(n));
}

/** The content type a hidden file reports. */
export const scratchType = (name: string) => contentTypeOf(splitName(name).extendName);

/** A set instruction's stored form (the whole property element, self-contained). */
export function storedValue(el: XmlElement): string {
  return serializeElement(el);
}
