/** Runs `fn` holding the lock of `key`; callers with the same key run one after another. */
export type KeyedLock = <T>(key: string, fn: () => Promise<T>) => Promise<T>;

/**
 * An in-process mutex per key. The drive serialises, per blob key, "store the bytes and point
 * a row at them" against "no row points at them any more, remove the bytes", so a file that is
 * uploaded again at the moment its last copy is purged never ends up with a row and no bytes.
 * One process owns the data dir in the embedded default; with REDIS_URL the same signature is
 * served by a Redis lock shared by every instance (cluster/locks.ts).
 */
export function createKeyedLock(): KeyedLock & { busy(key: string): boolean } {
  const tails = new Map<string, Promise<void>>();
  async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = before.then(() => mine);
    tails.set(key, tail);
    await before;
    try {
      return await fn();
    } finally {
      release();
      if (tails.get(key) === tail) tails.delete(key);
    }
  }
  /** Whether someone holds or waits for `key` now. */
  withLock.busy = (key: string) => tails.has(key);
  return withLock;
}

/**
 * Holds the lock of every key at once (a batch of blobs, e.g. an unzip). Keys are taken in
 * sorted order, so two batches sharing keys cannot deadlock.
 */
export function withLocks<T>(lock: KeyedLock, keys: string[], fn: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(keys)].sort();
  const step = (i: number): Promise<T> => (i === sorted.length ? fn() : lock(sorted[i]!, () => step(i + 1)));
  return step(0);
}
