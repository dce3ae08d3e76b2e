import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The museum client (lib/api.ts) when the caller cancels: React Query aborts a refetch that a
 * newer invalidation supersedes (审批设置 saves, then publishes, and both refresh the template),
 * and that must not toast 网络连接失败 as if the network were down. A real network failure still
 * toasts.
 */

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
});
