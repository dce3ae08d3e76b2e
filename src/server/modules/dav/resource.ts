import type { AreaQuery } from '../../../shared/api/drive';
import type { Db } from '../../db/index';
import type { BlobStore } from '../../storage/blob-store';
import { type Area, type Areas, type FixedAreaKind, areaOf } from '../drive/area';
import type { FileRow } from '../drive/drive.repo';
import type { DriveService } from '../drive/drive.service';
import type { SessionUser } from '../auth/auth.service';
import * as repo from './dav.repo';
import type { LockRow, ScratchRow } from './dav.repo';
import { DavError } from './http';
import { type IfList, type ResourceState, evaluateIf } from './if-header';
import { type DavLocks } from './locks';
import { type DavAddress, DAV_PREFIX, hrefOf, lockPathOf, parentFolder, parseDavPath } from './paths';
import { esc } from './xml';

/*
 * What a WebDAV URL names, and the checks every request makes on it: the caller's rights in its
 * area, the locks on it and the If header.
 */

export interface DavDeps {
  db: Db;
  drive: DriveService;
  areas: Areas;
  locks: DavLocks;
  store: BlobStore;
  /** Largest PUT accepted (bytes). */
  putMaxBytes: number;
}

/** One request's caller and what it sent that every method reads. */
export interface DavCtx {
  user: SessionUser;
  /** The If header, parsed (null: none). */
  ifLists: IfList[] | null;
  /** The lock tokens the If header submits. */
  submitted: Set<string>;
  /** The request's Host, to tell our own absolute URLs from another server's. */
  host: string | undefined;
  /** HTTP's own preconditions (RFC 9110 §13.1), which sync clients send to avoid lost updates. */
  ifMatch: string | undefined;
  ifNoneMatch: string | undefined;
}

/** Whether an If-Match / If-None-Match list names `etag` (`*`: any existing resource). */
function listNames(list: string, etag: string | null, exists: boolean): boolean {
  if (list.trim() === '*') return exists;
  if (etag === null) return false;
  return list.split(',').some((t) => t.trim() === etag);
}

interface InArea {
  areaKind: FixedAreaKind;
  /** The area as the caller reads it (rights to change are checked apart). */
  area: Area;
  segs: string[];
}

export type Target =
  | { kind: 'root' }
  | { kind: 'areaRoot'; areaKind: FixedAreaKind; area: Area; segs: [] }
  | (InArea & { kind: 'entry'; row: FileRow })
  | (InArea & { kind: 'scratch'; row: ScratchRow })
  | (InArea & { kind: 'none'; parentExists: boolean; slash: boolean });

/**
 * The hidden files of desktop systems, kept out of the drive (README "Mount the drive": what's
 * refused and hidden): macOS Finder writes `._name` (AppleDouble: the file's extended attributes)
 * beside every file it copies and `.DS_Store` into every folder it opens; Windows Explorer may
 * write `Thumbs.db`. They are accepted (Finder fails a whole copy when they are refused), kept
 * apart for a day, and never listed, so the web app and colleagues never see them.
 */
export function isHiddenName(name: string): boolean {
  return name.startsWith('._') || name === '.DS_Store' || name.toLowerCase() === 'thumbs.db';
}

/** How long a hidden file is kept after its last write. */
export const SCRATCH_MS = 24 * 3600_000;
/** The largest hidden file kept. */
export const SCRATCH_MAX = 1024 * 1024;
/** What one area's hidden files may hold together (no quota counts them). */
export const SCRATCH_AREA_MAX = 64 * 1024 * 1024;

const AREA_QUERY: Record<FixedAreaKind, AreaQuery | undefined> = {
  personal: undefined,
  res: { fileType: 9 } as AreaQuery,
  hd: { isFmt: 2 } as AreaQuery,
};

export function createResolver(deps: DavDeps) {
  const { drive } = deps;

  async function resolve(user: SessionUser, addr: DavAddress): Promise<Target> {
    if (addr.area === null) return { kind: 'root' };
    const area = areaOf(user.id, addr.area);
    if (!addr.segs.length) return { kind: 'areaRoot', areaKind: addr.area, area, segs: [] };
    const segs = addr.segs;
    const name = segs[segs.length - 1]!;
    const parent = parentFolder(segs);
    const base = { areaKind: addr.area, area, segs };
    if (isHiddenName(name)) {
      const row = await repo.scratchAt(deps.db, area.space, parent, name, Date.now());
      if (row) return { ...base, kind: 'scratch', row };
    } else {
      let rows = await drive.entryNamed(area, parent, name);
      // macOS may send decomposed (NFD) names; the drive keeps what was typed, usually composed.
      if (!rows.length && name !== name.normalize('NFC')) {
        rows = await drive.entryNamed(area, parent, name.normalize('NFC'));
        if (rows.length) segs[segs.length - 1] = name.normalize('NFC');
      }
      // A URL ending in '/' asks for a folder; without it, a file of that name comes first.
      const row = addr.slash
        ? rows.find((r) => r.is_dir === 1)
        : (rows.find((r) => r.is_dir === 0) ?? rows[0]);
      if (row) return { ...base, kind: 'entry', row };
    }
    const parentExists = await drive.folderExists(area, parent);
    return { ...base, kind: 'none', parentExists, slash: addr.slash };
  }

  return {
    resolve,

    /** The area as the caller may change it: 403 (the drive's words) in a library they do not manage. */
    async manage(user: SessionUser, kind: FixedAreaKind): Promise<Area> {
      return deps.areas.manage(user, AREA_QUERY[kind]);
    },

    /** As manage, for deleting (in 其他资源, deleting is a manager's as it is on its management page). */
    async remove(user: SessionUser, kind: FixedAreaKind): Promise<Area> {
      const q = AREA_QUERY[kind];
      return deps.areas.remove(user, {
        ...(q ?? {}),
        ...(kind === 'res' ? { isAdmin: 1 } : {}),
        deleteMode: 1,
      } as AreaQuery & {
        deleteMode: number;
      });
    },
  };
}
export type Resolver = ReturnType<typeof createResolver>;

