import { Workbox } from 'workbox-window';

/**
 * Registers the service worker (production builds only: the dev server has no precache).
 * When a new version is waiting, `onUpdate` is called with a function that activates it;
 * the page reloads once the new worker controls it, so nobody runs a half-updated app.
 */
export function registerServiceWorker(onUpdate: (activate: () => void) => void) {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () => {
    onUpdate(() => {
      wb.addEventListener('controlling', () => window.location.reload());
      wb.messageSkipWaiting();
    });
  });
  // Without a worker the app still runs online (a browser that refuses workers, or Playwright's
  // `serviceWorkers: 'block'`, whose stub answers no registration and made this an unhandled
  // rejection on every page); offline use needs it, so say so in the console.
  wb.register().catch((err: unknown) => console.warn('离线功能不可用：Service Worker 未能注册', err));
}
