import { expect, test } from '@playwright/test';
import { MODULES } from '../../src/shared/menu/catalogue';
import { isGroup } from '../../src/shared/menu/types';
import { signIn } from './helpers';

/**
 * Issue 24: once every module is built, no route of spec §2 shows 该功能建设中. An administrator
 * holds every grant, so they walk the whole catalogue (every menu leaf and every hidden route) in
 * one signed-in tab and each page must render: not the placeholder, not 无权限 or 页面不存在, no
 * uncaught error, no error notice, and not stuck loading. The navigation is in-app (history +
 * popstate, as a click on a menu link does), so the walk costs the pages, not a hundred reloads.
 * tests/app/catalogue-pages.test.ts is the same rule without a browser.
 */
const ROUTES = MODULES.flatMap((m) => [
  ...m.items.flatMap((item) => (isGroup(item) ? item.children : [item])),
  ...m.hidden,
]).map((r) => ({
  path: 'search' in r && r.search ? `${r.path}?${new URLSearchParams(r.search).toString()}` : r.path,
  title: r.title,
}));

test('an administrator opens every route of the catalogue: each is a real page that renders', async ({
  page,
}) => {
  test.setTimeout(60_000 + ROUTES.length * 4_000);
  let current = '';
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`${current}: ${e.message}`));
  await signIn(page, 'admin');
  const main = page.locator('main');
  for (const route of ROUTES) {
    current = `${route.title} ${route.path}`;
    await page.evaluate((href) => {
      history.pushState({}, '', href);
      dispatchEvent(new PopStateEvent('popstate'));
    }, route.path);
    await expect(page).toHaveURL((url) => url.pathname + url.search === route.path);
    // A page is done when its code and its first data have loaded (no spinner left).
    await expect(main.locator('.mantine-Loader-root'), current).toHaveCount(0, { timeout: 15_000 });
    for (const status of ['page-building', 'page-forbidden', 'page-not-found'])
      expect.soft(await main.getByTestId(status).count(), `${current} shows ${status}`).toBe(0);
    // A refused call surfaces as the 错误 notice (src/app/lib/api.ts).
    const alarms = page.locator('.mantine-Notification-root').filter({ hasText: '错误' });
    expect.soft(await alarms.allInnerTexts(), `${current} reports an error`).toEqual([]);
  }
  expect(errors).toEqual([]);
  expect(ROUTES.length).toBeGreaterThan(100);
});
