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
  void wb.register();
}
