import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The museum client (lib/api.ts) when the caller cancels: React Query aborts a refetch that a
 * newer invalidation supersedes (审批设置 saves, then publishes, and both refresh the template),
 * and that must not toast 网络连接失败 as if the network were down. A real network failure still
 * toasts. The same holds while the answer's body is still arriving: a read cancelled there once
 * toasted 服务器异常 over 信息发布 in a CI run, as if the server had failed.
 */

/** A 200 whose headers arrive at once and whose body never ends; it fails as the signal does. */
function bodyNeverEnds(_url: unknown, init: RequestInit): Promise<Response> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"success":true,"result":'));
      init.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
    },
  });
  return Promise.resolve(new Response(body, { headers: { 'content-type': 'application/json' } }));
}

const show = vi.fn();
vi.mock('@mantine/notifications', () => ({ notifications: { show: (...a: unknown[]) => show(...a) } }));
vi.mock('@mantine/modals', () => ({ modals: { openConfirmModal: () => undefined } }));
vi.mock('../../src/app/lib/session', () => ({
  readToken: () => undefined,
  session: { clear: () => undefined },
}));

beforeEach(() => {
  show.mockReset();
  vi.stubGlobal('window', { location: { origin: 'http://127.0.0.1' } });
  vi.stubGlobal('navigator', { onLine: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('museum client', () => {
  it('a request the caller aborts rejects without a toast', async () => {
    vi.stubGlobal(
      'fetch',
      (_url: unknown, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const { museum } = await import('../../src/app/lib/api');
    const controller = new AbortController();
    const call = museum.get('/workflowTemplate/detail', { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(show).not.toHaveBeenCalled();
  });

  it('a network failure still toasts 网络连接失败', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const { museum, OfflineError } = await import('../../src/app/lib/api');
    await expect(museum.get('/workflowTemplate/list')).rejects.toBeInstanceOf(OfflineError);
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ message: '网络连接失败，请检查网络后重试' }));
  });

  it('a read the caller aborts mid-body rejects without a toast', async () => {
    vi.stubGlobal('fetch', bodyNeverEnds);
    const { museum } = await import('../../src/app/lib/api');
    const controller = new AbortController();
    const call = museum.get('/notice/list', { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(show).not.toHaveBeenCalled();
  });

  it('a body cut off by the timeout says 请求超时, not 服务器异常', async () => {
    vi.stubGlobal('fetch', bodyNeverEnds);
    const { museum } = await import('../../src/app/lib/api');
    await expect(museum.get('/notice/list', { timeoutMs: 30 })).rejects.toMatchObject({ code: -2 });
    expect(show).toHaveBeenCalledTimes(1);
    expect(show.mock.calls[0]![0]).toMatchObject({ message: expect.stringContaining('超时') });
  });

  it('a whole answer that is not our JSON is still 服务器异常', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('<html>proxy</html>', { status: 200 })));
    const { museum } = await import('../../src/app/lib/api');
    await expect(museum.get('/notice/list')).rejects.toThrow('服务器异常');
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ message: '服务器异常' }));
  });
});
