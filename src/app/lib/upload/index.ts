import { notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { UPLOAD_SYNC_TAG, UPLOAD_WAKE_MESSAGE } from '../../../shared/offline-protocol';
import { tUpload } from '../i18n/upload';
import { requestBackgroundSync } from '../offline';
import { userDb } from '../offline-db';
import { session } from '../session';
import { createUploadEngine, type UploadEngine, type UploadView } from './engine';
import { md5Of, proofOf } from './hasher';
import { effectiveBudget, openKeeper } from './keeper';
import { cancelUpload, sendChunk, testUpload } from './transport';

/**
 * The app's upload wiring: one engine per signed-in person, created at start so unfinished
 * uploads resume by themselves, and what wakes the ones waiting for the network: `online`,
 * the app becoming visible again, a timer, and the service worker's Background Sync
 * (Chromium). iPadOS has no Background Sync and suspends hidden pages, so the page triggers
 * are the ones that must work.
 */

/** The signed-in person's queue: `engine` once `ready` has loaded it. */
interface Current {
  userId: number;
  engine: UploadEngine | null;
  ready: Promise<UploadEngine>;
}
let current: Current | null = null;
const swapListeners = new Set<() => void>();
let queryClientRef: QueryClient | null = null;

function lockItem(id: string, fn: () => Promise<void>): Promise<boolean> {
  if (!navigator.locks) return fn().then(() => true);
  return navigator.locks.request(`gwy-upload-${id}`, { ifAvailable: true }, async (lock) => {
    if (!lock) return false;
    await fn();
    return true;
  }) as Promise<boolean>;
}

async function build(userId: number): Promise<UploadEngine> {
  const db = userDb(userId);
  const keeper = await openKeeper(userId, db).catch(() => null);
  const engine = createUploadEngine({
    db,
    keeper,
    keepBudget: effectiveBudget,
    hasher: { md5Of, proofOf },
    transport: { testUpload, sendChunk, cancelUpload },
    isOnline: () => navigator.onLine,
    lockItem,
  });
  engine.on((e) => {
    if (e.type === 'readError') {
      notifications.show({ color: 'red', message: tUpload.readError(e.name), autoClose: 2000 });
    } else if (e.type === 'idle') {
      if (e.anySuccess) void queryClientRef?.invalidateQueries({ queryKey: ['drive'] });
      if (e.finished && e.lastSucceeded) {
        notifications.show({ color: 'green', message: tUpload.done, autoClose: 3000 });
      }
    }
  });
  // Background Sync fires when the device is back online; registered while it is online
  // (a server away, not the network) it would fire at once and spin the queue, so that case
  // is left to the engine's own timer.
  engine.subscribe(() => {
    if (!navigator.onLine && engine.getSnapshot().some((v) => v.state === 'offline'))
      requestBackgroundSync(UPLOAD_SYNC_TAG);
  });
  await engine.load();
  return engine;
}

/** Stops a queue, once it has loaded (rows stay for next time). */
function stopQueue(c: Current): Promise<void> {
  return c.ready.then(
    (engine) => engine.stop(),
    () => undefined,
  );
}

/** Follows the signed-in person: their queue runs, the last one's stops (rows stay for them). */
function follow() {
  const user = session.isSignedIn() ? session.get()?.user : undefined;
  if (current && current.userId === user?.userId) return;
  if (current) void stopQueue(current);
  current = null;
  if (user) {
    const entry: Current = { userId: user.userId, engine: null, ready: build(user.userId) };
    current = entry;
    void entry.ready.then((engine) => {
      if (current !== entry) return;
      entry.engine = engine;
      swapListeners.forEach((l) => l());
    });
    // Kept upload bytes and offline listings should survive storage pressure (installed apps
    // are granted this silently in Chromium; Safari 17+ honours it).
    void navigator.storage?.persist?.().catch(() => undefined);
  }
  swapListeners.forEach((l) => l());
}

/** Stops the current person's queue (sign-out); the session change starts the next one. */
export async function stopUploads() {
  const c = current;
  current = null;
  if (c) await stopQueue(c);
  swapListeners.forEach((l) => l());
}

/** The signed-in person's queue once it has loaded, or null. */
export function uploadEngine(): UploadEngine | null {
  return current?.engine ?? null;
}

/** Resolves with the queue once loaded (for adds right after sign-in). */
export async function readyEngine(): Promise<UploadEngine | null> {
  const c = current;
  if (!c) return null;
  const engine = await c.ready;
  return current === c ? engine : null;
}

let started = false;
export function startUploads(queryClient: QueryClient) {
  if (started) return;
  started = true;
  queryClientRef = queryClient;
  session.subscribe(follow);
  follow();
  const wake = () => uploadEngine()?.wake();
  window.addEventListener('online', wake);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') wake();
  });
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type !== UPLOAD_WAKE_MESSAGE) return;
      wake();
      event.ports[0]?.postMessage({ ok: true });
    });
  }
}

const EMPTY: UploadView[] = [];
function subscribe(l: () => void) {
  swapListeners.add(l);
  let unsub = uploadEngine()?.subscribe(l);
  const onSwap = () => {
    unsub?.();
    unsub = uploadEngine()?.subscribe(l);
  };
  swapListeners.add(onSwap);
  return () => {
    swapListeners.delete(l);
    swapListeners.delete(onSwap);
    unsub?.();
  };
}

/** The signed-in person's upload queue, live. */
export function useUploads(): UploadView[] {
  return useSyncExternalStore(subscribe, () => uploadEngine()?.getSnapshot() ?? EMPTY);
}

export type { UploadView } from './engine';
