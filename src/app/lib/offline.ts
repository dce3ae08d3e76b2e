import { notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { SESSION_EXPIRED_STATUS } from '../../shared/api/codes';
import {
  OUTBOX_REPLAY_MESSAGE,
  OUTBOX_SYNC_TAG,
  type OutboxReplayAnswer,
} from '../../shared/offline-protocol';
import { ApiError, drive, museum } from './api';
import { tOffline } from './i18n/offline';
import { observe, userDb, type UserDb } from './offline-db';
import { announceReplayedSave } from './office-save-notice';
import { createOutbox, type NewOp, type OutboxOp, type SubmitResult, type Verdict } from './outbox';
import { session } from './session';

/**
 * The app's offline wiring: the signed-in user's database, the one outbox instance and what
 * starts a replay (ARCHITECTURE.md §5). Replays run from the page — at start, on `online`, when
 * the app becomes visible again, and when the service worker's Background Sync asks for one
 * (Chromium). iPadOS has no Background Sync, so the page triggers alone must be enough.
 */

/** How long one binary write (a saved document) may take to send. */
const BINARY_TIMEOUT_MS = 5 * 60_000;

export function currentDb(): UserDb | null {
  const user = session.get()?.user;
  return user && session.isSignedIn() ? userDb(user.userId) : null;
}

/**
 * Network trouble keeps a write queued; a server answer is a refusal. The unsure cases stay
 * queued too: a timeout (the write may have landed; its key makes a resend safe), an expired
 * session (it goes once the user signs in again), a busy or restarting server (429, 502–504),
 * a key still being answered (409).
 */
export function classify(err: unknown): Verdict {
  if (!(err instanceof ApiError)) return 'network';
  if (err.status === 0 || err.status === SESSION_EXPIRED_STATUS) return 'network';
  // 409: the same key is still being answered (a resend raced the first send).
  if ([409, 429, 502, 503, 504].includes(err.status)) return 'network';
  return 'refused';
}

function webLock<T>(fn: () => Promise<T>): Promise<T> {
  const user = session.get()?.user;
  if (!user || !navigator.locks) return fn();
  // One replay at a time across this user's tabs; the other tab's write is not sent twice.
  return navigator.locks.request(`gwy-outbox-${user.userId}`, fn) as Promise<T>;
}

export const outbox = createOutbox({
  db: currentDb,
  send: (op, blob) =>
    (op.client === 'drive' ? drive : museum).post(op.path, blob ?? op.body, {
      query: op.query,
      idempotencyKey: op.idempotencyKey,
      silent: true,
      // A document's bytes over a weak gallery signal may take minutes.
      ...(blob ? { timeoutMs: BINARY_TIMEOUT_MS } : {}),
    }),
  classify,
  lock: webLock,
  isOnline: () => navigator.onLine,
});

/**
 * Asks the service worker to wake us when the network returns (Chromium only; a bonus): the
 * outbox's tag by default, or another queue's (the uploads').
 */
export function requestBackgroundSync(tag: string = OUTBOX_SYNC_TAG) {
  if (!('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.ready
    .then(
      (reg) => (reg as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync,
    )
    .then((sync) => sync?.register(tag))
    .catch(() => undefined);
}

/**
 * Sends a write the user is waiting for, through the outbox (see Outbox.submit): resolves
 * `{queued:false}` when the server took it, `{queued:true}` when it waits for the network, and
 * rejects with OutboxRefusal when the server said no.
 */
export async function submitWrite(op: NewOp): Promise<SubmitResult> {
  const result = await outbox.submit(op);
  if (result.queued) requestBackgroundSync();
  return result;
}

let started = false;

/**
 * Starts the replay triggers and the refresh of views after writes settle. Called once from
 * main.tsx; harmless when nobody is signed in (each trigger checks).
 */
export function startOffline(queryClient: QueryClient) {
  if (started) return;
  started = true;
  let background = false;

  outbox.subscribe(async (e) => {
    // A write sent in the background may need saying where it went (a save became a copy).
    if (e.type === 'sent' && background) announceReplayedSave(e.op, e.data);
    if (e.type === 'drained' && e.scopes.length) {
      // Refresh what the settled writes touched, so a refused write's view rolls back to the
      // server's truth and a sent one shows the server's result. Bounded: a stalled network
      // must not hold the queue.
      const unique = [...new Map(e.scopes.map((s) => [JSON.stringify(s), s])).values()];
      await Promise.race([
        Promise.all(unique.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
        new Promise((r) => setTimeout(r, 15_000)),
      ]);
    }
    if (e.type === 'drained' && background) {
      const { sent, refused } = e.summary;
      if (sent) notifications.show({ color: 'green', message: tOffline.synced(sent) });
      if (refused)
        notifications.show({
          color: 'red',
          title: tOffline.failedTitle,
          message: tOffline.failed(refused),
          autoClose: 8000,
        });
    }
  });

  const replay = () => {
    if (!currentDb() || !navigator.onLine) return Promise.resolve(undefined);
    background = true;
    return outbox.replay().finally(() => {
      background = false;
    });
  };

  window.addEventListener('online', () => void replay());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void replay();
  });
  // Another person on this device must never see the last one's views, not even for the
  // moment a refetch takes: the in-memory cache goes when the signed-in user changes (their
  // device copies are safe in their own database).
  let userId = session.get()?.user.userId;
  session.subscribe(() => {
    const next = session.get()?.user.userId;
    if (next !== userId) {
      userId = next;
      queryClient.clear();
    }
    void replay();
  });
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type !== OUTBOX_REPLAY_MESSAGE) return;
      const port = event.ports[0];
      const answer = (a: OutboxReplayAnswer) => port?.postMessage(a);
      void replay().then(
        (s) => answer({ ok: !s || s.pending === 0 }),
        () => answer({ ok: false }),
      );
    });
  }
  void replay();
}

