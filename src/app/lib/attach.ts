import {
  ATTACH_CHUNK_BYTES,
  ATTACH_CHUNK_TRIES,
  ATTACH_MAX_BYTES,
  ATTACH_TOO_LARGE,
  IMAGE_MAX_BYTES,
  IMAGE_TOO_LARGE,
  type AttachChunkAnswer,
  type Attachment,
} from '../../shared/api/attach';
import { MUSEUM_PREFIX, SESSION_EXPIRED_STATUS } from '../../shared/api/codes';
import { spoofProblem } from '../../shared/drive/names';
import { ApiError, OfflineError, museum, sessionExpired } from './api';
import { tCore } from './i18n-core';
import { readToken } from './session';

interface UploadOptions {
  tableName: string;
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/**
 * Uploads one attachment or editor image with progress. Files of more than one chunk
 * (2,048,000 bytes) go through the resumable attach/chunk, one chunk at a time, each tried up
 * to 3 times (shared/api/attach.ts has the protocol); smaller files and editor images are one
 * attach/upload or attach/uploadimage call. The size limit is checked here first so a
 * too-large file (or one whose name spoofs, shared/drive/names.ts) is refused at once, not after
 * minutes of sending; the server checks again.
 * Failures reject with an ApiError carrying the server's words; nothing is toasted here (the
 * caller shows it in place).
 */
export function uploadAttachment(
  kind: 'file' | 'image',
  file: File,
  opts: UploadOptions,
): Promise<Attachment> {
  const max = kind === 'image' ? IMAGE_MAX_BYTES : ATTACH_MAX_BYTES;
  if (file.size > max)
    return Promise.reject(new ApiError(kind === 'image' ? IMAGE_TOO_LARGE : ATTACH_TOO_LARGE, 1010, 200));
  // The server's own rule and words (a name that spoofs what it is), said before any byte goes.
  const nameErr = spoofProblem(file.name, '文件名称');
  if (nameErr) return Promise.reject(new ApiError(nameErr, 1010, 200));
  if (kind === 'file' && file.size > ATTACH_CHUNK_BYTES) return uploadInChunks(file, opts);
  const path = kind === 'image' ? '/attach/uploadimage' : '/attach/upload';
  const form = new FormData();
  // The table first: the server checks the grant before reading the file's bytes.
  form.append('tableName', opts.tableName);
  form.append('file', file, file.name);
  return send<Attachment>(path, form, {
    signal: opts.signal,
    onProgress: (loaded, total) => opts.onProgress?.(Math.min(99, Math.round((loaded / total) * 100))),
  }).then((att) => {
    opts.onProgress?.(100);
    return att;
  });
}

/**
 * An attachment made from a file of the caller's own drive (attach/fromDrive: the server copies
 * the bytes). `image`: for an image field, the file must be a PNG, JPEG, GIF or WebP. Silent:
 * the caller shows the refusal in place.
 */
export function attachFromDrive(tableName: string, userFileId: number, image = false): Promise<Attachment> {
  return museum.post<Attachment>('/attach/fromDrive', { tableName, userFileId, image }, { silent: true });
}

/**
 * Deletes an upload that was never saved with a record (a file removed before submit or save).
 * GET, as the spec has it; the server refuses attachments already bound to a record. Silent:
 * callers drop it best-effort, the sweep removes anything left.
 */
export function deleteAttachment(id: number): Promise<unknown> {
  return museum.get<unknown>('/attach/deleteAttachment', { query: { id }, silent: true });
}

/**
 * What is worth another try: the network, a busy server (429) and server errors. A refusal of
 * the chunk itself (wrong size, too large, no right) would only be refused again.
 */
const retriable = (err: unknown) =>
  err instanceof OfflineError || (err instanceof ApiError && (err.status === 429 || err.status >= 500));
const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('aborted', 'AbortError'));
      },
      { once: true },
    );
  });

/** A fresh upload id per call: the same file sent again later is a new attachment. */
function newUploadId(): string {
  const random =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID()
      : `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  return `a-${random}`;
}

/**
 * Tells the server a chunked upload will not continue (cancelled, or failed for good: its
 * uploadId is never used again), so its chunks and the room they hold in the person's
 * attachment budget go at once. Best effort and silent; offline it is skipped and the server's
 * sweep frees them after a day.
 */
function dropChunks(uploadId: string) {
  if (!navigator.onLine) return;
  void museum.delete('/attach/chunk', { query: { uploadId }, silent: true }).catch(() => undefined);
}

async function uploadInChunks(file: File, opts: UploadOptions): Promise<Attachment> {
  const uploadId = newUploadId();
  try {
    return await sendChunks(file, opts, uploadId);
  } catch (err) {
    dropChunks(uploadId);
    throw err;
  }
}

async function sendChunks(file: File, opts: UploadOptions, uploadId: string): Promise<Attachment> {
  const totalChunks = Math.ceil(file.size / ATTACH_CHUNK_BYTES);
  for (let n = 1; n <= totalChunks; n++) {
    const from = (n - 1) * ATTACH_CHUNK_BYTES;
    const bytes = file.slice(from, Math.min(file.size, from + ATTACH_CHUNK_BYTES));
    for (let attempt = 1; ; attempt++) {
      const form = new FormData();
      // The fields before the file: the server reads them first.
      form.append('uploadId', uploadId);
      form.append('chunkNumber', String(n));
      form.append('totalChunks', String(totalChunks));
      form.append('totalSize', String(file.size));
      form.append('fileName', file.name);
      form.append('tableName', opts.tableName);
      form.append('file', bytes, file.name);
      try {
        const answer = await send<AttachChunkAnswer>('/attach/chunk', form, {
          signal: opts.signal,
          onProgress: (loaded) =>
            opts.onProgress?.(Math.min(99, Math.round(((from + loaded) / file.size) * 100))),
        });
        if (n === totalChunks) {
          if (!answer.attachment) throw new ApiError(tCore.errors.server, 500, 200);
          opts.onProgress?.(100);
          return answer.attachment;
        }
        break;
      } catch (err) {
        if (attempt >= ATTACH_CHUNK_TRIES || !retriable(err)) throw err;
        // Back off a little more each time: flaky gallery Wi-Fi often needs a moment.
        await wait(500 * attempt, opts.signal);
      }
    }
  }
  throw new ApiError(tCore.errors.server, 500, 200);
}

/**
 * One multipart POST to the museum API through XMLHttpRequest (fetch reports no upload
 * progress), answering the envelope's result.
 */
function send<T>(
  path: string,
  form: FormData,
  opts: { signal?: AbortSignal; onProgress?: (loaded: number, total: number) => void },
): Promise<T> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(new DOMException('aborted', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', MUSEUM_PREFIX + path);
    const token = readToken();
    if (token) xhr.setRequestHeader('token', token);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress?.(e.loaded, e.total);
    };
    xhr.onerror = () => reject(new OfflineError());
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.onload = () => {
      if (xhr.status === SESSION_EXPIRED_STATUS) {
        sessionExpired();
        reject(new ApiError(tCore.session.expired, SESSION_EXPIRED_STATUS, SESSION_EXPIRED_STATUS));
        return;
      }
      let json: { success?: boolean; code?: number; message?: string; result?: T } | undefined;
      try {
        json = JSON.parse(xhr.responseText) as typeof json;
      } catch {
        json = undefined;
      }
      if (json?.success === true && json.result) {
        resolve(json.result);
        return;
      }
      reject(new ApiError(json?.message || tCore.errors.server, json?.code ?? xhr.status, xhr.status));
    };
    opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
