import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/*
 * When the service worker is registered (issue 25, src/app/lib/sw-register.ts): a device that
 * has it registers at once; a first install waits until the page has loaded, 2 s have passed
 * and the page is idle, so its precache of the whole app does not compete with the first
 * screen's calls. Workbox is replaced by a recorder: what is under test is the timing.
 */
const registered: { immediate?: boolean }[] = [];
vi.mock('workbox-window', () => ({
  Workbox: class {
    addEventListener() {}
    messageSkipWaiting() {}
    register(opts: { immediate?: boolean }) {
      registered.push(opts);
      return Promise.resolve(undefined);
    }
  },
}));

type Listener = () => void;

function browser(opts: { controller: boolean; readyState: DocumentReadyState; idle: boolean }) {
  const onLoad: Listener[] = [];
  const idleCallbacks: Listener[] = [];
  vi.stubGlobal('navigator', { serviceWorker: { controller: opts.controller ? {} : null } });
  vi.stubGlobal('document', { readyState: opts.readyState });
  vi.stubGlobal('window', {
    addEventListener: (type: string, l: Listener) => type === 'load' && onLoad.push(l),
  });
  vi.stubGlobal('requestIdleCallback', opts.idle ? (cb: Listener) => idleCallbacks.push(cb) : undefined);
  return {
    load: () => onLoad.splice(0).forEach((l) => l()),
    idle: () => idleCallbacks.splice(0).forEach((l) => l()),
    idleWaiting: () => idleCallbacks.length,
  };
}

async function registerNow() {
  const { registerServiceWorker, FIRST_INSTALL_DELAY_MS } = await import('../../src/app/lib/sw-register');
  registerServiceWorker(() => undefined);
  return FIRST_INSTALL_DELAY_MS;
}

/** Lets the promise chain inside registerServiceWorker run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('service worker registration', () => {
  beforeEach(() => {
    registered.length = 0;
    vi.useFakeTimers();
    vi.stubEnv('PROD', true);
    vi.resetModules();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.unstubAllEnvs();
  });

  it('a device that has the worker registers at once (an update check)', async () => {
    browser({ controller: true, readyState: 'loading', idle: true });
    await registerNow();
    await settle();
    expect(registered).toEqual([{ immediate: true }]);
  });

  it('a first install waits for the load, the delay and an idle moment', async () => {
    const b = browser({ controller: false, readyState: 'loading', idle: true });
    const delay = await registerNow();
    await vi.advanceTimersByTimeAsync(10 * delay);
    expect(registered).toEqual([]); // not loaded yet
    b.load();
    await vi.advanceTimersByTimeAsync(delay - 1);
    expect(b.idleWaiting()).toBe(0); // still in the delay
    await vi.advanceTimersByTimeAsync(1);
    expect(b.idleWaiting()).toBe(1);
    expect(registered).toEqual([]); // waits for the idle moment
    b.idle();
    await settle();
    expect(registered).toEqual([{ immediate: true }]);
  });

  it('a page already loaded waits for the delay only; without requestIdleCallback (Safari), the delay alone', async () => {
    browser({ controller: false, readyState: 'complete', idle: false });
    const delay = await registerNow();
    await vi.advanceTimersByTimeAsync(delay - 1);
    expect(registered).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(registered).toEqual([{ immediate: true }]);
  });

  it('a development build registers nothing', async () => {
    vi.stubEnv('PROD', false);
    browser({ controller: true, readyState: 'complete', idle: true });
    await registerNow();
    await settle();
    expect(registered).toEqual([]);
  });
});
