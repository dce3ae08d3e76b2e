/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { StaleWhileRevalidate } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

/**
 * The service worker: the precached app shell (so the installed app opens with no network),
 * navigation to any client route answered with the shell, and avatars kept for offline lists.
 * API data is never cached here: the app's own offline store (Dexie) owns it, per user.
 * A new version waits until the page accepts the update prompt (SKIP_WAITING).
 */
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

const API = /^\/(singleMuseum|wangpan)\//;
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [API, /\/[^/?]+\.[^/]+$/],
  }),
);

registerRoute(
  ({ url, request }) =>
    request.method === 'GET' &&
    url.origin === self.location.origin &&
    url.pathname.startsWith('/singleMuseum/sysUser/avatar/'),
  new StaleWhileRevalidate({ cacheName: 'avatars' }),
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

clientsClaim();
