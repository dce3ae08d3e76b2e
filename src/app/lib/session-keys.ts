/**
 * Where the session lives in the browser, without React: the sign-in page (login/main.ts) reads
 * and clears it too, and carries no framework (issue 25). session.ts is the app's store on top.
 */

/** The session state (user, roles, menu) across reloads of one tab. */
export const SESSION_KEY = 'gwy.session';
/** The last state, for an installed app that lost sessionStorage when it was closed. */
export const LAST_KEY = 'gwy.lastSession';
/**
 * The last screens as drawn, one per page that keeps one, shown at the next launch before the
 * app's code has run (lib/launch-snapshot.ts, public/launch-snapshot.js). They hold the
 * person's file names and counts: forgotten with the session, like LAST_KEY.
 */
export const SNAPSHOT_KEYS = {
  drive: 'gwy.launchSnapshot.drive',
  workbench: 'gwy.launchSnapshot.workbench',
} as const;
/**
 * Forgets what a session leaves in this browser's storage (its state, its copy for the installed
 * app, its last screen): at sign-out (session.clear) and before a new sign-in (login/main.ts).
 * The token's cookie and the offline database are the callers' own.
 */
export function forgetSessionState(): void {
  sessionStorage.removeItem(SESSION_KEY);
  localStorage.removeItem(LAST_KEY);
  for (const key of Object.values(SNAPSHOT_KEYS)) localStorage.removeItem(key);
}
/** The token's cookie, set by the server at sign-in and sent back as the `token` header. */
export const TOKEN_COOKIE = 'token';

export function readToken(): string | undefined {
  const m = document.cookie.match(/(?:^|;\s*)token=([^;]+)/);
  return m?.[1] ? decodeURIComponent(m[1]) : undefined;
}

/** The page to go to after sign-in: only a path of this app, never another site (open redirect). */
export function safeTarget(target: string | null | undefined): string | undefined {
  return target && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\')
    ? target
    : undefined;
}
