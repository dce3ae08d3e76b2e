import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { errorToast } from './api';
import { classify, currentDb, useOutbox } from './offline';
import { keepAnswer, pruneCache, type CacheRow } from './offline-db';
import { opsFor, type OutboxOp } from './outbox';
import { useOnline } from './online';

/**
 * A server read that also lives on the device (ARCHITECTURE.md §5): the view renders the
 * device's copy at once, refreshes it from the network and writes the answer through. Without
 * a network it keeps showing the copy, says so, and says when it was last synced; a view never
 * opened online says it is not available offline. Queued writes (the outbox) are drawn over
 * the data by the feature's `overlay`, so an offline rename shows at once and a refused one
 * disappears again.
 *
 * The device copy is keyed by the JSON of `queryKey`; scopes in outbox writes are prefixes of
 * these keys, so the same prefix refreshes the server read and selects the overlaid writes.
 */
export interface CachedQueryOptions<T> {
  queryKey: readonly unknown[];
  /** Reads from the server. Call `progress` with partial results of a long read (paged lists). */
  fetch: (ctx: { signal: AbortSignal; progress: (partial: T) => void }) => Promise<T>;
  enabled?: boolean;
  /** Draws the queued writes that touch this view over the data (optimistic view). */
  overlay?: (data: T, ops: OutboxOp[]) => T;
  /** Data for a view never cached, when queued writes explain it (a folder created offline is empty). */
  offlineFallback?: (ops: OutboxOp[]) => T | undefined;
  /** Toast the server's refusal (spec §8); off for reads whose failure the view shows itself. */
  toastErrors?: boolean;
  /** Re-read from the server this often (ms), e.g. the counts while the live stream is down. */
  refetchInterval?: number | false;
}

/** What a cached view keeps in the query cache for its server answer (set it in this shape). */
export interface Cached<T> {
  data: T;
  syncedAt: number;
}

export type CachedStatus = 'loading' | 'ready' | 'not-cached' | 'error';

export interface CachedView<T> {
  data: T | undefined;
  status: CachedStatus;
  /** True when the server cannot be reached and the device's copy is shown. */
  offline: boolean;
  /** When the shown data came from the server (ms since epoch), if known. */
  syncedAt: number | undefined;
  /** A refresh from the server is running behind the shown data. */
  refreshing: boolean;
  /** False while a long read shows its first pages. */
  complete: boolean;
  error: unknown;
  refetch: () => void;
}

async function readCache(key: string): Promise<CacheRow | null> {
  const db = currentDb();
  return (await db?.cache.get(key)) ?? null;
}

let writes = 0;

/** How soon a view whose server could not be reached reads again while the browser is online. */
const UNREACHABLE_RETRY_MS = 15_000;

/**
 * Keeps a view's server answer on the device, as the view's own read does, for an answer that
 * came another way (the counts the live stream carries, lib/live.ts): what a view shows is
 * what the device has, so it opens the same offline.
 */
export function keepOnDevice(queryKey: readonly unknown[], data: unknown, syncedAt: number) {
  return writeCache(JSON.stringify(queryKey), data, syncedAt);
}

/**
 * Keeps an answer as of `asOf` (when its read was sent) unless the device holds a newer one,
 * and returns the newer one then (lib/offline-db.ts, keepAnswer), so the view shows it too.
 */
async function writeCache(key: string, data: unknown, asOf: number): Promise<CacheRow | null> {
  try {
    const db = currentDb();
    if (!db) return null;
    const held = await keepAnswer(db, key, data, asOf);
    // Every so often, forget the views not opened for longest (bounded device storage).
    if (++writes % 50 === 0) await pruneCache(db);
    return held;
  } catch {
    // A full or unavailable disk costs the offline copy, never the online view.
    return null;
  }
}

/** The device-copy query key: outside every feature prefix, so invalidating a scope skips it. */
const DEVICE = 'device-cache';

/**
 * Puts server answers on the device as if their views had been opened online (read ahead, e.g.
 * every open card of a board so each opens offline). Each row is keyed like `useCachedQuery`'s
 * copy, so the view finds it; device reads already in memory are re-read so none keeps an
 * earlier "not cached". A full or unavailable disk costs only the offline copy.
 */
export async function storeViews(
  qc: QueryClient,
  views: readonly { queryKey: readonly unknown[]; data: unknown }[],
  syncedAt = Date.now(),
): Promise<boolean> {
  const db = currentDb();
  if (!db) return false;
  try {
    await db.cache.bulkPut(views.map((v) => ({ key: JSON.stringify(v.queryKey), data: v.data, syncedAt })));
    await pruneCache(db);
  } catch {
    return false;
  }
  await qc.invalidateQueries({ queryKey: [DEVICE] });
  return true;
}

