import { useMemo } from 'react';
import type { AreaQuery, FileEntry } from '../../../../shared/api/drive';
import { SESSION_EXPIRED_STATUS } from '../../../../shared/api/envelope';
import { sessionExpired } from '../../../lib/api';
import { t } from '../../../lib/i18n';
import { previewUrl } from '../drive-data';

/**
 * Where a previewer gets a file's bytes. Previewers never build preview URLs themselves: this
 * is the one place that decides between the network and the copy kept on the device, so that
 * recently opened files also open offline (issue 5).
 */
export interface PreviewSource {
  /** A URL for <img>, <audio> or <video>; null while loading or after an error. */
  src: string | null;
  /** A Chinese message the previewer shows when the file cannot be loaded. */
  error: string | null;
  /** The bytes came from the device copy (the network was not reachable). */
  fromDevice: boolean;
}

export function usePreviewSrc(area: AreaQuery, file: FileEntry | undefined): PreviewSource {
  const id = file?.userFileId;
  const key = JSON.stringify(area);
  return useMemo(
    () => ({
      src: id === undefined ? null : previewUrl(JSON.parse(key) as AreaQuery, id),
      error: null,
      fromDevice: false,
    }),
    [id, key],
  );
}

/** A text file's content as UTF-8 text (the server converts GBK). Throws with a Chinese message. */
export async function loadText(area: AreaQuery, file: FileEntry): Promise<string> {
  let res: Response;
  try {
    res = await fetch(previewUrl(area, file.userFileId), { credentials: 'same-origin' });
  } catch {
    // fetch's own TypeError is English ("Failed to fetch"); the previewers show this message.
    throw new Error(t.errors.network);
  }
  // An expired session opens the 登录超时 dialog, as every other call does (spec §8).
  if (res.status === SESSION_EXPIRED_STATUS) sessionExpired();
  if (!res.ok || res.headers.get('content-type')?.includes('json')) {
    let message = '文件加载失败，请稍后重试';
    try {
      message = ((await res.json()) as { message?: string }).message ?? message;
    } catch {
      /* not an envelope: keep the generic message */
    }
    throw new Error(message);
  }
  return res.text();
}
