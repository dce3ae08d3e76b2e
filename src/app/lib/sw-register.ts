import { Workbox } from 'workbox-window';

/**
 * How long after the first screen a first install waits before it precaches the app. The
 * install fetches every page's code (about 400 files, 5.6 MB before compression) from the same server as the
 * workbench's first calls; on a tablet's Wi-Fi, or on a server shared with other people's
 * sign-ins, those calls must go first (issue 25: the precache in the seconds after sign-in
 * delayed a colleague's live notice past 2 s on the test machine).
 */
export const FIRST_INSTALL_DELAY_MS = 2000;
/** The longest the first install waits for the page to go idle after that delay. */
const IDLE_TIMEOUT_MS = 3000;

/** Resolves once the page has loaded, the delay has passed and the main thread is idle. */
function settled(): Promise<void> {
  return new Promise((resolve) => {
    const idle = () => {
      // Safari (the iPads) has no requestIdleCallback: the delay alone then.
      if (typeof requestIdleCallback === 'function')
        requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
      else resolve();
    };
    const later = () => setTimeout(idle, FIRST_INSTALL_DELAY_MS);
    if (document.readyState === 'complete') later();
    else window.addEventListener('load', later, { once: true });
  });
}

/**
 * Registers the service worker (production builds only: the dev server has no precache).
 * When a new version is waiting, `onUpdate` is called with a function that activates it;
 * the page reloads once the new worker controls it, so nobody runs a half-updated app.
 *
 * A device that has the worker already registers at once (an update check; the worker keeps
 * serving meanwhile). A first install waits until the first screen has settled (`settled`):
 * its precache is what makes every page open offline, but nothing on the screen needs it now.
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
  const ready = navigator.serviceWorker.controller ? Promise.resolve() : settled();
  // Without a worker the app still runs online (a browser that refuses workers, or Playwright's
  // `serviceWorkers: 'block'`, whose stub answers no registration and made this an unhandled
  // rejection on every page); offline use needs it, so say so in the console.
  void ready
    .then(() => wb.register({ immediate: true }))
    .catch((err: unknown) => console.warn('离线功能不可用：Service Worker 未能注册', err));
}
