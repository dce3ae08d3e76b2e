import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dialogHostListening, dialogs } from '../../src/app/lib/dialogs';

/**
 * Mantine's `modals.*` is a window event that only a mounted ModalsProvider hears. The host is
 * drawn a moment after the page (lib/overlays.tsx), and a 撤销 tapped in that moment once
 * opened nothing in CI (dav.spec). lib/dialogs.ts holds such calls until the host listens.
 * Here the window is a bare EventTarget and the host's listener a recorder.
 */
const heard: Array<{ type: string; detail: any }> = [];
const record = (e: Event) => heard.push({ type: e.type, detail: (e as CustomEvent).detail });
const types = ['openConfirmModal', 'openModal', 'updateModal', 'closeModal'].map(
  (k) => `mantine-modals:${k}`,
);

beforeEach(() => {
  const win = new EventTarget();
  for (const type of types) win.addEventListener(type, record);
  vi.stubGlobal('window', win);
  heard.length = 0;
});
afterEach(() => {
  dialogHostListening(false);
  vi.unstubAllGlobals();
});

describe('dialogs before and after the host listens', () => {
  it('holds a dialog asked for before the host mounts, and opens it once it does', () => {
    const id = dialogs.openConfirmModal({ title: '撤销应用密码', onConfirm: () => undefined });
    dialogs.updateModal({ modalId: id, title: '撤销中' });
    expect(heard).toEqual([]);
    dialogHostListening(true);
    expect(heard.map((h) => h.type)).toEqual([
      'mantine-modals:openConfirmModal',
      'mantine-modals:updateModal',
    ]);
    expect(heard[0]!.detail).toMatchObject({ title: '撤销应用密码', modalId: id });
    // Held once, not again on a later mount (StrictMode mounts the host twice in development).
    dialogHostListening(false);
    dialogHostListening(true);
    expect(heard).toHaveLength(2);
  });

  it('opens at once while the host listens, under the id it returned, and closes by it', () => {
    dialogHostListening(true);
    const id = dialogs.open({ title: '初始密码', children: 'abc' });
    expect(id).toMatch(/\S/);
    dialogs.close(id);
    expect(heard).toEqual([
      {
        type: 'mantine-modals:openModal',
        detail: expect.objectContaining({ modalId: id, title: '初始密码' }),
      },
      { type: 'mantine-modals:closeModal', detail: id },
    ]);
  });

  it('keeps an id the caller chose', () => {
    dialogHostListening(true);
    expect(dialogs.openConfirmModal({ modalId: 'session-expired', title: '登录超时' })).toBe(
      'session-expired',
    );
    expect(heard[0]!.detail.modalId).toBe('session-expired');
  });
});
