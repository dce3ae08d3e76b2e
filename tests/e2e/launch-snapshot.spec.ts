import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { apiFor, openDrive } from './drive-helpers';
import { createDriveUser } from './users';

/*
 * Issue 25, the cached listing on a slow tablet: the drive as last drawn is on the screen before
 * the app's code has run (public/launch-snapshot.js), and the live page takes its place once
 * drawn (src/app/lib/launch-snapshot.ts). The app's entry script is held back here, as a slow
 * tablet holds it back, so the picture can be seen on its own; then released.
 *
 * The picture lives in a closed shadow tree, which no locator can see into (that is the point:
 * the other journeys never find its copies of rows). This test alone opens it, by asking the
 * page, before any of its scripts run, to make every shadow tree open.
 */
const DRIVE = '/resources/net-disk?fileType=0';
const FOLDER = '启动快照展品';
const KEY = 'gwy.launchSnapshot.drive';
const BENCH_KEY = 'gwy.launchSnapshot.workbench';
const GREETING = /夜深了|上午好|中午好|下午好|晚上好/;

/** Holds the app's entry script until the returned function is called. */
async function holdAppCode(page: Page): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  // The last hold's handler, released already, is let go without waiting on it.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}

/** Shadow trees made open, so this test's locators can read the picture. */
const openShadows = () => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init: ShadowRootInit) {
    return attach.call(this, { ...init, mode: 'open' });
  };
};

const overlay = (page: Page) => page.locator('#launch-snapshot');
const liveRow = (page: Page, name: string) =>
  page.locator(`#root [data-testid="file-row"][data-name="${name}"]`);

test('the drive as last drawn shows before the app has loaded, then the live page replaces it', async ({
  page,
  request,
}, info) => {
  await page.addInitScript(openShadows);
  const user = await createDriveUser(request, { prefix: 'snap' });
  await signIn(page, user.account, user.password);
  const api = await apiFor(page, request);
  await api.mkdir('/', FOLDER);
  await openDrive(page, DRIVE);
  await expect(liveRow(page, FOLDER)).toBeVisible();
  await expect.poll(() => page.evaluate((k) => localStorage.getItem(k) ?? '', KEY)).toContain(FOLDER);

  // Launch again with the app's code held back: the kept picture, and nothing live under it.
  let release = await holdAppCode(page);
  await page.goto(DRIVE, { waitUntil: 'commit' });
  await expect(overlay(page)).toBeVisible();
  await expect(overlay(page).locator(`[data-name="${FOLDER}"]`)).toBeVisible();
  await expect(overlay(page).getByText('正在启动…')).toBeVisible();
  await page.screenshot({ path: info.outputPath('launch-snapshot.png') });
  await expect(overlay(page)).toHaveAttribute('aria-hidden', 'true');
  await expect(overlay(page).locator('.screen')).toHaveAttribute('inert', '');
  expect(await overlay(page).locator('[id], [data-testid]').count()).toBe(0);
  await expect(liveRow(page, FOLDER)).toHaveCount(0);
  // A tap on the picture reaches nothing.
  await overlay(page).locator(`[data-name="${FOLDER}"]`).click({ force: true });
  await expect(page).toHaveURL(DRIVE);

  release();
  await expect(liveRow(page, FOLDER)).toBeVisible();
  await expect(overlay(page)).toHaveCount(0);

  // The app drawing beneath, the picture still up: a tap meant for the picture is the layer's,
  // and never the page's that happens to be under the finger (the first version let it through).
  // The device's copy of the folder is gone (as after 清除缓存) and the listing's read is held,
  // so the page is drawn, still loading its rows, under the picture.
  await page.goto('/favicon.svg');
  await page.evaluate(async () => {
    for (const { name } of await indexedDB.databases())
      if (name?.startsWith('gwy-'))
        await new Promise((done) => Object.assign(indexedDB.deleteDatabase(name), { onsuccess: done }));
  });
  release = await holdAppCode(page);
  let listed!: () => void;
  const listing = new Promise<void>((r) => (listed = r));
  await page.route('**/file/getfilelist**', async (route) => {
    await listing;
    await route.continue();
  });
  await page.goto(DRIVE, { waitUntil: 'commit' });
  await expect(overlay(page).locator(`[data-name="${FOLDER}"]`)).toBeVisible();
  release();
  await expect(page.getByTestId('user-menu')).toBeAttached();
  await expect(overlay(page)).toBeVisible();
  const box = (await page.getByTestId('user-menu').boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByRole('menuitem', { name: '退出登录' })).toHaveCount(0);
  listed();
  await expect(liveRow(page, FOLDER)).toBeVisible();
  await expect(overlay(page)).toHaveCount(0);

  release();
  await expect(liveRow(page, FOLDER)).toBeVisible();
  await expect(overlay(page)).toHaveCount(0);
  // A tampered entry (what a script injected elsewhere could leave) draws, but runs nothing.
  // Written from a page of the site without the app, which keeps its screen as it unloads.
  await page.goto('/favicon.svg');
  await page.evaluate((k) => {
    const snap = JSON.parse(localStorage.getItem(k)!);
    snap.html +=
      '<img src="/favicon.svg" onload="window.__ran=1"><script>window.__ran=2</script>' +
      '<a href="javascript:window.__ran=3">链接</a>';
    localStorage.setItem(k, JSON.stringify(snap));
  }, KEY);
  release = await holdAppCode(page);
  await page.goto(DRIVE, { waitUntil: 'commit' });
  await expect(overlay(page).locator(`[data-name="${FOLDER}"]`)).toBeVisible();
  await expect(overlay(page).locator('script, [onload]')).toHaveCount(0);
  await expect(overlay(page).locator('a', { hasText: '链接' })).not.toHaveAttribute('href', /javascript/);
  expect(await page.evaluate(() => (window as { __ran?: number }).__ran)).toBeUndefined();
  release();
  await expect(liveRow(page, FOLDER)).toBeVisible();

  // Another address does not show this picture.
  release = await holdAppCode(page);
  await page.goto('/resources/net-disk?fileType=1', { waitUntil: 'commit' });
  await expect(page.locator('#root .boot')).toBeVisible();
  await expect(overlay(page)).toBeHidden();
  release();
  await expect(page.getByTestId('user-menu')).toBeVisible();

  // Signing out forgets it: the next person on this tablet never sees this drive.
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
  await expect(page).toHaveURL(/\/login/);
  for (const k of [KEY, BENCH_KEY]) expect(await page.evaluate((k) => localStorage.getItem(k), k)).toBeNull();
});

