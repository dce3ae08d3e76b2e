import { expect, test } from '@playwright/test';
import { waitForServiceWorker } from './drive-helpers';
import { signIn } from './helpers';

// Needs the service worker (offline reloads, Background Sync, the device's copies).
test.use({ serviceWorkers: 'allow' });

test('after one online visit the installed shell opens with the network off', async ({ page, context }) => {
  await signIn(page, 'staff02');
  // Wait until the service worker has precached the shell and controls the page.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) =>
        navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }),
      );
    }
  });

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('module-rail')).toBeVisible();
  await expect(page.getByTestId('current-user-name')).toHaveText('王芳');
  await expect(page.getByTestId('offline-banner')).toContainText('当前离线');

  // Client routes still open from the cache; a deep link too.
  await page.locator('[data-module="resources"]').click();
  await expect(page.getByTestId('side-menu')).toContainText('个人网盘');
  await page.goto('/approve/process-pending?state=pending');
  await expect(page.getByTestId('offline-banner')).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
});

test('the manifest makes the app installable in Chinese', async ({ request }) => {
  const res = await request.get('/manifest.webmanifest');
  expect(res.headers()['cache-control']).toBe('no-cache');
  const m = await res.json();
  expect(m.name).toBe('馆务云');
  expect(m.display).toBe('standalone');
  expect(m.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  for (const icon of m.icons) expect((await request.get(icon.src)).status()).toBe(200);
  expect((await request.get('/sw.js')).headers()['cache-control']).toBe('no-cache');
  // Each page names it once: the PWA plugin adds the link to the built pages itself.
  for (const page of ['/', '/login']) {
    const html = await (await request.get(page)).text();
    expect(html.match(/<link[^>]*rel="manifest"/g), page).toHaveLength(1);
  }
});

test('the sign-in page: straight on when signed in, and offline it still opens and says so', async ({
  page,
}) => {
  await signIn(page, 'staff05');
  await waitForServiceWorker(page);
  // Signed in already (a bookmark of /login, the back button): on to the person's first page.
  await page.goto('/login');
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await expect(page).not.toHaveURL(/\/login/);
  // A person signs out on a tablet; the Wi-Fi drops. The sign-in page comes from the service
  // worker, says 当前离线 and does not offer to sign in. (Chromium reports navigator.onLine true
  // for that page: the page finds it out by asking the server, as with an uplink down.)
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByTestId('login-page')).toBeVisible();
  await page.context().setOffline(true);
  await page.reload();
  await expect(page.getByText('当前离线，无法登录。请连接网络后重试。')).toBeVisible();
  await expect(page.getByRole('button', { name: '登 录' })).toBeDisabled();
  await page.context().setOffline(false);
  await expect(page.getByText('当前离线，无法登录。请连接网络后重试。')).toBeHidden();
  await expect(page.getByRole('button', { name: '登 录' })).toBeEnabled();
});
