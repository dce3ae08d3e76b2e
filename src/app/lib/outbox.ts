import type { OutboxRow, UserDb } from './offline-db';

/**
 * The outbox (ARCHITECTURE.md §5): writes made without a network wait here, in order, each with
 * the idempotency key it was given when queued, and are replayed when the network returns.
 *
 * The rules a user can rely on:
 * - Order. Replay sends the queued writes one at a time, oldest first; a later one never
 *   overtakes an earlier one (creating folder `a` then moving a file into `/a/` just works).
 * - Once. The key is fixed at enqueue, so a write whose answer was lost is applied once when
 *   it is sent again (the server answers a repeated key with its first answer).
 * - Never dropped. A write the server refuses (the name is now taken, the folder is gone)
 *   becomes `failed` with the server's reason and stays until the user retries or discards
 *   it. Replay then goes on with the next write; a network failure stops it until next time.
 * - One runner. Replays are serialised in this tab and, with `lock`, across tabs.
 *
 * This module is transport-free: the app wiring (lib/offline.ts) gives it the database, the
 * sender and the error classifier, and tests give it fakes. Features describe a write with
 * `kind`, `meta` and `scope`, and draw it over their cached views until it settles.
 */
export type OutboxOp = OutboxRow & { seq: number };

export interface NewOp {
  client: OutboxRow['client'];
  path: string;
  body: unknown;
  label: string;
  kind: string;
  scope?: unknown[][];
  meta?: unknown;
  query?: OutboxRow['query'];
  /**
   * Bytes to send as the body instead of `body` (an office document saved in the browser).
   * Kept in IndexedDB beside the row until the write settles, so it survives a reload.
   */
  blob?: Blob;
}

/** What a send failure means: 'network' keeps the write queued; 'refused' is the server saying no. */
export type Verdict = 'network' | 'refused';

export interface OutboxDeps {
  /** The signed-in user's database, or null when nobody is signed in. */
  db: () => UserDb | null;
  /**
   * Sends one write with its idempotency key (and, for a binary write, its bytes); resolves
   * with the answer's data, rejects on failure.
   */
  send: (op: OutboxOp, blob?: Blob) => Promise<unknown>;
  classify: (err: unknown) => Verdict;
  /** Runs `fn` exclusively (e.g. a Web Lock, across tabs). Defaults to this tab only. */
  lock?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** False when the browser knows it is offline: submit() then queues without trying. */
  isOnline?: () => boolean;
  now?: () => number;
  newKey?: () => string;
}

export type OutboxEvent =
  | { type: 'sent'; op: OutboxOp; data: unknown }
  | { type: 'refused'; op: OutboxOp; error: string }
  /** A replay ended; `scopes` are the views that settled writes touched (refresh them now). */
  | { type: 'drained'; scopes: unknown[][]; summary: ReplaySummary }
  /** A write was queued or changed state; live views re-read the table anyway. */
  | { type: 'changed' };

export interface ReplaySummary {
  sent: number;
  refused: number;
  /** Writes still queued because the network failed during the run. */
  pending: number;
}

export type SubmitResult = { queued: false; data: unknown; op: OutboxOp } | { queued: true; op: OutboxOp };