test('the home-screen icon’s launch shows the workbench as last drawn, beside a kept drive', async ({
  page,
  request,
}, info) => {
  await page.addInitScript(openShadows);
  const user = await createDriveUser(request, { prefix: 'snapw' });
  await signIn(page, user.account, user.password);
  await expect(page.getByTestId('workbench')).toBeVisible();
  await expect.poll(() => page.evaluate((k) => localStorage.getItem(k) ?? '', BENCH_KEY)).toMatch(GREETING);
  // The drive keeps its own; the workbench's stays.
  await openDrive(page, DRIVE);
  await expect.poll(() => page.evaluate((k) => localStorage.getItem(k) ?? '', KEY)).toContain('全部文件');

  // The icon opens the app's start, which leads to the person's first page: the workbench.
  let release = await holdAppCode(page);
  await page.goto('/', { waitUntil: 'commit' });
  await expect(overlay(page).getByText(GREETING)).toBeVisible();
  await page.screenshot({ path: info.outputPath('launch-snapshot-workbench.png') });
  await expect(page.getByTestId('workbench')).toHaveCount(0);
  release();
  await expect(page.getByTestId('workbench')).toBeVisible();
  await expect(page).toHaveURL(/\/home\/workbench/);
  await expect(overlay(page)).toHaveCount(0);

  // The drive's is still there for the drive.
  release = await holdAppCode(page);
  await page.goto(DRIVE, { waitUntil: 'commit' });
  await expect(overlay(page).getByText('全部文件')).toBeVisible();
  release();
  await expect(overlay(page)).toHaveCount(0);

  // The workbench's picture is of its day: one kept yesterday is not shown.
  await page.goto('/favicon.svg');
  await page.evaluate((k) => {
    const snap = JSON.parse(localStorage.getItem(k)!);
    snap.savedAt -= 86_400_000;
    snap.expires = Date.now() - 1;
    localStorage.setItem(k, JSON.stringify(snap));
  }, BENCH_KEY);
  release = await holdAppCode(page);
  await page.goto('/', { waitUntil: 'commit' });
  await expect(page.locator('#root .boot')).toBeVisible();
  await expect(overlay(page)).toBeHidden();
  release();
  await expect(page.getByTestId('workbench')).toBeVisible();
});
