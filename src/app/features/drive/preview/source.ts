import { useEffect, useState } from 'react';
import type { FileEntry } from '../../../../shared/api/drive';
import { hasThumbnail, openWith } from '../../../../shared/drive/file-types';
import { SESSION_EXPIRED_STATUS } from '../../../../shared/api/codes';
import { sessionExpired } from '../../../lib/api';
import { COPY_FILE_MAX, keepCopy, readCopy, type CopyKind } from '../../../lib/file-copies';
import { tCore } from '../../../lib/i18n-core';
import { tOffline } from '../../../lib/i18n/offline';
import { currentDb } from '../../../lib/offline';
import { isOnline, serverAnswered, serverUnreachable } from '../../../lib/online';
import { previewUrl, type ReadArea } from '../drive-data';

/**
 * Where previewers and the list get a file's bytes. Previewers never build preview URLs
 * themselves: this is the one place that decides between the network and the copy kept on the
 * device (lib/file-copies.ts), so that recently opened files and thumbnails open offline.
 *
 * - Images and text: fetched once, shown from that blob, and kept as the device copy.
 * - Audio and video: streamed from the network URL (Range, so seeking starts at once); small
 *   ones (≤ COPY_FILE_MAX) are also fetched into a device copy in the background.
 * - Offline, or when the network fails: the device copy of the same version, else a message.
 *
 * Only raster images ever become blob: URLs. A blob: URL has our origin, so an SVG or HTML
 * behind one would run as active content if opened in a tab; SVG is shown from the server's
 * sandboxed response (or its rasterised thumbnail), never from a blob.
 *
 * Files read through a share link (`area.shareBatchNum`) are never kept on the device: they
 * are someone else's, the visitor may be anonymous, and the share may be revoked tomorrow.
 */
export interface PreviewSource {
  /** A URL for <img>, <audio> or <video>; null while loading or after an error. */
  src: string | null;
  /** A Chinese message the previewer shows when the file cannot be loaded. */
  error: string | null;
  /** The bytes came from the device copy (the network was not reachable). */
  fromDevice: boolean;
}

const RASTER = /^image\/(png|jpe?g|gif|webp|bmp|avif)$/;

/** True when the request never reached the server (offline, DNS, reset), not a refusal. */
async function fetchOk(url: string): Promise<Response | 'network'> {
  try {
    const res = await fetch(url, { credentials: 'same-origin' });
    serverAnswered();
    return res;
  } catch {
    serverUnreachable();
    return 'network';
  }
}

async function refusal(res: Response): Promise<string> {
  // An expired session opens the 登录超时 dialog, as every other call does (spec §8).
  if (res.status === SESSION_EXPIRED_STATUS) sessionExpired();
  try {
    if (res.headers.get('content-type')?.includes('json'))
      return ((await res.json()) as { message?: string }).message ?? tOffline.device.loadFailed;
  } catch {
    /* not an envelope */
  }
  return tOffline.device.loadFailed;
}

/** The device database copies go to, or none for reads through a share. */
const copiesDb = (area: ReadArea) => (area.shareBatchNum === undefined ? currentDb() : null);

/** A device copy as a URL, or the offline message. */
async function fromCopy(
  area: ReadArea,
  file: FileEntry,
  kind: CopyKind,
): Promise<PreviewSource & { revoke?: string }> {
  const blob = await readCopy(copiesDb(area), file, kind);
  if (!blob) return { src: null, error: tOffline.device.notKept, fromDevice: false };
  const url = URL.createObjectURL(blob);
  return { src: url, error: null, fromDevice: true, revoke: url };
}

async function resolveSrc(area: ReadArea, file: FileEntry): Promise<PreviewSource & { revoke?: string }> {
  const url = previewUrl(area, file.userFileId);
  const kind = openWith(file.extendName);
  const svg = file.extendName.toLowerCase() === 'svg';
  if (kind === 'audio' || kind === 'video' || svg) {
    if (!isOnline()) return fromCopy(area, file, svg ? 'thumb' : 'full');
    if (!svg && file.fileSize <= COPY_FILE_MAX && copiesDb(area)) void keepInBackground(url, file);
    return { src: url, error: null, fromDevice: false };
  }
  if (!isOnline()) return fromCopy(area, file, 'full');
  const res = await fetchOk(url);
  if (res === 'network') return fromCopy(area, file, 'full');
  if (!res.ok) return { src: null, error: await refusal(res), fromDevice: false };
  const blob = await res.blob();
  if (!RASTER.test(blob.type)) return { src: url, error: null, fromDevice: false };
  void keepCopy(copiesDb(area), file, 'full', blob);
  const objectUrl = URL.createObjectURL(blob);
  return { src: objectUrl, error: null, fromDevice: false, revoke: objectUrl };
}

