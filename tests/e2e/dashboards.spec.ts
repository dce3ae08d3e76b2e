import { expect, test } from '@playwright/test';
import { museumDate } from '../../src/shared/rules/museum-time';
import { waitForServiceWorker } from './drive-helpers';
import { signIn, tokenOf } from './helpers';

/**
 * The workbench's charts (issue 24; README "Dashboards and the workbench") at tablet size: the
 * administrator's 观众人数 chart draws today's typed visitors, the exhibitions card lists what is
 * on, and after the network drops and the app reopens, the charts draw from the device with their
 * sync time. 补录 goes through its form, and a 馆内动态 item opens in place: both load their code
 * only when used (issue 25). The numbers are API tests' (tests/server/dashboards.test.ts).
 */

test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true, serviceWorkers: 'allow' });
test.setTimeout(90_000);

test('the workbench charts render with data, and offline from the device', async ({ page }) => {
  await signIn(page, 'admin');
  const token = await tokenOf(page);
  const today = museumDate(Date.now());
  const res = await (
    await page.request.post('/singleMuseum/applet/tourRecord/save', {
      headers: { token },
      data: { date: today, source: 3, count: 23, minorCount: 4, remark: '东门闸机读数' },
    })
  ).json();
  expect(res.success, JSON.stringify(res)).toBe(true);

  await page.goto('/home/workbench');
  const tour = page.getByTestId('dash-tour');
  // The card may first draw the device's copy from the visit before the POST (今日 0 人), then
  // the server's answer.
  const shownToday = async () =>
    Number((await tour.getByTestId('tour-today').innerText()).match(/\d+/)?.[0] ?? -1);
  await expect.poll(shownToday).toBeGreaterThanOrEqual(23);
  let todayCount = await shownToday();
  await expect(tour.locator('[data-chart-bar]').first()).toBeVisible();
  // Today's column (the last) names each kind of visit with its count when pointed at.
  const todayBar = tour.locator('[data-chart-bar]').last();
  const box = (await todayBar.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const tip = tour.getByTestId('chart-tooltip');
  await expect(tip).toContainText('手工补录');
  const counts = (await tip.locator('[data-chart-value]').allInnerTexts()).map(Number);
  expect(Math.max(...counts)).toBeGreaterThanOrEqual(23);
  await page.mouse.move(0, 0);
  await expect(tip).toBeHidden();
  // Screen readers get the figures as a table: today's row holds the typed visitors.
  const table = tour.getByRole('table', { name: '观众人数' });
  await expect(table.getByRole('columnheader', { name: '日期' })).toBeAttached();
  const todayCells = (await table.locator('tbody tr').last().getByRole('cell').allInnerTexts()).map(Number);
  expect(Math.max(...todayCells)).toBeGreaterThanOrEqual(23);
  // 补录 through its form, which loads when the button is pressed: the figure joins today's.
  await tour.getByTestId('tour-enter').click();
  const entry = page.getByTestId('tour-entry');
  await entry.getByRole('textbox', { name: '人数', exact: true }).fill('7');
  await entry.getByLabel('说明').fill('纸质登记');
  await entry.getByTestId('tour-entry-save').click();
  await expect(entry).toBeHidden();
  await expect.poll(shownToday).toBeGreaterThanOrEqual(todayCount + 7);
  todayCount = await shownToday();

  // 馆内动态: a published item opens its detail in place (the drawer, too, loads when first used).
  const news = `库房搬迁完成 ${Date.now()}`;
  const saved = await (
    await page.request.post('/singleMuseum/wkDynamic/save', {
      headers: { token },
      data: { title: news, content: `<p>${news}</p>` },
    })
  ).json();
  expect(saved.success, JSON.stringify(saved)).toBe(true);
  const published = await (
    await page.request.post('/singleMuseum/wkDynamic/publish', {
      headers: { token },
      data: { id: saved.result.id },
    })
  ).json();
  expect(published.success, JSON.stringify(published)).toBe(true);
  await page.reload();
  await page.getByTestId('latest-news').getByRole('button', { name: news }).click();
  const drawer = page.getByRole('dialog', { name: '馆内动态详情' });
  await expect(drawer).toContainText(news);
  await drawer.getByRole('button', { name: /关闭/ }).click();
  await expect(drawer).toBeHidden();

  const exhibitions = page.getByTestId('dash-exhibitions');
  const chart = exhibitions.locator('svg[role="img"]');
  await expect(chart).toHaveAttribute('aria-label', /在展展览/);
  // On a tablet a tap shows this month's column, and a second tap puts it away.
  await chart.scrollIntoViewIfNeeded();
  const area = (await chart.boundingBox())!;
  const [x, y] = [area.x + area.width - 20, area.y + area.height / 2];
  await page.touchscreen.tap(x, y);
  await expect(exhibitions.getByTestId('chart-tooltip')).toContainText('基本陈列');
  await page.touchscreen.tap(x, y);
  await expect(exhibitions.getByTestId('chart-tooltip')).toBeHidden();
  await expect(page.getByTestId('dash-relic')).toBeVisible();

  // Offline, the app reopened: the same chart from the device, with the 离线 mark and sync time.
  await waitForServiceWorker(page);
  await page.context().setOffline(true);
  await page.reload();
  const offlineTour = page.getByTestId('dash-tour');
  await expect(offlineTour.getByTestId('offline-mark')).toBeVisible({ timeout: 20_000 });
  await expect(offlineTour.getByTestId('last-sync')).toContainText(':');
  await expect(offlineTour.getByTestId('tour-today')).toContainText(String(todayCount));
  await expect(offlineTour.locator('[data-chart-bar]').first()).toBeVisible();
  await page.context().setOffline(false);
});
