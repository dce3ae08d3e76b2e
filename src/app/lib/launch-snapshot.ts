import { useEffect, useLayoutEffect } from 'react';
import type { CachedStatus } from './cached-query';
import { LAST_KEY, SNAPSHOT_KEYS } from './session-keys';

/**
 * The launch snapshot (issue 25, the cached listing on a slow tablet): the drive's last screen,
 * kept as the HTML React drew, and shown by `public/launch-snapshot.js` at the next launch
 * before any of the app's code has run. On a tablet at a quarter of a desktop's speed the app's
 * code takes seconds to compile and draw the cached listing; the snapshot shows the same
 * listing with the first paint, and the live page replaces it in the commit that draws its own.
 *
 * Decisions:
 * - Two pages keep one (`useLaunchSnapshot`), each under its own key: the drive (its folders,
 *   not search results), where staff go to look something up, and the workbench, where the
 *   home-screen icon opens for most of them (the app's start `/` leads to the person's first
 *   page). Each keeps it only once it shows its data, never a spinner. The workbench greets by
 *   the hour and shows the date and today's schedule, so its picture lives until midnight only;
 *   its counts are the device's, the same the live page shows first.
 * - It is shown only for the same person (the token's cookie is there, the last session's user
 *   is the snapshot's), at the same address (the app's start `/`, where the home-screen icon
 *   opens it, counts as the person's first page), with the same style sheets (a new version's
 *   class names differ), and for at most SNAPSHOT_MAX_AGE_MS. It is forgotten with the session
 *   (session-keys.ts, forgetSessionState: at sign-out and on the sign-in page).
 * - It is a picture, not the app. It is drawn in a closed shadow tree of its own layer, so its
 *   copies of rows and names are not in the document for a script, a test or a screen reader
 *   to find beside the live ones (the layer is aria-hidden). The picture is inert; the layer
 *   over the whole screen is not, so a tap on the picture lands on the layer and does nothing,
 *   instead of passing through to the page the app is drawing beneath (the first version's
 *   inert overlay let it through). 正在启动… in a corner says why nothing answers yet.
 * - It goes when the drive is no longer loading (`useLaunchSnapshot`: its rows drawn, or
 *   nothing kept offline, or an error, which the picture must not hide), in the same commit,
 *   before the browser paints; when the app goes to another address (a redirect, the session
 *   ended); when a page's code cannot load; and after SNAPSHOT_DISMISS_MS whatever happens.
 * - The HTML is our own DOM serialised (text escaped by the browser). The boot script still
 *   removes scripts, frames, event attributes, script URLs, ids and test ids before showing
 *   it, and the CSP forbids inline script: a tampered entry in localStorage cannot run code.
 */

/** Beyond this size a snapshot is not kept: localStorage is ~5 MB per site, shared. */
export const SNAPSHOT_MAX_CHARS = 600_000;
/** An older snapshot is never shown (the token's cookie lives 7 days; spec/office.md §4). */
export const SNAPSHOT_MAX_AGE_MS = 7 * 24 * 3600_000;
/**
 * The picture goes after this long whatever happens: the app never sits long behind a picture
 * that takes its taps. The drive draws its cached rows in 3–4 s on a tablet at a quarter speed.
 */
export const SNAPSHOT_DISMISS_MS = 12_000;
/** The layer in index.html that holds the picture. */
const OVERLAY_ID = 'launch-snapshot';

/** A page that keeps its screen, and the key it is kept under (session-keys.ts). */
export type SnapshotKind = keyof typeof SNAPSHOT_KEYS;
/** How long a kept screen may be shown: until midnight (it shows the day), or SNAPSHOT_MAX_AGE_MS. */
export type SnapshotLife = 'day' | 'week';

/** What is stored under SNAPSHOT_KEYS (read by public/launch-snapshot.js: keep them in step). */
export interface LaunchSnapshot {
  v: 1;
  userId: number;
  /** pathname + search of the page, as `location` gives them. */
  path: string;
  /** The style sheets' addresses when it was taken. */
  sheets: string[];
  /** Mantine's colour scheme attribute on <html>. */
  scheme: string;
  /** #root's HTML. */
  html: string;
  savedAt: number;
  /** Not shown from this moment on. */
  expires: number;
}

/** The snapshot as stored, or null when it would be too big to keep. */
export function encodeSnapshot(s: Omit<LaunchSnapshot, 'v'>): string | null {
  const text = JSON.stringify({ v: 1, ...s } satisfies LaunchSnapshot);
  return text.length > SNAPSHOT_MAX_CHARS ? null : text;
}