const keeping = new Set<number>();
async function keepInBackground(url: string, file: FileEntry) {
  if (keeping.has(file.userFileId) || (await readCopy(currentDb(), file, 'full'))) return;
  keeping.add(file.userFileId);
  try {
    const res = await fetchOk(url);
    if (res !== 'network' && res.ok) await keepCopy(currentDb(), file, 'full', await res.blob());
  } finally {
    keeping.delete(file.userFileId);
  }
}

type Keyed = PreviewSource & { key: string };

/** The bytes of `file` for a previewer, re-resolved when the file or its version changes. */
export function usePreviewSrc(area: ReadArea, file: FileEntry | undefined): PreviewSource {
  const key = file ? `${JSON.stringify(area)}|${file.userFileId}|${file.fileSize}|${file.uploadTime}` : '';
  const [state, setState] = useState<Keyed | null>(null);
  useEffect(() => {
    if (!file) return;
    let alive = true;
    let revoke: string | undefined;
    void resolveSrc(area, file).then((s) => {
      revoke = s.revoke;
      if (alive) setState({ key, src: s.src, error: s.error, fromDevice: s.fromDevice });
      else if (revoke) URL.revokeObjectURL(revoke);
    });
    return () => {
      alive = false;
      if (revoke) URL.revokeObjectURL(revoke);
    };
    // `key` captures everything of area and file that matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  if (!file || state?.key !== key) return { src: null, error: null, fromDevice: false };
  return state;
}

/**
 * A text file's content as UTF-8 text (the server converts GBK), from the network, else from
 * the device copy. Network first: right after a save the listing may still hold the old
 * version, and the saved text must show. Throws an Error with a Chinese message.
 */
export async function loadText(area: ReadArea, file: FileEntry): Promise<string> {
  const res = isOnline() ? await fetchOk(previewUrl(area, file.userFileId)) : 'network';
  if (res === 'network') {
    const blob = await readCopy(copiesDb(area), file, 'full');
    // fetch's own TypeError is English ("Failed to fetch"); the previewers show these.
    if (!blob) throw new Error(isOnline() ? tCore.errors.network : tOffline.device.notKept);
    return blob.text();
  }
  if (!res.ok || res.headers.get('content-type')?.includes('json')) throw new Error(await refusal(res));
  const text = await res.text();
  void keepCopy(copiesDb(area), file, 'full', new Blob([text], { type: 'text/plain' }));
  return text;
}

/** Thumbnails the server said it has none of (a video not yet played), for a minute. */
const missing = new Map<number, number>();
const MISSING_TTL = 60_000;

/** Forget that a file had no thumbnail (after its poster frame was stored). */
export function thumbnailChanged(userFileId: number) {
  missing.delete(userFileId);
}

async function resolveThumb(area: ReadArea, file: FileEntry): Promise<string | null> {
  const kept = await readCopy(copiesDb(area), file, 'thumb');
  if (kept) return URL.createObjectURL(kept);
  if (!isOnline() || (missing.get(file.userFileId) ?? 0) > Date.now()) return null;
  const res = await fetchOk(previewUrl(area, file.userFileId, true));
  if (res === 'network') return null;
  if (!res.ok) {
    if (res.status === 404) missing.set(file.userFileId, Date.now() + MISSING_TTL);
    return null;
  }
  const blob = await res.blob();
  if (!RASTER.test(blob.type)) return null;
  void keepCopy(copiesDb(area), file, 'thumb', blob);
  return URL.createObjectURL(blob);
}

/**
 * The list's thumbnail of `file` (jpg, png, jpeg, gif and mp4, spec §9), device copy first:
 * thumbnails change only with the content, and the version check catches that. Null until
 * loaded, and when there is none (the icon shows instead).
 */
export function useThumbnail(area: ReadArea | undefined, file: FileEntry): string | null {
  const wanted =
    area !== undefined && file.isDir === 0 && file.userFileId > 0 && hasThumbnail(file.extendName);
  const key = wanted ? `${JSON.stringify(area)}|${file.userFileId}|${file.fileSize}|${file.uploadTime}` : '';
  const [state, setState] = useState<{ key: string; src: string | null } | null>(null);
  useEffect(() => {
    if (!key || !area) return;
    let alive = true;
    let url: string | null = null;
    void resolveThumb(area, file).then((src) => {
      url = src;
      if (alive) setState({ key, src });
      else if (src) URL.revokeObjectURL(src);
    });
    return () => {
      alive = false;
      if (url) URL.revokeObjectURL(url);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return state?.key === key ? state.src : null;
}
