import { describe, expect, it, vi } from 'vitest';
import { BUILT_PAGES } from '../../src/app/routes/pages';
import { MODULES } from '../../src/shared/menu/catalogue';
import { isGroup } from '../../src/shared/menu/types';

/**
 * Issue 24: every route of the catalogue (each module's menu leaves and hidden routes) has a real
 * page, none the 该功能建设中 placeholder a route without a page shows. The browser walk
 * (tests/e2e/catalogue-walk.spec.ts) checks the same pages render for an administrator; this
 * names a missing page in a second, before any build.
 */
// The workbench is the one page pages.tsx loads eagerly; its code wants a browser. The rest load
// on first visit, so importing the table runs none of them.
vi.mock('../../src/app/routes/workbench', () => ({ Workbench: () => null }));

describe('the catalogue', () => {
  it.each(MODULES.map((m) => [m.key, m] as const))('%s: every route has a page', (_key, mod) => {
    const paths = [...mod.items.flatMap((i) => (isGroup(i) ? i.children : [i])), ...mod.hidden].map(
      (r) => r.path,
    );
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((p) => !(p in BUILT_PAGES))).toEqual([]);
  });
});
