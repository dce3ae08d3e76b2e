import type { AreaQuery, FileEntry } from '../../../../shared/api/drive';
import { DRIVE_PREFIX } from '../../../../shared/api/codes';
import { readToken } from '../../../lib/session';
import { previewUrl } from '../drive-data';
import { thumbnailChanged } from './source';

/**
 * Poster frames for videos (issue 5): the server cannot decode video, so the first browser
 * that plays an mp4 without a thumbnail draws a frame on a canvas and stores it as the
 * thumbnail (POST filetransfer/poster). Best effort: any failure is silent, the list simply
 * keeps its video icon.
 */

/** About the size of the list's largest grid cell at 2× pixels; small enough to send at once. */
const POSTER_WIDTH = 320;
const POSTER_QUALITY = 0.7;

/** Files this page already looked at: one check per file and page load, not per play. */
const tried = new Set<string>();

export function posterWanted(file: FileEntry, editable: boolean): boolean {
  return editable && file.extendName.toLowerCase() === 'mp4';
}

/** The frame `video` shows now as a JPEG about 320 px wide, or null when it has none. */
export function captureFrame(video: HTMLVideoElement): Promise<Blob | null> {
  const w = video.videoWidth;
  const h = video.videoHeight;
  if (!w || !h) return Promise.resolve(null);
  const canvas = document.createElement('canvas');
  canvas.width = Math.min(POSTER_WIDTH, w);
  canvas.height = Math.max(1, Math.round((canvas.width * h) / w));
  const g = canvas.getContext('2d');
  if (!g) return Promise.resolve(null);
  g.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', POSTER_QUALITY));
}

/**
 * Called once the video has its first frame (loadeddata): when the file has no thumbnail yet
 * (the isMin preview answers 404), captures the frame and posts it.
 */
export async function storePosterIfMissing(area: AreaQuery, file: FileEntry, video: HTMLVideoElement) {
  const key = `${JSON.stringify(area)}|${file.userFileId}`;
  if (tried.has(key)) return;
  tried.add(key);
  try {
    const probe = await fetch(previewUrl(area, file.userFileId, true), {
      method: 'GET',
      credentials: 'same-origin',
      cache: 'no-store',
    });
    // Only a definite "no thumbnail": other failures (offline, no right) are not ours to fix.
    if (probe.status !== 404) return;
    await probe.body?.cancel();
    const frame = await captureFrame(video);
    if (!frame) return;
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(area)) if (v !== undefined) params.set(k, String(v));
    params.set('userFileId', String(file.userFileId));
    const headers: Record<string, string> = { 'content-type': 'image/jpeg' };
    const token = readToken();
    if (token) headers.token = token;
    const res = await fetch(`${DRIVE_PREFIX}/filetransfer/poster?${params.toString()}`, {
      method: 'POST',
      headers,
      body: frame,
      credentials: 'same-origin',
    });
    // The list asks again for this thumbnail instead of remembering that there was none.
    if (res.ok) thumbnailChanged(file.userFileId);
  } catch {
    // Best effort (see above): a failed capture or upload is tried again on the next page load.
  }
}