/** A refusal of a write submitted while the user waits (a dialog shows `message`). */
export class OutboxRefusal extends Error {
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

type Outcome = { kind: 'sent'; data: unknown } | { kind: 'refused'; error: string; cause: unknown };

/** The device no longer holds a binary write's bytes (storage cleared under it). */
export const BYTES_LOST = '本机保存的文档内容已丢失，无法同步；请重新打开文档编辑后保存';

/** Deletes writes and the bytes of binary ones, together. */
async function removeOps(db: UserDb, rows: readonly Pick<OutboxRow, 'seq' | 'id'>[]) {
  if (!rows.length) return;
  await db.transaction('rw', db.outbox, db.outboxBlobs, async () => {
    await db.outbox.bulkDelete(rows.map((r) => r.seq!));
    await db.outboxBlobs.bulkDelete(rows.map((r) => r.id));
  });
}

function messageOf(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  return typeof err === 'string' && err ? err : '操作失败';
}

export function createOutbox(deps: OutboxDeps) {
  const now = deps.now ?? Date.now;
  const newKey = deps.newKey ?? (() => crypto.randomUUID());
  const listeners = new Set<(e: OutboxEvent) => void | Promise<void>>();
  /** Writes whose submitter is waiting: a refusal goes back to it instead of into the panel. */
  const awaiting = new Set<string>();
  const outcomes = new Map<string, Outcome>();
  let chain: Promise<unknown> = Promise.resolve();
  const localLock = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn, fn);
    chain = run.catch(() => undefined);
    return run;
  };
  const lock = deps.lock ?? (<T>(fn: () => Promise<T>) => fn());

  function remember(id: string, outcome: Outcome) {
    // Only submit() reads these; bound the map for writes nobody waits for.
    if (outcomes.size > 500) outcomes.clear();
    outcomes.set(id, outcome);
  }

  async function emit(e: OutboxEvent) {
    for (const l of [...listeners]) {
      try {
        await l(e);
      } catch {
        /* a listener's failure never stops the queue */
      }
    }
  }

  function mustDb(): UserDb {
    const db = deps.db();
    if (!db) throw new Error('未登录');
    return db;
  }

  async function enqueue(op: NewOp): Promise<OutboxOp> {
    const db = mustDb();
    const row: OutboxRow = {
      id: newKey(),
      idempotencyKey: newKey(),
      client: op.client,
      path: op.path,
      body: op.body,
      label: op.label,
      kind: op.kind,
      scope: op.scope ?? [],
      meta: op.meta ?? null,
      ...(op.query ? { query: op.query } : {}),
      ...(op.blob ? { binary: { size: op.blob.size, type: op.blob.type } } : {}),
      status: 'pending',
      createdAt: now(),
      attempts: 0,
    };
    const { blob } = op;
    // The row and its bytes are one write: a reload never finds one without the other.
    const seq = blob
      ? await db.transaction('rw', db.outbox, db.outboxBlobs, async () => {
          const added = await db.outbox.add(row);
          await db.outboxBlobs.put({ id: row.id, blob });
          return added;
        })
      : await db.outbox.add(row);
    void emit({ type: 'changed' });
    return { ...row, seq: seq as number };
  }

  /**
   * Takes the oldest pending write and marks it `sending`, in one transaction. On a run's first
   * claim it also tidies up after a closed page, which under the lock nobody else can be
   * sending for: a `sending` row was cut off (its answer is unknown, and its key makes sending
   * it again safe), and `done` rows reached the server already.
   *
   * One read of the queue (it is short) and writes sent together, not a query per step: each
   * step was a round trip to the browser's database process, five of them before the request
   * left, and the person who pressed 提交 waited for all of them (135–230 ms of a 300 ms
   * approval under load, measured in approval-outcome.spec).
   */
  async function claim(db: UserDb, first: boolean): Promise<OutboxOp | undefined> {
    return db.transaction('rw', db.outbox, db.outboxBlobs, async () => {
      const rows = (await db.outbox.toArray()) as OutboxOp[];
      // Usually none: a `done` row is only left by a page closed before it removed it.
      const done = first ? rows.filter((o) => o.status === 'done') : [];
      await removeOps(db, done);
      const cut = first ? rows.filter((o) => o.status === 'sending') : [];
      // The primary key orders the queue, and toArray() returns it in that order.
      const next = rows.find((o) => o.status === 'pending' || cut.includes(o));
      const writes = cut.filter((o) => o !== next).map((o) => db.outbox.update(o.seq, { status: 'pending' }));
      if (next) {
        writes.push(
          db.outbox.update(next.seq, { status: 'sending', attempts: next.attempts + 1, lastTriedAt: now() }),
        );
      }
      await Promise.all(writes);
      return next;
    });
  }

  /** One pass over the queue, oldest first. Runs under the lock only. */
  async function runOnce(): Promise<ReplaySummary> {
    const summary: ReplaySummary = { sent: 0, refused: 0, pending: 0 };
    const db = deps.db();
    if (!db) return summary;
    const scopes: unknown[][] = [];
    const settled: OutboxOp[] = [];
    for (let first = true; ; first = false) {
      const next = await claim(db, first);
      if (!next) break;
      let data: unknown;
      try {
        let blob: Blob | undefined;
        if (next.binary) {
          blob = (await db.outboxBlobs.get(next.id))?.blob;
          if (!blob) throw new LostBytes();
        }
        data = await deps.send(next, blob);
      } catch (err) {
        if (!(err instanceof LostBytes) && deps.classify(err) === 'network') {
          await db.outbox.update(next.seq, { status: 'pending' });
          break;
        }
        const error = messageOf(err);
        remember(next.id, { kind: 'refused', error, cause: err });
        // A waiting dialog shows the refusal itself; otherwise it is kept for the user to decide.
        if (awaiting.has(next.id)) await removeOps(db, [next]);
        else await db.outbox.update(next.seq, { status: 'failed', error });
        summary.refused++;
        scopes.push(...next.scope);
        await emit({ type: 'refused', op: { ...next, status: 'failed', error }, error });
        continue;
      }
      remember(next.id, { kind: 'sent', data });
      // Kept as `done` (still drawn over the cached views) until the views have refreshed, so
      // the change never blinks out between the server's answer and the new listing.
      await db.outbox.update(next.seq, { status: 'done', error: undefined });
      settled.push(next);
      summary.sent++;
      scopes.push(...next.scope);
      await emit({ type: 'sent', op: next, data });
    }
    summary.pending = await db.outbox.where('status').equals('pending').count();
    if (summary.sent || summary.refused) await emit({ type: 'drained', scopes, summary });
    if (settled.length) await removeOps(db, settled);
    void emit({ type: 'changed' });
    return summary;
  }

  /** Replays the queue now (serialised with any replay already running). */
  function replay(): Promise<ReplaySummary> {
    return localLock(() => lock(runOnce));
  }

  /**
   * Sends a write the user is waiting for. Online, it goes through the queue at once (behind
   * any older queued writes) and resolves `{queued:false, data}`, or rejects with
   * OutboxRefusal carrying the server's message. Without a network it stays queued and
   * resolves `{queued:true}`: the caller says it will sync later.
   */
  async function submit(op: NewOp): Promise<SubmitResult> {
    const row = await enqueue(op);
    if (deps.isOnline && !deps.isOnline()) return { queued: true, op: row };
    awaiting.add(row.id);
    try {
      await replay();
    } finally {
      awaiting.delete(row.id);
    }
    const outcome = outcomes.get(row.id);
    outcomes.delete(row.id);
    const db = deps.db();
    if (outcome?.kind === 'sent') return { queued: false, data: outcome.data, op: row };
    if (outcome?.kind === 'refused') {
      // A run that was already going may have picked it up before we said we were waiting.
      if (db) await removeOps(db, await db.outbox.where('id').equals(row.id).toArray());
      throw new OutboxRefusal(outcome.error, outcome.cause);
    }
    const stored = db ? ((await db.outbox.get({ id: row.id })) as OutboxOp | undefined) : undefined;
    // Another tab may have sent it under the shared lock; then it is gone or refused there.
    if (!stored || stored.status === 'done') return { queued: false, data: undefined, op: row };
    if (stored.status === 'failed') throw new OutboxRefusal(stored.error ?? '操作失败', undefined);
    return { queued: true, op: stored };
  }

  /**
   * Puts a failed write back in the queue (optionally corrected) and replays. It gets a new
   * idempotency key: the server keeps the refusal as the answer to the old key (a replay would
   * only repeat it), and a refused write changed nothing, so sending it afresh is safe.
   */
  async function retry(id: string, changes?: Partial<Pick<OutboxRow, 'body' | 'label' | 'meta'>>) {
    const db = mustDb();
    const row = await db.outbox.get({ id });
    if (!row || row.seq === undefined) return undefined;
    const fresh = row.status === 'failed' ? { idempotencyKey: newKey() } : {};
    await db.outbox.update(row.seq, { ...changes, ...fresh, status: 'pending', error: undefined });
    void emit({ type: 'changed' });
    return replay();
  }

  /** Drops a queued or failed write for good; its views refresh to the server's truth. */
  async function discard(id: string) {
    const db = mustDb();
    const row = await db.outbox.get({ id });
    if (!row || row.seq === undefined || row.status === 'sending') return;
    await removeOps(db, [row]);
    await emit({ type: 'drained', scopes: row.scope, summary: { sent: 0, refused: 0, pending: 0 } });
    void emit({ type: 'changed' });
  }

  /** The bytes a binary write carries (to download them when it cannot be sent). */
  async function bytesOf(id: string): Promise<Blob | undefined> {
    return (await deps.db()?.outboxBlobs.get(id))?.blob;
  }

  async function list(): Promise<OutboxOp[]> {
    const db = deps.db();
    if (!db) return [];
    return (await db.outbox.orderBy('seq').toArray()) as OutboxOp[];
  }

  function subscribe(listener: (e: OutboxEvent) => void | Promise<void>) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }

  return { enqueue, submit, replay, retry, discard, list, subscribe, bytesOf };
}

