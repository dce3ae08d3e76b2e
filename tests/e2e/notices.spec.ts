import { expect, test, type APIRequestContext } from '@playwright/test';
import { waitForServiceWorker } from './drive-helpers';
import { ADMIN_PASSWORD, expectWithin2s, signIn, watchText } from './helpers';
import { createDriveUser, signInApi, type TestUser } from './users';

// Needs the service worker (offline reloads, Background Sync, the device's copies).
test.use({ serviceWorkers: 'allow' });

/*
 * The notice centre (issue 7) with two people in two browser contexts: what A sends reaches
 * B's bell and popup within 2 seconds without a reload (the live stream); B reads it and the
 * counts drop on the server too; offline, B's popup shows the cached notices and a read made
 * there reaches the server once the network returns. B is a fresh account, so its counts
 * start at zero whatever other specs did.
 */

test.describe.configure({ mode: 'serial' });

async function counts(request: APIRequestContext, token: string) {
  const res = await request.get('/singleMuseum/workflowActvity/count', { headers: { token } });
  return (await res.json()).result as { noticeCount: number; total: number };
}

/**
 * A publishes an announcement for B alone, as the 信息发布 page does (add, then publish).
 * Returns the moment the publish call left, from which B's live checks are timed.
 */
async function publish(request: APIRequestContext, token: string, to: TestUser, title: string) {
  const call = async (path: string, data: unknown) => {
    const body = await (
      await request.post(`/singleMuseum/infoPublish/${path}`, { headers: { token }, data })
    ).json();
    expect(body.success, body.message).toBe(true);
    return body.result;
  };
  const draft = await call('add', {
    title,
    content: `<p>${title}</p>`,
    audienceType: 'user',
    userIds: [to.userId],
  });
  const sentAt = Date.now();
  await call('publishOrCancel', { id: draft.id, status: 1 });
  return sentAt;
}

test('a notice reaches B live; B reads it online and offline, and the server agrees', async ({
  browser,
  request,
}, testInfo) => {
  // Two people in three tabs, an offline reload and a replay: 30–40 s on a quiet machine, and
  // it ran out of the default minute on a loaded two-core one, waiting for the replay.
  test.setTimeout(120_000);
  const b = await createDriveUser(request, { prefix: 'ntc' });
  const bContext = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await bContext.newPage();
  await signIn(page, b.account, b.password);
  await waitForServiceWorker(page);
  await expect(page.getByTestId('workbench')).toBeVisible();
  await expect(page.getByTestId('notice-total')).toHaveCount(0);

  // A second tab of B's: one tab holds the live stream and passes changes to the other.
  const tab2 = await bContext.newPage();
  await tab2.goto('/home/workbench');
  await expect(tab2.getByTestId('workbench')).toBeVisible();
  // The tab's own first load (its cards' calls) done before the clock starts: the check is of
  // the live path, and on a loaded two-core machine that load overlapped it (2,092 ms once).
  // This tab holds no stream (the first one does), so its network does go idle.
  await tab2.waitForLoadState('networkidle');

  // A publishes an announcement for B, through the API as the 信息发布 page calls it. A has no
  // page of its own here: loading the whole app for A, on the same two cores in the very
  // seconds of B's 2-second check, measured the test machine rather than the live stream (CI
  // failed the check twice that way). A's side of the journey is announce.spec's.
  const a = await signInApi(request, 'admin', ADMIN_PASSWORD);
  const title = `冬季特展布展安排${'及各展厅开放时间调整说明'.repeat(6)}`;
  const seenB = await watchText(page, 'notice-total', '1');
  const seenTab2 = await watchText(tab2, 'notice-total', '1');
  // The counts are read once, by the tab holding the stream, which passes them on (lib/live.ts).
  const tab2Counts: string[] = [];
  tab2.on('request', (r) => {
    if (r.url().includes('/workflowActvity/count')) tab2Counts.push(r.url());
  });
  const sentAt = await publish(request, a.token, b, title);
  // Within 2 seconds, no reload: the bell in both tabs, and the workbench tile.
  await expectWithin2s(seenB, sentAt, "B's bell", testInfo);
  await expectWithin2s(seenTab2, sentAt, "B's second tab", testInfo);
  expect(tab2Counts, 'the second tab read the counts itself').toEqual([]);
  await expect(page.getByTestId('count-noticeCount').getByTestId('count-value')).toHaveText('1');
  await tab2.close();
  await page.getByTestId('notice-centre').click();
  const first = page.getByTestId('notice-row').first();
  await expect(first).toContainText('今天');
  // Shortened to 60 characters; the whole text is in the tooltip.
  const text = (await first.locator('p').first().textContent()) ?? '';
  expect([...text]).toHaveLength(61);
  expect(text.endsWith('…')).toBe(true);
  await first.locator('p').first().hover();
  await expect(page.getByRole('tooltip')).toContainText(title);

  // B opens it: the announcement shows, and the count drops here and on the server.
  await first.click();
  await expect(page).toHaveURL(/\/approve\/notice-detail\?id=\d+/);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect.poll(async () => (await counts(request, b.token)).noticeCount).toBe(0);
  await page.goto('/home/workbench');
  await expect(page.getByTestId('workbench')).toBeVisible();
  await expect(page.getByTestId('notice-total')).toHaveCount(0);

  // Two more; then B loses the network.
  const seenTwo = await watchText(page, 'notice-total', '2');
  await publish(request, a.token, b, '库房温湿度巡检提醒');
  await expectWithin2s(
    seenTwo,
    await publish(request, a.token, b, '周五下午全馆消防演练'),
    'two more',
    testInfo,
  );
  await bContext.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await expect(page.getByTestId('notice-total')).toHaveText('2');
  await page.getByTestId('notice-centre').click();
  const popup = page.getByTestId('notice-popup');
  await expect(popup.getByTestId('notice-row')).toHaveCount(3);
  await expect(popup.getByTestId('offline-mark')).toBeVisible();
  await expect(popup.getByTestId('last-sync')).toContainText('最后同步');
  await popup.getByTestId('notice-row').filter({ hasText: '消防演练' }).click();
  // The announcement was never opened on this device, and says so; the read is queued.
  await expect(page.getByText('当前离线，且此通知未保存在本机')).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId('notice-total')).toHaveText('1');
  expect((await counts(request, b.token)).noticeCount).toBe(2);

  // Back online: the queued read replays once, and the server agrees.
  await bContext.setOffline(false);
  await expect.poll(async () => (await counts(request, b.token)).noticeCount).toBe(1);
  await expect(page.getByTestId('notice-total')).toHaveText('1');

  // 清空 asks first, then empties the list here and on the server.
  await page.getByTestId('notice-centre').click();
  await popup.getByTestId('notice-clear').click();
  await page.getByRole('dialog', { name: '清空通知' }).getByRole('button', { name: '确定' }).click();
  await expect(page.getByRole('dialog', { name: '清空通知' })).toBeHidden();
  if (!(await popup.isVisible())) await page.getByTestId('notice-centre').click();
  await expect(popup.getByText('暂无通知')).toBeVisible();
  await expect.poll(async () => (await counts(request, b.token)).noticeCount).toBe(0);
  // The bell closes the popup again.
  await page.getByTestId('notice-centre').click();
  await expect(popup).toBeHidden();

  // The workbench at tablet size, kept as an artefact.
  await expect(page.getByTestId('recent-files')).toBeVisible();
  const shot = testInfo.outputPath('workbench-tablet.png');
  await page.screenshot({ path: shot, fullPage: true });
  await testInfo.attach('workbench-tablet', { path: shot, contentType: 'image/png' });
  await bContext.close();
});
