import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { page } from '../../src/app/routes/lazy';

/**
 * Issue 25: a signed-in launch preloads the shell and its page beside the signed-in chunk
 * (router.tsx), and a preloaded page must then draw at once. React's lazy would still suspend on
 * its first render, however long ago its code arrived; renderToString without a Suspense
 * boundary refuses to render anything that suspends, so it tells the two apart.
 */
function Greeting({ who }: { who: string }) {
  return <b>你好，{who}</b>;
}

/** A page module whose loader counts its calls and fails the first `failures` of them. */
function counted(failures = 0) {
  const state = { calls: 0 };
  const load = async () => {
    state.calls += 1;
    if (state.calls <= failures) throw new TypeError('Failed to fetch dynamically imported module');
    return { Greeting };
  };
  return { state, Page: page(load, 'Greeting') };
}

describe('page(): a page preloaded before it is drawn', () => {
  it('suspends when drawn before its code has loaded', () => {
    const { Page } = counted();
    const html = renderToString(
      <Suspense fallback={<i>正在加载</i>}>
        <Page who="馆员" />
      </Suspense>,
    );
    expect(html).toContain('正在加载');
    expect(html).not.toContain('你好');
  });

  it('draws without suspending once preloaded, loading its code once', async () => {
    const { state, Page } = counted();
    await Promise.all([Page.preload(), Page.preload()]);
    expect(renderToString(<Page who="馆员" />)).toBe('<b>你好，<!-- -->馆员</b>');
    await Page.preload();
    expect(state.calls).toBe(1);
  });

  it('never rejects when the code cannot load, and loads it again on the next try', async () => {
    const { state, Page } = counted(1);
    await expect(Page.preload()).resolves.toBeUndefined();
    expect(state.calls).toBe(1);
    // Not loaded, so a draw goes through the lazy: it suspends, and its load is the next try,
    // which a preload meanwhile joins rather than starting a third.
    expect(() => renderToString(<Page who="馆员" />)).toThrow();
    await Page.preload();
    expect(state.calls).toBe(2);
    expect(renderToString(<Page who="馆员" />)).toContain('馆员');
  });
});
