import type { InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { MUSEUM_PREFIX } from '../../shared/api/codes';
import { LIVE_STREAM_PATH, readLiveChange } from '../../shared/api/live';
import type { SidebarCounts } from '../../shared/api/notice';
import { keepOnDevice, type Cached } from './cached-query';
import { serverAnswered } from './online';
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
/** Query-key prefix of the announcements (信息发布, the workbench card, 通知公告): topic `announce`. */
export const ANNOUNCE_KEY = 'announce';

/** The counts of the top bar, side menu and workbench (lib/notices.ts, per user). */
const COUNTS_KEY = [NOTICE_KEY, 'counts'];
/**
 * How long a tab without the stream waits for the counts the stream's tab read before it reads
 * them itself (that tab may be on a page without them, or its read failed): the spec's 3 s, the
 * same as the counts' refresh while the stream is down.
 */
const SHARED_COUNTS_WAIT_MS = 3000;

/** The queries a topic's change makes stale. */
function keyOf(topic: string): readonly unknown[] {
  return topic === 'announce' ? [ANNOUNCE_KEY] : [NOTICE_KEY, topic];
}

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

/** What the tab holding the stream tells the user's other tabs. */
type Message =
  | { type: 'change'; topics: string[] | null }
  | { type: 'counts'; entries: [readonly unknown[], unknown][] }
  | { type: 'up'; up: boolean }
  | { type: 'hello' };

/**
 * Opens and closes the stream as the session and the network come and go. Called once from
 * main.tsx. One tab per user holds the stream (a Web Lock elects it) and passes each change to
 * the others over a BroadcastChannel: browsers allow six connections per server over HTTP/1.1,
 * and a stream per open tab would eat into what uploads and reads need. When that tab closes,
 * the next waiting tab takes over. Browsers without Web Locks open one stream per tab.
 *
 * A change of the side menu's counts arrives with them (shown at once, no round trip). The
 * counts are still read once, by the stream's tab, and passed on with their answer: every tab
 * reading them itself made each change cost the server a round of count calls per tab, and
 * the tabs queue for the same six connections (a second tab's badge was the one that came
 * late on a loaded machine). A tab that hears of a change but not of its counts reads them
 * itself after SHARED_COUNTS_WAIT_MS.
 */
export function startLive(queryClient: QueryClient) {
  if (started || typeof EventSource === 'undefined') return;
  started = true;
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  // The user this tab follows, whether it holds the stream, and how it lets go.
  let userId: number | undefined;
  let leader = false;
  let channel: BroadcastChannel | null = null;
  let release: (() => void) | undefined;
  let abort: AbortController | undefined;

  /**
   * Reads again what a change made stale. A read already under way is dropped first: it may have
   * been answered before the change. React Query's invalidation cancels a running read only
   * when the query has data; a view's first read (just after a reload) it would join instead,
   * and that answer, from before the change, would stand until the next change (a notice that
   * came while the bell's first read was writing its answer to the device never showed).
   */
  const reread = (filters: InvalidateQueryFilters) =>
    queryClient.cancelQueries(filters).then(() => queryClient.invalidateQueries(filters));

  let countsWait: ReturnType<typeof setTimeout> | undefined;
  const readCounts = () => {
    clearTimeout(countsWait);
    return reread({ queryKey: COUNTS_KEY });
  };
  /** The lists named, or all of them after a gap in which events were missed; never the counts. */
  const refreshLists = (topics: readonly string[] | null) => {
    if (!topics) {
      void reread({ predicate: (q) => q.queryKey[0] === NOTICE_KEY && q.queryKey[1] !== COUNTS_KEY[1] });
      void reread({ queryKey: [ANNOUNCE_KEY] });
    } else for (const t of topics) void reread({ queryKey: keyOf(t) });
  };
  const tell = (m: Message) => channel?.postMessage(m);
  /**
   * The side menu's counts the stream sent with a change: kept on the device first, as a read
   * of them would be (so the badge reads the same after an offline reload), then shown and
   * passed to the other tabs. A round trip saved on the way to the bell.
   */
  const showCounts = async (counts: SidebarCounts) => {
    const syncedAt = Date.now();
    const views = queryClient.getQueriesData<Cached<Record<string, number>>>({ queryKey: COUNTS_KEY });
    const entries: [readonly unknown[], unknown][] = [];
    await Promise.all(
      views.map(async ([key, old]) => {
        if (!old) return;
        const next = { data: { ...old.data, ...counts }, syncedAt };
        await keepOnDevice(key, next.data, syncedAt);
        queryClient.setQueryData(key, next);
        entries.push([key, next]);
      }),
    );
    // Nothing to pass when this tab shows no counts (the volunteer's phone view): an empty
    // message would stop the other tabs' own read after SHARED_COUNTS_WAIT_MS.
    if (entries.length) tell({ type: 'counts', entries });
  };
  /** Reads the counts and passes the answer on; only one read after this change counts. */
  const readAndPassCounts = () => {
    const since = Date.now();
    return readCounts().then(() => {
      // Only answers read after this change: a read it cancelled (a second change came) is not.
      const entries = queryClient
        .getQueriesData({ queryKey: COUNTS_KEY })
        .filter(([key]) => (queryClient.getQueryState(key)?.dataUpdatedAt ?? 0) >= since);
      if (entries.length) tell({ type: 'counts', entries });
    });
  };
  const changed = (topics: string[] | null, counts?: SidebarCounts) => {
    tell({ type: 'change', topics });
    // The counts first: the lists' answers, coming back meanwhile, must not queue before them.
    const shown = counts ? showCounts(counts) : Promise.resolve();
    refreshLists(topics);
    // Read all the same, after: the resources', registrations' and books' counts are not on
    // the stream, and the read confirms the rest.
    void shown.then(readAndPassCounts);
  };
  const status = (next: boolean) => {
    setUp(next);
    tell({ type: 'up', up: next });
  };

  const closeSource = () => {
    clearTimeout(retry);
    source?.close();
    source = null;
    setUp(false);
  };

  const openSource = () => {
    closeSource();
    const es = new EventSource(`${MUSEUM_PREFIX}${LIVE_STREAM_PATH}`);
    source = es;
    es.addEventListener('ready', () => {
      // The stream is a call that got its answer: the server is reachable again.
      serverAnswered();
      status(true);
      changed(null);
    });
    es.addEventListener('change', (e) => {
      const change = readLiveChange((e as MessageEvent<string>).data);
      changed(change ? change.topics : null, change?.counts);
    });
    es.addEventListener('error', () => {
      status(false);
      // A refused stream (session ended: HTTP 999) is not retried by the browser; try again
      // later while someone is still signed in, so a fresh sign-in gets its stream back.
      if (es.readyState === EventSource.CLOSED) {
        clearTimeout(retry);
        retry = setTimeout(sync, 15_000);
      }
    });
  };

  const leave = () => {
    leader = false;
    release?.();
    release = undefined;
    abort?.abort();
    abort = undefined;
    closeSource();
    channel?.close();
    channel = null;
    clearTimeout(countsWait);
    userId = undefined;
  };

  const join = (id: number) => {
    userId = id;
    if (typeof BroadcastChannel !== 'undefined') {
      channel = new BroadcastChannel(`gwy-live-${id}`);
      channel.onmessage = (e: MessageEvent<Message>) => {
        const m = e.data;
        // Without Web Locks every tab holds its own stream and hears the changes there.
        if (m.type === 'change' && !leader) {
          refreshLists(m.topics);
          clearTimeout(countsWait);
          countsWait = setTimeout(() => void readCounts(), SHARED_COUNTS_WAIT_MS);
        } else if (m.type === 'counts' && !leader) {
          clearTimeout(countsWait);
          for (const [key, value] of m.entries) queryClient.setQueryData(key, value);
        } else if (m.type === 'up') setUp(m.up);
        else if (m.type === 'hello' && leader) tell({ type: 'up', up });
      };
      tell({ type: 'hello' });
    }
    if (!navigator.locks || !channel) {
      leader = true;
      return;
    }
    abort = new AbortController();
    void navigator.locks
      .request(`gwy-live-${id}`, { signal: abort.signal }, () => {
        leader = true;
        sync();
        // Held until this tab leaves (sign-out, another user) or closes.
        return new Promise<void>((resolve) => (release = resolve));
      })
      .catch(() => undefined);
  };

  function sync() {
    const next = session.isSignedIn() ? session.get()?.user.userId : undefined;
    if (next !== userId) {
      leave();
      if (next === undefined) return;
      join(next);
    }
    if (!leader) return;
    if (!navigator.onLine) closeSource();
    else if (!source || source.readyState === EventSource.CLOSED) openSource();
  }

  session.subscribe(sync);
  window.addEventListener('online', sync);
  window.addEventListener('offline', sync);
  sync();
}