export function useCachedQuery<T>(options: CachedQueryOptions<T>): CachedView<T> {
  const {
    queryKey,
    fetch,
    enabled = true,
    overlay,
    offlineFallback,
    toastErrors = true,
    refetchInterval = false,
  } = options;
  const online = useOnline();
  const ops = useOutbox();
  const cacheKey = JSON.stringify(queryKey);
  const [partial, setPartial] = useState<{ key: string; data: T } | null>(null);

  const local = useQuery({
    queryKey: [DEVICE, cacheKey],
    queryFn: () => readCache(cacheKey),
    enabled,
    networkMode: 'always',
    staleTime: Infinity,
    gcTime: 60_000,
  });

  const remote = useQuery({
    queryKey,
    queryFn: async ({ signal }): Promise<Cached<T>> => {
      // As of when it was sent: an answer is no newer than the request that asked for it.
      const asOf = Date.now();
      const data = await fetch({ signal, progress: (d) => setPartial({ key: cacheKey, data: d }) });
      const held = await writeCache(cacheKey, data, asOf);
      // A newer answer came meanwhile (the live stream's counts): that one stands.
      if (held && held.syncedAt > asOf) return { data: held.data as T, syncedAt: held.syncedAt };
      return { data, syncedAt: asOf };
    },
    enabled,
    refetchInterval,
    // The query must run offline too: its failure is what switches the view to the device copy.
    networkMode: 'always',
  });

  const networkDown = remote.isError && classify(remote.error) === 'network';
  const offline = !online || networkDown;

  // Back online: a view whose last read failed for the network reads again at once, so it
  // does not keep its 离线 mark until something else refreshes it. Only when the app comes
  // back (offline → online), never merely while it is online: a view never loaded has no error
  // while its read runs (React Query resets a data-less query to pending), so "online and
  // failed" re-armed at every failure and read again at once, dozens of times a second, while
  // the browser said online and the server could not be reached (issue 25: an offline launch
  // took 11 s to show its listing).
  const { refetch } = remote;
  const wasOnline = useRef(online);
  useEffect(() => {
    const cameBack = online && !wasOnline.current;
    wasOnline.current = online;
    if (cameBack && networkDown && enabled) void refetch();
  }, [online, networkDown, enabled, refetch]);
  // The server unreachable while the device has a network (no event will say when it is
  // back): try again now and then, as the live stream does (lib/live.ts); the first answer,
  // this view's or any other call's, brings every view back (lib/online.ts). Each failure arms
  // the next try (a view with data stays in error while it reads again).
  const failedAt = remote.errorUpdatedAt;
  useEffect(() => {
    if (!(networkDown && enabled)) return;
    const timer = setTimeout(() => {
      if (navigator.onLine) void refetch();
    }, UNREACHABLE_RETRY_MS);
    return () => clearTimeout(timer);
  }, [networkDown, enabled, refetch, failedAt]);

  // A refusal (not a network failure) is the server's message: toast it once (spec §8).
  useEffect(() => {
    if (toastErrors && remote.isError && !networkDown && remote.error instanceof Error)
      errorToast(remote.error.message);
  }, [toastErrors, remote.isError, remote.errorUpdatedAt, networkDown, remote.error]);

  // Keyed by the key's JSON: callers pass a fresh array each render.
  const relevant = useMemo(() => opsFor(ops, JSON.parse(cacheKey) as unknown[]), [ops, cacheKey]);

  let base: { data: T; syncedAt: number | undefined; complete: boolean } | undefined;
  if (remote.data) base = { ...remote.data, complete: true };
  else if (local.data) base = { data: local.data.data as T, syncedAt: local.data.syncedAt, complete: true };
  else if (partial?.key === cacheKey) base = { data: partial.data, syncedAt: undefined, complete: false };
  else if (offline && local.isSuccess && offlineFallback) {
    const fallback = offlineFallback(relevant);
    if (fallback !== undefined) base = { data: fallback, syncedAt: undefined, complete: true };
  }

  const baseData = base?.data;
  const data = useMemo(
    () => (baseData !== undefined && overlay ? overlay(baseData, relevant) : baseData),
    [baseData, overlay, relevant],
  );

  let status: CachedStatus;
  if (base) status = 'ready';
  else if (offline && !local.isPending) status = 'not-cached';
  else if (remote.isError && !networkDown) status = 'error';
  else status = 'loading';

  return {
    data,
    status,
    offline,
    syncedAt: base?.syncedAt,
    refreshing: remote.isFetching,
    complete: base?.complete ?? false,
    error: remote.error,
    refetch: () => void remote.refetch(),
  };
}
