import { notifications } from '@mantine/notifications';
import { dialogs } from './dialogs';
import { DRIVE_PREFIX, MUSEUM_PREFIX, SESSION_EXPIRED_STATUS } from '../../shared/api/codes';
// The core strings, not the whole catalogue: the sign-in page's chunk carries this client.
import { tCore as t } from './i18n-core';
import { serverAnswered, serverUnreachable } from './online';
import { readToken, session } from './session';

/**
 * The two API clients of spec/office.md §7: the drive client (`/wangpan`, 60 s timeout, blob
 * answers for download and export URLs) and the museum client (`/singleMuseum`, no timeout).
 * Both send the `token` header. Failures follow §8: HTTP 999 opens the 登录超时 dialog; any
 * other HTTP error and every `success:false` shows the server's message as a 5 s error toast,
 * and the promise rejects with an ApiError so callers can stop their spinners.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly status: number,
    readonly extra?: unknown,
  ) {
    super(message);
  }
}
/** The network is unreachable: callers that work offline catch this one. */
export class OfflineError extends ApiError {
  constructor() {
    super(t.errors.network, -1, 0);
  }
}

export interface CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Replays with the same key are answered once by the server (the outbox relies on it). */
  idempotencyKey?: string;
  /** Do not toast; the caller shows the failure in place (e.g. a form). */
  silent?: boolean;
  /**
   * HTTP 999 rejects without the 登录超时 dialog: the caller acts on it (the public share page
   * sends an anonymous visitor to /login and back when sign-in is required).
   */
  quietExpiry?: boolean;
  signal?: AbortSignal;
  /** Overrides the client's timeout (a document's bytes on slow Wi-Fi take longer than JSON). */
  timeoutMs?: number;
}

export function errorToast(message: string) {
  notifications.show({ color: 'red', title: '错误', message, autoClose: 5000 });
}

let expiredDialogOpen = false;
/** Opens the 登录超时 dialog once (also for callers that bypass these clients, e.g. chunk uploads). */
export function sessionExpired() {
  if (expiredDialogOpen) return;
  expiredDialogOpen = true;
  dialogs.openConfirmModal({
    title: t.session.expiredTitle,
    children: t.session.expired,
    labels: { confirm: t.session.confirm, cancel: '' },
    cancelProps: { display: 'none' },
    withCloseButton: false,
    closeOnEscape: false,
    onConfirm: () => {
      session.clear();
      window.location.reload();
    },
  });
}

function makeClient(prefix: string, timeoutMs: number | undefined, key: 'data' | 'result') {
  async function call<T>(method: string, path: string, opts: CallOptions = {}): Promise<T> {
    const url = new URL(prefix + path, window.location.origin);
    for (const [k, v] of Object.entries(opts.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = readToken();
    if (token) headers.token = token;
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    let body: BodyInit | undefined;
    if (opts.body instanceof FormData) body = opts.body;
    else if (opts.body instanceof Blob) {
      body = opts.body;
      headers['content-type'] = opts.body.type || 'application/octet-stream';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const limit = opts.timeoutMs ?? timeoutMs;
    const signals = [opts.signal, limit ? AbortSignal.timeout(limit) : undefined].filter(
      (s): s is AbortSignal => Boolean(s),
    );
    // A call can fail while its answer's body is still arriving, not only before its headers:
    // React Query cancels a read that a newer invalidation supersedes, the timeout fires, or
    // the Wi-Fi drops mid-body. Each says what it is, exactly as before the headers; only an
    // answer that arrived whole and is not our JSON is 服务器异常 (a CI run once toasted a bare
    // 服务器异常 over 信息发布, which only a body that failed to arrive, or a 200 that is not
    // ours, could give).
    const unanswered = (err: unknown): never => {
      // The caller cancelled (React Query drops a superseded refetch): nothing failed, say nothing.
      if (opts.signal?.aborted) throw err;
      const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
      const e = timedOut ? new ApiError(t.errors.timeout, -2, 0) : new OfflineError();
      // A timeout says the server is slow, not gone: only a call that got no answer at all.
      if (!timedOut) serverUnreachable();
      if (!opts.silent && navigator.onLine) errorToast(e.message);
      throw e;
    };
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers,
        body,
        signal: signals.length ? AbortSignal.any(signals) : undefined,
      });
    } catch (err) {
      return unanswered(err);
    }
    serverAnswered();
    if (res.status === SESSION_EXPIRED_STATUS) {
      if (!opts.quietExpiry) sessionExpired();
      throw new ApiError(t.session.expired, SESSION_EXPIRED_STATUS, SESSION_EXPIRED_STATUS);
    }
    if (/download|export/i.test(path) && res.ok && !res.headers.get('content-type')?.includes('json')) {
      try {
        return (await res.blob()) as T;
      } catch (err) {
        return unanswered(err);
      }
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      return unanswered(err);
    }
    let json:
      { success?: boolean; code?: number; message?: string; data?: unknown; result?: unknown } | undefined;
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      json = undefined;
    }
    if (!res.ok || !json || json.success !== true) {
      const message = json?.message || (res.ok ? t.errors.server : `${t.errors.server}（${res.status}）`);
      if (!opts.silent) errorToast(message);
      throw new ApiError(message, json?.code ?? res.status, res.status, json?.[key]);
    }
    return json[key] as T;
  }
  return {
    get: <T>(path: string, opts?: CallOptions) => call<T>('GET', path, opts),
    post: <T>(path: string, body?: unknown, opts?: CallOptions) => call<T>('POST', path, { ...opts, body }),
    delete: <T>(path: string, opts?: CallOptions) => call<T>('DELETE', path, opts),
  };
}

export const museum = makeClient(MUSEUM_PREFIX, undefined, 'result');
export const drive = makeClient(DRIVE_PREFIX, 60_000, 'data');
