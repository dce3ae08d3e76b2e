/**
 * The sign-in page is a document of its own (login.html, README "Speed (issue 25)"), not a
 * route of the app: going there loads it. Offline that works only once the service worker has
 * kept it (it precaches it with the app, a few seconds after a first visit settles); before
 * then, the app's /login route shows 当前离线 instead (features/auth/signed-out-offline.tsx).
 */

/** Whether loading /login now would show the sign-in page, not the browser's error page. */
export async function signInPageOpens(): Promise<boolean> {
  // A controlling worker has finished its install, and the install precached login.html.
  if (navigator.serviceWorker?.controller) return true;
  try {
    await fetch('/login', { method: 'HEAD', cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

/** Loads the sign-in page in place of this one, keeping /login's query (`redirect`). */
export function openSignInPage(search = window.location.search): void {
  window.location.replace(`/login${search}`);
}

/**
 * Leaves the app for the sign-in page (signing out): loads the document when it can, else goes
 * to the app's /login route (`inApp`), which says 当前离线 and loads it once the server answers.
 * Checked before the address changes, so /login in the address bar means the page is there.
 */
export async function leaveForSignIn(inApp: () => void): Promise<void> {
  if (await signInPageOpens()) window.location.assign('/login');
  else inApp();
}
