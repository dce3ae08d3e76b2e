import { DRIVE_PREFIX, SESSION_EXPIRED_STATUS } from '../../../shared/api/codes';
import type { UploadAnswer } from '../../../shared/api/upload';
import { sessionExpired } from '../api';
import { tCore } from '../i18n-core';
import { tUpload } from '../i18n/upload';
import { readToken } from '../session';

/**
 * The upload's two requests (simple-uploader.js protocol; shared/api/upload.ts): the test GET
 * and one chunk POST in the protocol's octet method (parameters in the query string, the bytes
 * as the body: no multipart to build or parse, measurably faster). XHR, not fetch,
 * for upload progress (speed and time left) and for a stall timer: a chunk that stops moving
 * on flaky Wi-Fi is aborted and retried rather than left hanging until the browser gives up.
 *
 * Every failure is an UploadFailure whose `kind` says what the engine should do with it.
 */
export type FailureKind =
  /** No answer: offline, a dropped connection, a stalled or timed-out request, a busy server. */
  | 'network'
  /** The server answered no (success:false or a 4xx): retrying the same request cannot help. */
  | 'refused'
  /** HTTP 999: the session is gone; the 登录超时 dialog is open. */
  | 'session';

export class UploadFailure extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
  ) {
    super(message);
  }
}

export type UploadQuery = Record<string, string | number>;

const URL_PATH = `${DRIVE_PREFIX}/filetransfer/uploadfile`;
/** A chunk with no progress for this long is given up on (and retried). */
export const STALL_MS = 30_000;
/** The test request's limit (spec §7: 60 s for drive calls). */
const TEST_TIMEOUT_MS = 60_000;

type Envelope = { success?: boolean; message?: string; data?: UploadAnswer };

function judge(status: number, body: Envelope | null): UploadAnswer {
  if (status === SESSION_EXPIRED_STATUS) {
    sessionExpired();
    throw new UploadFailure(tCore.session.expired, 'session');
  }
  // 408/429 and 5xx: the server could not take it now; the same request may pass later.
  if (status === 0 || status === 408 || status === 429 || status >= 500) {
    throw new UploadFailure(
      status === 0 ? tCore.errors.network : `${tCore.errors.server}（${status}）`,
      'network',
    );
  }
  // spec §8: an empty answer is 上传失败.
  if (!body) throw new UploadFailure(tUpload.failed, status >= 400 ? 'refused' : 'network');
  if (body.success !== true || !body.data) throw new UploadFailure(body.message || tUpload.failed, 'refused');
  return body.data;
}

function headers(): Record<string, string> {
  const h: Record<string, string> = { accept: 'application/json' };
  const token = readToken();
  if (token) h.token = token;
  return h;
}

/** The test request: what the server holds of this upload (and maybe a proof challenge). */
export async function testUpload(query: UploadQuery, signal?: AbortSignal): Promise<UploadAnswer> {
  const url = new URL(URL_PATH, window.location.origin);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  let res: Response;
  try {
    res = await fetch(url, {
      headers: headers(),
      cache: 'no-store',
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TEST_TIMEOUT_MS)]) : undefined,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new UploadFailure(tCore.errors.network, 'network');
  }
  const body = (await res.json().catch(() => null)) as Envelope | null;
  return judge(res.status, body);
}

/**
 * Sends one chunk; `onProgress(loaded)` reports bytes of this chunk on the wire. Rejects with
 * an AbortError DOMException when `signal` aborts (pause, cancel).
 */
export function sendChunk(
  query: UploadQuery,
  bytes: Blob,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new DOMException('aborted', 'AbortError'));
    const xhr = new XMLHttpRequest();
    const url = new URL(URL_PATH, window.location.origin);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    xhr.open('POST', url);
    for (const [k, v] of Object.entries(headers())) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    let stall: ReturnType<typeof setTimeout>;
    let stalled = false;
    const arm = () => {
      clearTimeout(stall);
      stall = setTimeout(() => {
        stalled = true;
        xhr.abort();
      }, STALL_MS);
    };
    const onAbort = () => xhr.abort();
    const done = () => {
      clearTimeout(stall);
      signal.removeEventListener('abort', onAbort);
    };
    signal.addEventListener('abort', onAbort);
    xhr.upload.onprogress = (e) => {
      arm();
      onProgress(e.loaded);
    };
    xhr.onload = () => {
      done();
      let body: Envelope | null;
      try {
        body = JSON.parse(xhr.responseText) as Envelope;
      } catch {
        body = null;
      }
      try {
        resolve(judge(xhr.status, body));
      } catch (err) {
        reject(err);
      }
    };
    xhr.onerror = () => {
      done();
      reject(new UploadFailure(tCore.errors.network, 'network'));
    };
    xhr.onabort = () => {
      done();
      if (stalled) reject(new UploadFailure(tCore.errors.timeout, 'network'));
      else reject(new DOMException('aborted', 'AbortError'));
    };
    arm();
    xhr.send(bytes);
  });
}

/**
 * The cancel call: drops the caller's unfinished session of this upload on the server (its
 * chunks and the quota they hold). Best effort and quiet: any failure (offline, a server
 * away) is ignored, the server's sweep frees it later.
 */
export async function cancelUpload(query: UploadQuery): Promise<void> {
  const url = new URL(URL_PATH, window.location.origin);
  for (const k of [
    'identifier',
    'filename',
    'relativePath',
    'filePath',
    'fileType',
    'isFmt',
    'isAdmin',
    'projectId',
  ]) {
    if (query[k] !== undefined) url.searchParams.set(k, String(query[k]));
  }
  try {
    await fetch(url, { method: 'DELETE', headers: headers(), signal: AbortSignal.timeout(TEST_TIMEOUT_MS) });
  } catch {
    /* best effort (see above) */
  }
}