export function isCollection(t: Target): boolean {
  return t.kind === 'root' || t.kind === 'areaRoot' || (t.kind === 'entry' && t.row.is_dir === 1);
}

/** The lock path of a target inside its area (see paths.lockPathOf). */
export function lockPath(t: Exclude<Target, { kind: 'root' }>): string {
  if (t.kind === 'none') return lockPathOf(t.segs, t.slash);
  return lockPathOf(t.segs, isCollection(t));
}

/** The href of a target. */
export function hrefOfTarget(t: Target): string {
  if (t.kind === 'root') return `${DAV_PREFIX}/`;
  if (t.kind === 'none') return hrefOf(t.areaKind, t.segs, t.slash);
  return hrefOf(t.areaKind, t.segs, isCollection(t));
}

/** The href of a lock's root. */
export function hrefOfLock(areaKind: FixedAreaKind, lock: LockRow): string {
  const segs = lock.path.split('/').filter(Boolean);
  return hrefOf(areaKind, segs, lock.path.endsWith('/'));
}

/** A file's entity tag: its content's MD5 (the web app's downloads send the same). */
export async function etagOf(deps: DavDeps, t: Target): Promise<string | null> {
  if (t.kind === 'scratch') return `"s${t.row.id}-${Number(t.row.updated_at)}"`;
  if (t.kind !== 'entry' || t.row.is_dir === 1) return null;
  const c = await deps.drive.contentOf(t.area, t.row.id);
  return c ? `"${c.md5}"` : null;
}

/** The path an absolute URL or absolute path names, or null for another server's URL. */
export function pathOfReference(ref: string, host: string | undefined): string | null {
  if (ref.startsWith('/')) return ref.split('?')[0]!;
  try {
    const u = new URL(ref);
    if (host && u.host !== host) return null;
    return u.pathname;
  } catch {
    return null;
  }
}

/** Lock-related checks of one request. */
export function createGuards(deps: DavDeps, resolver: Resolver) {
  const { locks } = deps;

  async function stateOf(ctx: DavCtx, t: Target): Promise<ResourceState> {
    if (t.kind === 'root') return { etag: null, tokens: new Set() };
    const covering = await locks.covering(t.area.space, lockPath(t));
    return { etag: await etagOf(deps, t), tokens: new Set(covering.map((l) => l.token)) };
  }

  return {
    stateOf,

    /**
     * 412 unless the request's conditions hold for its target: If-Match and If-None-Match
     * (RFC 9110 §13.1.1, §13.1.2: a PUT with `If-None-Match: *` never overwrites, one with
     * `If-Match: "etag"` only what the client last saw), then the If header (RFC 4918 §10.4).
     */
    async checkIf(ctx: DavCtx, t: Target) {
      if (ctx.ifMatch !== undefined || ctx.ifNoneMatch !== undefined) {
        const exists = t.kind !== 'none';
        const etag = await etagOf(deps, t);
        const failed =
          (ctx.ifMatch !== undefined && !listNames(ctx.ifMatch, etag, exists)) ||
          (ctx.ifNoneMatch !== undefined && listNames(ctx.ifNoneMatch, etag, exists));
        if (failed) throw new DavError(412, '条件不满足：文件已被修改、已存在或不存在，请刷新后重试');
      }
      if (!ctx.ifLists) return;
      const holds = await evaluateIf(ctx.ifLists, async (resource) => {
        if (resource === null) return stateOf(ctx, t);
        const p = pathOfReference(resource, ctx.host);
        const addr = p === null ? null : parseDavPath(p);
        if (!addr || typeof addr === 'string' || 'bad' in addr) return { etag: null, tokens: new Set() };
        return stateOf(ctx, await resolver.resolve(ctx.user, addr));
      });
      if (!holds) throw new DavError(412, '条件不满足：文件已被修改或锁已失效，请刷新后重试');
    },

    /**
     * 423 unless, for every unexpired lock covering one of `places` (and, with `subtree`, every
     * lock below a collection), the caller submitted its token and holds it. `places` are lock
     * paths of one area.
     */
    async requireTokens(
      ctx: DavCtx,
      areaKind: FixedAreaKind,
      space: string,
      places: { path: string; subtree?: boolean }[],
    ) {
      const seen = new Map<string, LockRow>();
      for (const p of places) {
        for (const l of await locks.covering(space, p.path)) seen.set(l.token, l);
        if (p.subtree && p.path.endsWith('/'))
          for (const l of await locks.under(space, p.path)) seen.set(l.token, l);
      }
      for (const l of seen.values()) {
        if (ctx.submitted.has(l.token) && l.user_id === ctx.user.id) continue;
        throw new DavError(
          423,
          '该文件或文件夹已被锁定（可能正在被 Office 等程序编辑），请稍后再试',
          `<D:lock-token-submitted><D:href>${esc(hrefOfLock(areaKind, l))}</D:href></D:lock-token-submitted>`,
        );
      }
    },
  };
}
export type Guards = ReturnType<typeof createGuards>;