/** Style sheets of the document, in order: the boot script compares them the same way. */
function sheets(): string[] {
  return [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((l) => l.href);
}

/** The end of today on this device: a screen that shows the day is not shown on the next. */
function endOfDay(now: number): number {
  const d = new Date(now);
  d.setHours(24, 0, 0, 0);
  return d.getTime();
}

/** Keeps the screen as it is now, for the next launch. Never throws (a full storage, say). */
export function saveSnapshot(kind: SnapshotKind, life: SnapshotLife): void {
  const root = document.getElementById('root');
  if (!root || document.getElementById(OVERLAY_ID)?.dataset.path) return;
  try {
    // The person as the boot script will compare them: the last session's (lib/session.ts keeps
    // it current). Not the session store itself, which reads the cookie when loaded (and
    // routes/lazy.tsx, loaded everywhere, imports this file).
    const user = (
      JSON.parse(localStorage.getItem(LAST_KEY) ?? 'null') as { user?: { userId?: number } } | null
    )?.user;
    if (typeof user?.userId !== 'number') return;
    const now = Date.now();
    const text = encodeSnapshot({
      userId: user.userId,
      path: location.pathname + location.search,
      sheets: sheets(),
      scheme: document.documentElement.getAttribute('data-mantine-color-scheme') ?? 'light',
      html: root.innerHTML,
      savedAt: now,
      expires: life === 'day' ? endOfDay(now) : now + SNAPSHOT_MAX_AGE_MS,
    });
    if (text) localStorage.setItem(SNAPSHOT_KEYS[kind], text);
    else localStorage.removeItem(SNAPSHOT_KEYS[kind]);
  } catch {
    /* storage full or refused: the next launch shows the loading screen, as before */
  }
}

/**
 * Takes the snapshot away for good (the live app is drawn, or should be seen whatever it
 * shows): removed, not hidden, so that a style sheet the boot script still waits for cannot
 * reveal it afterwards.
 */
export function dismissSnapshot(): void {
  document.getElementById(OVERLAY_ID)?.remove();
}

/**
 * Dismisses the snapshot when the app goes to another address than the one it shows (a
 * redirect, a page of the menu) and after SNAPSHOT_DISMISS_MS. Called once at start (main.tsx).
 */
export function watchSnapshot(subscribe: (onChange: () => void) => () => void): void {
  // dataset.path: the boot script chose a snapshot (shown, or about to be once its sheets load).
  const shownAt = document.getElementById(OVERLAY_ID)?.dataset.path;
  if (!shownAt) return;
  const stop = subscribe(() => {
    if (location.pathname + location.search !== shownAt) dismissSnapshot();
  });
  setTimeout(() => {
    stop();
    dismissSnapshot();
  }, SNAPSHOT_DISMISS_MS);
}

/**
 * For a page worth showing at launch (`kind`), given the state of its data (a cached view's
 * status).
 * Once it is no longer loading, the snapshot of the last launch goes: the data is drawn, or the
 * page has something else to say (not kept offline, an error) that the picture must not hide.
 * Once it is `ready` and `keep` (the drive keeps its folders, not its search results), this
 * screen is kept for the next launch, again when `key` changes (another folder, more rows) and
 * whenever the tab is hidden (an installed app is usually closed from the task switcher,
 * without `pagehide`).
 */
export function useLaunchSnapshot(
  kind: SnapshotKind,
  status: CachedStatus,
  key: string,
  { keep = true, life = 'week' }: { keep?: boolean; life?: SnapshotLife } = {},
): void {
  const settled = status !== 'loading';
  const ready = status === 'ready' && keep;
  // In the commit that draws the data, before the browser paints or runs anything else: the
  // picture and the live page are never both on the screen, nor both in the document.
  useLayoutEffect(() => {
    if (settled) dismissSnapshot();
  }, [settled]);
  useEffect(() => {
    if (!ready) return;
    // After the browser has painted and is idle: serialising the DOM is a few ms.
    const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 300));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => saveSnapshot(kind, life));
    const onHide = () => {
      if (document.visibilityState === 'hidden') saveSnapshot(kind, life);
    };
    document.addEventListener('visibilitychange', onHide);
    return () => {
      cancel(handle);
      document.removeEventListener('visibilitychange', onHide);
    };
  }, [ready, key, kind, life]);
}
