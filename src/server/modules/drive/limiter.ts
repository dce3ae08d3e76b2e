/**
 * At most `n` jobs at a time; the rest wait in order. Image decoding and tag parsing take a
 * CPU each, and a grid of a hundred new photos must not starve every other request on a small
 * museum server.
 */
export function createLimiter(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(job: () => Promise<T>): Promise<T> {
    // A finishing job hands its slot straight to the next waiter, so no newcomer slips in between.
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * One promise per key while it runs: concurrent callers asking for the same thing (the same
 * thumbnail, the same tags) share one piece of work instead of each doing it.
 */
export function createOnce<T>() {
  const running = new Map<string, Promise<T>>();
  return function once(key: string, job: () => Promise<T>): Promise<T> {
    const existing = running.get(key);
    if (existing) return existing;
    const p = job().finally(() => running.delete(key));
    running.set(key, p);
    return p;
  };
}