/**
 * One live read of the outbox per user, shared by every component that shows it (the panel,
 * the pending badges, each cached view's overlay).
 */
const live = {
  userId: undefined as number | undefined,
  ops: [] as OutboxOp[],
  stop: undefined as (() => void) | undefined,
  listeners: new Set<() => void>(),
};
const EMPTY: OutboxOp[] = [];

function subscribeOutbox(listener: () => void, userId: number | undefined) {
  live.listeners.add(listener);
  if (userId !== live.userId) {
    live.stop?.();
    live.stop = undefined;
    live.userId = userId;
    live.ops = EMPTY;
  }
  if (!live.stop && userId !== undefined) {
    const db = userDb(userId);
    live.stop = observe(
      () => db.outbox.orderBy('seq').toArray() as Promise<OutboxOp[]>,
      (ops) => {
        live.ops = ops;
        live.listeners.forEach((l) => l());
      },
    );
  }
  return () => {
    live.listeners.delete(listener);
    if (live.listeners.size === 0) {
      live.stop?.();
      live.stop = undefined;
    }
  };
}

/** The signed-in user's outbox, live (this tab and others), oldest first. */
export function useOutbox(): OutboxOp[] {
  const userId = session.get()?.user.userId;
  // Re-subscribed when the user changes, so another person's queue is never shown.
  const subscribe = useCallback((l: () => void) => subscribeOutbox(l, userId), [userId]);
  const ops = useSyncExternalStore(subscribe, () => live.ops);
  return userId === undefined || userId !== live.userId ? EMPTY : ops;
}

/**
 * How a feature lets the user correct a refused write before retrying it (the 待同步 panel's
 * 修改后重试): e.g. the drive offers a new name for a rename refused with 同名文件已存在.
 */
export interface OutboxEditor {
  /** The field's label, e.g. 新名称. */
  field: string;
  value: (op: OutboxOp) => string;
  /** Why the corrected value cannot be sent, or null. */
  validate: (value: string) => string | null;
  apply: (op: OutboxOp, value: string) => { body: unknown; label: string; meta: unknown };
}

/** Editors by write kind; features register theirs when their code loads. */
export const outboxEditors = new Map<string, OutboxEditor>();
