import type { Redis } from 'ioredis';
import type { Locks } from './locks';

/**
 * Background jobs (upload and attachment sweeps, idempotency purges, orphaned unzip jobs; later
 * recycle-bin and log pruning). Each instance keeps a timer, but each period's run happens on
 * ONE instance: the period's slot (floor(now / period)) is claimed first, and only the
 * claimant runs. The in-process implementation claims every slot (one instance).
 *
 * A run also holds the job's lock, so a run slower than its period never overlaps the next.
 */
export interface Jobs {
  /**
   * Runs `fn` once now (awaited: the start-time sweep, unless another instance is running it
   * this moment), then every `periodMs` on whichever instance claims the period.
   */
  every(name: string, periodMs: number, fn: () => Promise<void>): Promise<void>;
  /** Claims slot `slot` of job `name`: true on exactly one instance (tests, and `every`). */
  claim(name: string, slot: number, ttlMs: number): Promise<boolean>;
  /** Stops the timers and waits for runs in progress (server close). */
  close(): Promise<void>;
}

/** Claims slot `slot` of job `name` for this instance: true on exactly one instance. */
export type ClaimFn = (name: string, slot: number, ttlMs: number) => Promise<boolean>;

export function createJobs(opts: {
  locks: Locks;
  /** Claims a slot; absent: every claim succeeds (one process). */
  claim?: ClaimFn;
  onError?: (name: string, err: unknown) => void;
}): Jobs {
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  const claim = opts.claim ?? (async () => true);
  let closed = false;

  function track<T>(p: Promise<T>): Promise<T> {
    running.add(p);
    void p.finally(() => running.delete(p)).catch(() => undefined);
    return p;
  }

  async function runLocked(name: string, fn: () => Promise<void>) {
    try {
      await opts.locks.tryWith(`job:${name}`, fn);
    } catch (err) {
      opts.onError?.(name, err);
    }
  }

  return {
    async every(name, periodMs, fn) {
      await track(runLocked(name, fn));
      const timer = setInterval(() => {
        if (closed) return;
        const slot = Math.floor(Date.now() / periodMs);
        void track(
          claim(name, slot, periodMs * 2).then(
            (mine) => (mine && !closed ? runLocked(name, fn) : undefined),
            (err: unknown) => opts.onError?.(name, err),
          ),
        );
      }, periodMs);
      timer.unref();
      timers.add(timer);
    },
    claim,
    async close() {
      closed = true;
      for (const t of timers) clearInterval(t);
      timers.clear();
      await Promise.allSettled([...running]);
    },
  };
}

/** Slot claims in Redis: SET NX with a life of two periods, so a claimed slot is never claimed again. */
export function redisClaim(redis: Redis, prefix: string): ClaimFn {
  return async (name, slot, ttlMs) =>
    (await redis.set(`${prefix}job:${name}:${slot}`, '1', 'PX', Math.max(1000, ttlMs), 'NX')) === 'OK';
}
