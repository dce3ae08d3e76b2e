import { useSyncExternalStore } from 'react';

/**
 * Whether the server answered the last call that went out (lib/api.ts reports each one). The
 * browser's own `navigator.onLine` only knows whether the device has a network: a tablet on a
 * gallery's Wi-Fi that cannot reach the server (the access point up, its uplink down) reports
 * online throughout, and nothing would say 当前离线 nor switch the views to the device's copy
 * until their reads failed one by one.
 */
let reachable = true;
const listeners = new Set<() => void>();

function setReachable(next: boolean) {
  if (next === reachable) return;
  reachable = next;
  for (const l of listeners) l();
}

/** A call got an HTTP answer (any status): the server is reachable. */
export function serverAnswered() {
  setReachable(true);
}

/** A call failed for the network (no HTTP answer, not a timeout nor a cancel). */
export function serverUnreachable() {
  setReachable(false);
}

// The device's network coming back is worth a try at once: the views read again (their
// "back online" effect) and the first answer confirms it.
// (Optional call: unit tests run the API client with a bare `window`.)
if (typeof window !== 'undefined') window.addEventListener?.('online', () => setReachable(true));

/**
 * `useOnline` outside React: whether to read the device's copy first and which words a failure
 * gets. Calls that bring the server back (the outbox, the upload queue, the views' retries)
 * still try whenever the device has a network.
 */
export function isOnline(): boolean {
  return navigator.onLine && reachable;
}

function subscribe(cb: () => void) {
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  listeners.add(cb);
  return () => {
    window.removeEventListener('online', cb);
    window.removeEventListener('offline', cb);
    listeners.delete(cb);
  };
}

/**
 * Whether the app can reach its server: the device has a network and the last call got an
 * answer. Drives the 当前离线 banner and every view's offline mode.
 */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline);
}
