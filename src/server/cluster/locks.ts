import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createKeyedLock, type KeyedLock } from '../modules/drive/keyed-lock';

/**
 * Mutual exclusion by name, across every instance that shares the same Redis, or within this
 * process when there is none (the embedded default). Users: completing an upload (one file per
 * session), blobs ("point a row at the bytes" against "no row left, remove the bytes"), the
 * progressive assembly of an upload's chunks, thumbnails (made once), unzip jobs (a running
 * job's lock tells a restarted instance it is not an orphan).
 *
 * Not reentrant. Keys are namespaced by the caller ('blob:<md5>', 'upload:<id>').
 */
export interface Locks {
  /** Runs `fn` holding `key`, waiting for it first. */
  with<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /** Runs `fn` only when `key` is free right now; `ran: false` (fn not called) otherwise. */
  tryWith<T>(key: string, fn: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
  /** Whether some instance holds `key` now. */
  held(key: string): Promise<boolean>;
  /** A KeyedLock (the drive's signature) over the keys `<namespace>:<key>`. */
  keyed(namespace: string): KeyedLock;
}

function keyedOf(locks: Pick<Locks, 'with'>, namespace: string): KeyedLock {
  return (key, fn) => locks.with(`${namespace}:${key}`, fn);
}

/** One process: a promise chain per key (keyed-lock.ts). */
export function createLocalLocks(): Locks {
  const chain = createKeyedLock();
  const holders = new Map<string, number>();
  const locks: Locks = {
    with(key, fn) {
      return chain(key, async () => {
        holders.set(key, (holders.get(key) ?? 0) + 1);
        try {
          return await fn();
        } finally {
          const n = (holders.get(key) ?? 1) - 1;
          if (n) holders.set(key, n);
          else holders.delete(key);
        }
      });
    },
    async tryWith(key, fn) {
      if (chain.busy(key)) return { ran: false };
      return { ran: true, value: await locks.with(key, fn) };
    },
    async held(key) {
      return holders.has(key);
    },
    keyed: (ns) => keyedOf(locks, ns),
  };
  return locks;
}

/** Deletes the key only while it still holds our token (a lock that expired and was retaken stays). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
/** Extends the key's life only while it still holds our token. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;

export interface RedisLockOptions {
  /** How long a lock outlives a holder that died (renewed every third of it while held). */
  ttlMs?: number;
  /** Told when a holder lost its lock (Redis unreachable past the TTL): for the log. */
  onLost?: (key: string) => void;
}

/**
 * Redis locks: SET key token NX PX ttl, renewed while the holder works, released by a
 * compare-and-delete. A holder that dies (a killed instance) frees its locks after `ttlMs`.
 * Waiters poll with a growing pause (10 ms up to 100 ms): contention here is short and rare
 * (the same upload's chunks, the same blob), so a queue would be machinery without a payoff.
 */
export function createRedisLocks(redis: Redis, prefix: string, opts: RedisLockOptions = {}): Locks {
  const ttl = opts.ttlMs ?? 30_000;
  const k = (key: string) => `${prefix}lock:${key}`;

  async function acquire(key: string): Promise<string | null> {
    const token = randomBytes(12).toString('hex');
    const ok = await redis.set(k(key), token, 'PX', ttl, 'NX');
    return ok === 'OK' ? token : null;
  }

  async function hold<T>(key: string, token: string, fn: () => Promise<T>): Promise<T> {
    const renew = setInterval(
      () => {
        redis.eval(RENEW, 1, k(key), token, String(ttl)).then(
          (r) => {
            if (r === 0) opts.onLost?.(key);
          },
          () => undefined,
        );
      },
      Math.max(50, Math.floor(ttl / 3)),
    );
    renew.unref();
    try {
      return await fn();
    } finally {
      clearInterval(renew);
      await redis.eval(RELEASE, 1, k(key), token).catch(() => undefined);
    }
  }

  const locks: Locks = {
    async with(key, fn) {
      let pause = 10;
      for (;;) {
        const token = await acquire(key);
        if (token) return hold(key, token, fn);
        await new Promise((r) => setTimeout(r, pause + Math.random() * pause));
        pause = Math.min(100, pause * 2);
      }
    },
    async tryWith(key, fn) {
      const token = await acquire(key);
      if (!token) return { ran: false };
      return { ran: true, value: await hold(key, token, fn) };
    },
    async held(key) {
      return (await redis.exists(k(key))) === 1;
    },
    keyed: (ns) => keyedOf(locks, ns),
  };
  return locks;
}
