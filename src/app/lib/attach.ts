import {
  ATTACH_MAX_BYTES,
  ATTACH_TOO_LARGE,
  IMAGE_MAX_BYTES,
  IMAGE_TOO_LARGE,
  type Attachment,
} from '../../shared/api/attach';
import { MUSEUM_PREFIX, SESSION_EXPIRED_STATUS } from '../../shared/api/envelope';
import { ApiError, OfflineError, sessionExpired } from './api';
import { t } from './i18n';
import { readToken } from './session';

/**
 * Uploads one attachment (attach/upload) or editor image (attach/uploadimage) with progress.
 * XMLHttpRequest rather than fetch: fetch reports no upload progress. The size limit is checked
 * here first so a too-large file is refused at once, not after minutes of sending; the server
 * checks again. Failures reject with an ApiError carrying the server's words; nothing is
 * toasted here (the caller shows it in place).
 */
export function uploadAttachment(
  kind: 'file' | 'image',
  file: File,
  opts: { tableName: string; onProgress?: (percent: number) => void; signal?: AbortSignal },
): Promise<Attachment> {
  const max = kind === 'image' ? IMAGE_MAX_BYTES : ATTACH_MAX_BYTES;
  if (file.size > max)
    return Promise.reject(new ApiError(kind === 'image' ? IMAGE_TOO_LARGE : ATTACH_TOO_LARGE, 1010, 200));
  const path = kind === 'image' ? '/attach/uploadimage' : '/attach/upload';
  const form = new FormData();
  // The table first: the server checks the grant before reading the file's bytes.
  form.append('tableName', opts.tableName);
  form.append('file', file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', MUSEUM_PREFIX + path);
    const token = readToken();
    if (token) xhr.setRequestHeader('token', token);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress?.(Math.min(99, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onerror = () => reject(new OfflineError());
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.onload = () => {
      if (xhr.status === SESSION_EXPIRED_STATUS) {
        sessionExpired();
        reject(new ApiError(t.session.expired, SESSION_EXPIRED_STATUS, SESSION_EXPIRED_STATUS));
        return;
      }
      let json: { success?: boolean; code?: number; message?: string; result?: Attachment } | undefined;
      try {
        json = JSON.parse(xhr.responseText) as typeof json;
      } catch {
        json = undefined;
      }
      if (json?.success === true && json.result) {
        opts.onProgress?.(100);
        resolve(json.result);
        return;
      }
      reject(new ApiError(json?.message || t.errors.server, json?.code ?? xhr.status, xhr.status));
    };
    opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
