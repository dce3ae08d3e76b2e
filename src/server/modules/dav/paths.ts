import { ROOT } from '../../../shared/drive/names';
import type { FixedAreaKind } from '../drive/area';

/*
 * Addresses under /dav/ (README "Mount the drive (WebDAV)"):
 *
 *   /dav/                 the root: three folders, nothing else
 *   /dav/我的网盘/…        the caller's own drive (never anyone else's: no user id is in a URL)
 *   /dav/其他资源/…        the 其他资源 library
 *   /dav/高清图片/…        the 高清图片 library
 *
 * Inside an area, a URL's segments are the drive's folder and file names. A segment is decoded
 * once (UTF-8 percent-encoding), and one that decodes to `.`, `..`, or holds `/` or NUL is
 * refused: a URL can never step out of its area or smuggle a separator into a name.
 */

export const DAV_PREFIX = '/dav';

export const AREA_DIRS: readonly { kind: FixedAreaKind; name: string }[] = [
  { kind: 'personal', name: '我的网盘' },
  { kind: 'res', name: '其他资源' },
  { kind: 'hd', name: '高清图片' },
];

export function areaDirName(kind: FixedAreaKind): string {
  return AREA_DIRS.find((a) => a.kind === kind)!.name;
}

/** A place under /dav/: the root (`area` null), an area's root (`segs` empty), or a path in it. */
export interface DavAddress {
  area: FixedAreaKind | null;
  /** The decoded segments inside the area. */
  segs: string[];
  /** The URL ended in '/' (asks for a collection). */
  slash: boolean;
}

/** Why a URL cannot name anything (answered 400), or 'unknown' for an area that does not exist (404). */
export type AddressProblem = { bad: string } | 'unknown' | 'outside';

/**
 * The address of a request path (no query string), or why there is none. `outside`: not under
 * /dav at all.
 */
export function parseDavPath(rawPath: string): DavAddress | AddressProblem {
  if (rawPath !== DAV_PREFIX && !rawPath.startsWith(`${DAV_PREFIX}/`)) return 'outside';
  // A fragment never belongs in a request target; a client that sends one would otherwise act
  // on the part before it (litmus delete_fragment).
  if (rawPath.includes('#')) return { bad: '地址中不能包含 #，请对文件名中的 # 进行编码' };
  const slash = rawPath.endsWith('/');
  const parts = rawPath.slice(DAV_PREFIX.length).split('/').filter(Boolean);
  const segs: string[] = [];
  for (const part of parts) {
    let seg: string;
    try {
      seg = decodeURIComponent(part);
    } catch {
      return { bad: '地址编码不正确' };
    }
    if (seg === '.' || seg === '..' || seg.includes('/') || seg.includes('\0')) {
      return { bad: '地址中不能包含 . 或 .. 等路径跳转' };
    }
    segs.push(seg);
  }
  if (!segs.length) return { area: null, segs: [], slash: true };
  const area = AREA_DIRS.find((a) => a.name === segs[0] || a.name === segs[0]!.normalize('NFC'));
  if (!area) return 'unknown';
  return { area: area.kind, segs: segs.slice(1), slash };
}

/** A segment as it goes into an href. */
function encodeSeg(seg: string): string {
  return encodeURIComponent(seg);
}

/** The href (path only) of an address; collections end in '/'. */
export function hrefOf(area: FixedAreaKind | null, segs: readonly string[], collection: boolean): string {
  if (area === null) return `${DAV_PREFIX}/`;
  const tail = segs.map(encodeSeg).join('/');
  const base = `${DAV_PREFIX}/${encodeSeg(areaDirName(area))}/`;
  if (!tail) return base;
  return `${base}${tail}${collection ? '/' : ''}`;
}

/** The drive folder path that holds the last segment: `['a', 'b', 'c.txt']` → `/a/b/`. */
export function parentFolder(segs: readonly string[]): string {
  return segs.length <= 1 ? ROOT : `/${segs.slice(0, -1).join('/')}/`;
}

/** The drive folder path of segments naming a folder: `['a', 'b']` → `/a/b/`. */
export function folderOfSegs(segs: readonly string[]): string {
  return segs.length ? `/${segs.join('/')}/` : ROOT;
}

/**
 * A lock's path inside its area: a collection's ends in '/' (`/a/b/`, the area root `/`), any
 * other resource's does not (`/a/b.txt`). Locks and If-header tags are matched on this form.
 */
export function lockPathOf(segs: readonly string[], collection: boolean): string {
  if (!segs.length) return ROOT;
  return `/${segs.join('/')}${collection ? '/' : ''}`;
}

/** The lock paths that cover `path` when locked with depth infinity: its ancestors, root first. */
export function ancestorsOf(path: string): string[] {
  const out: string[] = [];
  const parts = path.split('/').filter(Boolean);
  // The last part is the resource itself (a collection is not its own ancestor).
  let acc = ROOT;
  out.push(acc);
  for (let i = 0; i < parts.length - 1; i++) {
    acc += `${parts[i]}/`;
    out.push(acc);
  }
  return path === ROOT ? [] : out;
}
