import { randomUUID } from 'node:crypto';
import { serializeOn } from '../../db/dialect';
import type { Db } from '../../db/index';
import * as repo from './dav.repo';
import type { LockRow } from './dav.repo';
import { ancestorsOf } from './paths';

/*
 * WebDAV write locks (RFC 4918 §6, §7, §9.10, §9.11), stored in dav_lock so every instance
 * enforces them. A lock sits on a path of an area (a collection's path ends in '/'); with depth
 * infinity it also covers everything below. Exclusive locks exclude every other lock, shared ones
 * only exclusive ones. Writing to a locked resource needs the lock's token submitted in the If
 * header by the person who holds it (dav.routes checks); an expired lock is ignored everywhere
 * and swept away hourly.
 *
 * Timeouts: what the client asks, up to a day; `Infinite` or nothing is an hour. A client that
 * wants longer refreshes (Office and Finder do), so a crashed client's lock is gone within an
 * hour and never holds a colleague off a file for days.
 */

export const LOCK_DEFAULT_S = 3600;
export const LOCK_MAX_S = 86_400;

/** The seconds a `Timeout: Second-600, Infinite` header asks for, bounded. */
export function timeoutOf(header: string | undefined): number {
  for (const part of (header ?? '').split(',')) {
    const m = /^\s*Second-(\d+)\s*$/i.exec(part);
    if (m) return Math.max(1, Math.min(Number(m[1]), LOCK_MAX_S));
    if (/^\s*Infinite\s*$/i.test(part)) return LOCK_DEFAULT_S;
  }
  return LOCK_DEFAULT_S;
}

/** Whether `lock` covers the resource at `path`: on it, or a depth-infinity lock on an ancestor. */
export function covers(lock: Pick<LockRow, 'path' | 'depth'>, path: string): boolean {
  if (lock.path === path) return true;
  return lock.depth === -1 && lock.path.endsWith('/') && path.startsWith(lock.path);
}

export interface NewLock {
  space: string;
  path: string;
  /** 0, or -1 for infinity. */
  depth: number;
  exclusive: boolean;
  /** The owner element's content as the client sent it (an XML fragment). */
  owner: string;
  userId: number;
  timeoutS: number;
}

export function createDavLocks(db: Db) {
  /** The unexpired locks that cover `path` (on it or on an ancestor with depth infinity). */
  async function covering(space: string, path: string, now = Date.now()): Promise<LockRow[]> {
    const rows = await repo.locksAt(db, space, [path, ...ancestorsOf(path)], now);
    return rows.filter((l) => covers(l, path));
  }

  /** The unexpired locks at or below a collection's path. */
  function under(space: string, folder: string, now = Date.now()): Promise<LockRow[]> {
    return repo.locksUnder(db, space, folder, now);
  }

  return {
    covering,
    under,

    /**
     * Takes a new lock, unless it conflicts: with a lock covering the path, or (depth infinity
     * on a collection) with one below it. An exclusive lock conflicts with any; a shared one with
     * exclusive ones. Check and insert are one transaction, serialised per area.
     * Answers the lock, or the conflicting lock.
     */
    async take(n: NewLock): Promise<{ lock: LockRow } | { conflict: LockRow }> {
      return db.transaction().execute(async (trx) => {
        const now = Date.now();
        // Two instances (PostgreSQL) must not both see no conflict and both grant.
        await serializeOn(trx, [`dav-lock:${n.space}`]);
        const above = (await repo.locksAt(trx, n.space, [n.path, ...ancestorsOf(n.path)], now)).filter((l) =>
          covers(l, n.path),
        );
        const below =
          n.depth === -1 && n.path.endsWith('/') ? await repo.locksUnder(trx, n.space, n.path, now) : [];
        const clash = [...above, ...below].find((l) => n.exclusive || l.exclusive === 1);
        if (clash) return { conflict: clash };
        const lock: LockRow = {
          token: `urn:uuid:${randomUUID()}`,
          space: n.space,
          path: n.path,
          depth: n.depth,
          exclusive: n.exclusive ? 1 : 0,
          owner: n.owner,
          user_id: n.userId,
          timeout_s: n.timeoutS,
          created_at: now,
          expires_at: now + n.timeoutS * 1000,
        };
        await repo.insertLock(trx, lock);
        return { lock };
      });
    },

    /** Extends a lock by its timeout from now; answers it as refreshed. */
    async refresh(lock: LockRow, timeoutS: number): Promise<LockRow> {
      const expires = Date.now() + timeoutS * 1000;
      await repo.refreshLock(db, lock.token, timeoutS, expires);
      return { ...lock, timeout_s: timeoutS, expires_at: expires };
    },

    byToken: (token: string) => repo.lockByToken(db, token, Date.now()),
    release: (token: string) => repo.deleteLock(db, token),

    /** Drops the locks of a resource that moved away or was deleted (and below it, for a collection). */
    forget: (space: string, path: string) => repo.deleteLocksAt(db, space, path, path.endsWith('/')),

    /** The hourly sweep: expired locks go. */
    sweep: () => repo.deleteExpiredLocks(db, Date.now()),
  };
}
export type DavLocks = ReturnType<typeof createDavLocks>;
