/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { StaleWhileRevalidate } from 'workbox-strategies';
import {
  OUTBOX_REPLAY_MESSAGE,
  OUTBOX_SYNC_TAG,
  UPLOAD_SYNC_TAG,
  UPLOAD_WAKE_MESSAGE,
  type OutboxReplayAnswer,
} from '../src/shared/offline-protocol';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

/**
 * The service worker: the precached app shell (so the installed app opens with no network),
 * navigation to any client route answered with the shell (/login with the sign-in page), and
 * avatars kept for offline lists.
 * API data is never cached here: the app's own offline store (Dexie) owns it, per user.
 * A new version waits until the page accepts the update prompt (SKIP_WAITING).
 */
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

const API = /^\/(singleMuseum|wangpan)\//;

/** The two API reads this worker keeps for offline (below); every other API call bypasses it. */
const AVATARS = '/singleMuseum/sysUser/avatar/';
const PREVIEWS = '/singleMuseum/bsDigitalassetsInfo/preview';

/** The static routing API's rule (Chromium 123+; not in TypeScript's WebWorker library). */
interface RouterRule {
  condition: { urlPattern: { pathname: string } };
  source: 'network' | 'fetch-event';
}

/**
 * API calls go straight to the network, never through this worker (the static routing API,
 * `InstallEvent.addRoutes`). This worker answers none of them but the two it keeps, yet every
 * call used to wait for it to pass the request on; and a worker idle for 30 s is stopped by the
 * browser, so a tablet's next tap started it first just to pass a call on. Measured in Chromium
 * at 4× CPU slowdown (issue 25): a POST took 119 ms with the worker stopped and 34 ms with it
 * running; with these rules, about 20 ms either way. Rules match in order: the kept reads still
 * go to the worker. Browsers without the API (Safari, Firefox) pass calls through as before.
 */
self.addEventListener('install', (event) => {
  const add = (event as ExtendableEvent & { addRoutes?: (rules: RouterRule[]) => Promise<void> }).addRoutes;
  if (!add) return;
  const rules: RouterRule[] = [
    ...[`${AVATARS}*`, PREVIEWS].map((pathname): RouterRule => ({
      condition: { urlPattern: { pathname } },
      source: 'fetch-event',
    })),
    { condition: { urlPattern: { pathname: '/singleMuseum/*' } }, source: 'network' },
    { condition: { urlPattern: { pathname: '/wangpan/*' } }, source: 'network' },
  ];
  // A browser that refuses the rules still serves every call through the worker, as before.
  event.waitUntil(add.call(event, rules).catch(() => undefined));
});
// The sign-in page is a document of its own (login.html, issue 25), precached like the app's:
// signed out with the network gone, it still opens and says 当前离线.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/login.html'), { allowlist: [/^\/login(\?|$)/] }));
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [API, /\/[^/?]+\.[^/]+$/],
  }),
);

registerRoute(
  ({ url, request }) =>
    request.method === 'GET' && url.origin === self.location.origin && url.pathname.startsWith(AVATARS),
  new StaleWhileRevalidate({ cacheName: 'avatars' }),
);

// The collection's reduced images (README "Collection (issue 24)"): a keeper's tablet in the
// storeroom shows the records it opened with their pictures (each at most 1280 px, a JPEG).
registerRoute(
  ({ url, request }) =>
    request.method === 'GET' && url.origin === self.location.origin && url.pathname === PREVIEWS,
  new StaleWhileRevalidate({ cacheName: 'collection-previews' }),
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

/** Background Sync's event (Chromium); not in TypeScript's WebWorker library. */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

/**
 * Outbox replay on Background Sync (Chromium, Android tablets). The worker cannot send the
 * queued writes itself — they need the token header that only the page holds — so it asks the
 * open pages to replay and waits for their answer. If none drained the queue, the promise
 * rejects and the browser schedules another attempt. With no page open there is nothing to do:
 * the page replays when it next starts.
 */
async function askPages(type: string): Promise<void> {
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (pages.length === 0) return;
  const answers = await Promise.all(
    pages.map(
      (page) =>
        new Promise<boolean>((resolve) => {
          const channel = new MessageChannel();
          const timer = setTimeout(() => resolve(false), 60_000);
          channel.port1.onmessage = (m: MessageEvent<OutboxReplayAnswer>) => {
            clearTimeout(timer);
            resolve(Boolean(m.data?.ok));
          };
          page.postMessage({ type }, [channel.port2]);
        }),
    ),
  );
  if (!answers.some(Boolean)) throw new Error('outbox not drained');
}

self.addEventListener('sync', (event: Event) => {
  const sync = event as SyncEvent;
  if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(askPages(OUTBOX_REPLAY_MESSAGE));
  // Uploads run in the page (it holds the bytes and the token): wake the waiting ones there.
  if (sync.tag === UPLOAD_SYNC_TAG) sync.waitUntil(askPages(UPLOAD_WAKE_MESSAGE));
});

clientsClaim();