export type Outbox = ReturnType<typeof createOutbox>;

class LostBytes extends Error {
  constructor() {
    super(BYTES_LOST);
  }
}

/** True when a query key starts with the prefix (element-wise JSON equality). */
export function keyHasPrefix(key: readonly unknown[], prefix: readonly unknown[]): boolean {
  if (prefix.length > key.length) return false;
  return prefix.every((p, i) => JSON.stringify(p) === JSON.stringify(key[i]));
}

/** The writes still to be drawn over the view `key`: queued, in flight or just sent (in order). */
export function opsFor(ops: readonly OutboxOp[], key: readonly unknown[]): OutboxOp[] {
  return ops.filter((o) => o.status !== 'failed' && o.scope.some((p) => keyHasPrefix(key, p)));
}

type OpState = Pick<OutboxOp, 'kind' | 'meta' | 'status'>;

/** A write still on the device (queued or being sent): its view says 待同步. */
export function isUnsent(o: Pick<OutboxOp, 'status'>): boolean {
  return o.status === 'pending' || o.status === 'sending';
}

/**
 * A feature's writes of one record the server refused on replay, oldest first: the record's view
 * shows each with its reason (the views themselves already show the server's truth). `kinds` are
 * the feature's write kinds; `idOf` reads the record's id from a write's meta.
 */
export function refusedOf<T extends OpState>(
  ops: readonly T[],
  kinds: readonly string[],
  idOf: (meta: unknown) => unknown,
  id: unknown,
): T[] {
  return ops.filter((o) => o.status === 'failed' && kinds.includes(o.kind) && idOf(o.meta) === id);
}
