/**
 * Writes system-log entries off the request path. A request only pushes its entry onto a
 * bounded queue (no I/O, no await); the queue is written in batches, one multi-row insert each,
 * a second after the first entry waits or at once when a batch is full.
 *
 * A failed write never reaches a request: it is reported through `report` (the server's log),
 * the batch is kept and tried again with a growing pause (1 s, 2 s, 4 s … 30 s), and dropped
 * with a report after MAX_TRIES, so one bad batch cannot stop the rest. When the queue is full
 * (the database has been away a long while), new entries are dropped and counted, and the count
 * is reported: memory stays bounded whatever happens to the database.
 */

export interface LogWriterOptions<T> {
  insert: (rows: T[]) => Promise<void>;
  report: (message: string, detail: Record<string, unknown>) => void;
  /** Entries held at most (default 10,000). */
  maxPending?: number;
  /** Rows per insert (default 200: 200 × 16 columns stays under SQLite's and PostgreSQL's limits). */
  batch?: number;
  /** How long the first waiting entry waits for others (default 1 s). */
  delayMs?: number;
}

export interface LogWriter<T> {
  /** Queues one entry; never throws, never waits. */
  push(row: T): void;
  /** Writes everything queued now (readers call it first, so they see what just happened). */
  flush(): Promise<void>;
  /** Writes what is queued and stops the timer (the server's close). */
  close(): Promise<void>;
  pending(): number;
}

export const MAX_TRIES = 6;
const MAX_PAUSE_MS = 30_000;

export function createLogWriter<T>(opts: LogWriterOptions<T>): LogWriter<T> {
  const maxPending = opts.maxPending ?? 10_000;
  const batchSize = opts.batch ?? 200;
  const delayMs = opts.delayMs ?? 1000;
  const queue: { row: T; tries: number }[] = [];
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let dropped = 0;
  let failing = 0;
  let closed = false;

  function schedule(ms: number) {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, ms);
    timer.unref();
  }

  function reportDrops() {
    if (!dropped) return;
    opts.report('system log queue full: entries dropped', { dropped, maxPending });
    dropped = 0;
  }

  async function drain(): Promise<void> {
    while (queue.length) {
      const items = queue.splice(0, batchSize);
      try {
        await opts.insert(items.map((i) => i.row));
        if (failing) opts.report('system log writes resumed', { failedAttempts: failing });
        failing = 0;
      } catch (err) {
        failing++;
        const retry = items.filter((i) => ++i.tries < MAX_TRIES);
        const room = Math.max(0, maxPending - queue.length);
        const kept = retry.slice(0, room);
        queue.unshift(...kept);
        const lost = items.length - kept.length;
        opts.report('system log write failed', {
          err,
          rows: items.length,
          ...(lost ? { dropped: lost } : {}),
          pending: queue.length,
        });
        if (queue.length) schedule(Math.min(delayMs * 2 ** (failing - 1), MAX_PAUSE_MS));
        return;
      }
    }
    reportDrops();
  }

  function flush(): Promise<void> {
    if (running) return running.then(() => (queue.length && !failing ? flush() : undefined));
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (!queue.length) {
      reportDrops();
      return Promise.resolve();
    }
    running = drain().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    push(row) {
      if (queue.length >= maxPending) {
        dropped++;
        schedule(delayMs);
        return;
      }
      queue.push({ row, tries: 0 });
      if (queue.length >= batchSize && !running) {
        // A full batch goes now, but after this request's own work (never inside it).
        setImmediate(() => void flush());
      } else schedule(delayMs);
    },
    flush,
    async close() {
      await flush();
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
    pending: () => queue.length,
  };
}
