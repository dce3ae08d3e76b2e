import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { MUSEUM_PREFIX } from '../../shared/api/envelope';
import { LIVE_STREAM_PATH, LiveChange } from '../../shared/api/notice';
import { session } from './session';

/**
 * The live stream of the signed-in user's notice centre (Server-Sent Events, issue 7). The
 * server says which lists changed; this refetches them, so badges and the popup follow within a
 * second. While the stream is down (offline, server restarting, a proxy that drops streams) the
 * counts fall back to the spec's 3-second refresh (lib/notices.ts reads `useLiveUp`).
 *
 * EventSource carries the token cookie (GET), reconnects by itself after the server's `retry`
 * time, and is closed while the device is offline or nobody is signed in.
 */

/** Query-key prefix of everything the notice centre shows; `[NOTICE_KEY, topic]` per list. */
export const NOTICE_KEY = 'notice';

let up = false;
const listeners = new Set<() => void>();
function setUp(next: boolean) {
  if (next === up) return;
  up = next;
  listeners.forEach((l) => l());
}

/** True while the live stream is connected. */
export function useLiveUp(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => up,
  );
}

let started = false;

/** Opens and closes the stream as the session and the network come and go. Called once from main.tsx. */
export function startLive(queryClient: QueryClient) {
  if (started || typeof EventSource === 'undefined') return;
  started = true;
  let source: EventSource | null = null;
  let userId: number | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const refresh = (topics?: readonly string[]) => {
    // The counts always; the lists named, or all of them after a gap in which events were missed.
    void queryClient.invalidateQueries({ queryKey: [NOTICE_KEY, 'counts'] });
    if (!topics) void queryClient.invalidateQueries({ queryKey: [NOTICE_KEY] });
    else for (const t of topics) void queryClient.invalidateQueries({ queryKey: [NOTICE_KEY, t] });
  };

  const close = () => {
    clearTimeout(retry);
    source?.close();
    source = null;
    setUp(false);
  };

  const open = () => {
    close();
    const es = new EventSource(`${MUSEUM_PREFIX}${LIVE_STREAM_PATH}`);
    source = es;
    es.addEventListener('ready', () => {
      setUp(true);
      refresh();
    });
    es.addEventListener('change', (e) => {
      const parsed = LiveChange.safeParse(JSON.parse((e as MessageEvent<string>).data || '{}'));
      refresh(parsed.success ? parsed.data.topics : undefined);
    });
    es.addEventListener('error', () => {
      setUp(false);
      // A refused stream (session ended: HTTP 999) is not retried by the browser; try again
      // later while someone is still signed in, so a fresh sign-in gets its stream back.
      if (es.readyState === EventSource.CLOSED) {
        clearTimeout(retry);
        retry = setTimeout(sync, 15_000);
      }
    });
  };

  function sync() {
    const next = session.isSignedIn() ? session.get()?.user.userId : undefined;
    const wanted = next !== undefined && navigator.onLine;
    if (!wanted) {
      userId = undefined;
      close();
      return;
    }
    if (next !== userId || !source || source.readyState === EventSource.CLOSED) {
      userId = next;
      open();
    }
  }

  session.subscribe(sync);
  window.addEventListener('online', sync);
  window.addEventListener('offline', sync);
  sync();
}
