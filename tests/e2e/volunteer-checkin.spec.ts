import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { axeSerious } from './axe';
import { formatMuseumMinute, museumDate, parseMuseumDate } from '../../src/shared/rules/museum-time';
import { signIn } from './helpers';
import { createDriveUser, signInApi } from './users';
import { ADMIN_PASSWORD } from './helpers';

/*
 * The volunteer's check-in on the phone (issue 20; README "Volunteer service and check-in"), at
 * 390 × 844 against the real server: today's session made through the API by an administrator,
 * the hall's real signed code typed into 手动输入签到码 (the scanner's fallback and the test's
 * way in). Only the phone's clock is moved (Playwright's page.clock) for the check-in made
 * offline two hours before it syncs. The rules (windows, hours at the edges, forged and revoked
 * codes, replays) are API tests (tests/server/volunteer-service.test.ts) and unit tests
 * (checkin-code.test.ts).
 */

// bypassCSP: only so the axe check below can inject its script (as in a11y.spec.ts).
// The service worker is allowed: the phone reopens the page with no signal, and Background Sync
// is one of the replay triggers.
test.use({
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  bypassCSP: true,
  serviceWorkers: 'allow',
});

const M = '/singleMuseum/v2';
const HOUR = 60 * 60_000;
const UNIT = 30 * 60_000; // the default hoursUnit (30 minutes)

async function call<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  data?: object,
) {
  const res =
    method === 'GET'
      ? await request.get(`${M}${path}`, { headers: { token } })
      : await request.post(`${M}${path}`, { headers: { token }, data });
  const body = await res.json();
  expect(body.success, `${path}: ${JSON.stringify(body)}`).toBe(true);
  return body.result as T;
}

/**
 * Today's session (museum time) from `beforeMs` before now to an hour after, with `volunteerId`
 * on it; the hall's code. Kept inside today: a run just after midnight starts at 00:00.
 */
async function todaysSession(
  request: APIRequestContext,
  admin: string,
  volunteerId: number,
  beforeMs = HOUR,
) {
  const now = Date.now();
  const day = museumDate(now);
  const start = formatMuseumMinute(now - beforeMs);
  const end = formatMuseumMinute(now + HOUR);
  const startTime = start.startsWith(day) ? start.slice(11) : '00:00';
  const endTime = end.startsWith(day) ? end.slice(11) : '23:59';
  const name = `签到演示展${now % 100000}`;
  const ex = await call<{ id: number }>(request, admin, 'POST', '/exhibition/add', {
    name,
    hall: '一号展厅',
    startDate: day,
    endDate: day,
    explainMinutes: 30,
    explainTimes: [{ time: '10:00' }],
    needQualification: false,
    status: 1,
  });
  const session = await call<{ id: number }>(request, admin, 'POST', '/exhibitionDetail/save', {
    exhibitionId: ex.id,
    serviceDate: day,
    startTime,
    endTime,
    type: 3,
    quota: 2,
  });
  await call(request, admin, 'POST', '/exhibitionDetail/setExplain', {
    id: session.id,
    explainerIds: [volunteerId],
  });
  const code = await call<{ payload: string }>(request, admin, 'GET', `/exhibition/qrCode?id=${ex.id}`);
  return { name, day, detailId: session.id, qr: code.payload };
}

/** A phone-size screenshot kept in test-results (the artefacts CI keeps) and attached to the report. */
async function shot(page: Page, info: TestInfo, name: string) {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
}

/** Waits until the service worker has precached the app and controls the page (offline.spec.ts). */
async function swControls(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((r) =>
        navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }),
      );
  });
}

async function scan(page: Page, button: '扫码签到' | '扫码签退', payload: string) {
  await page.getByRole('button', { name: button }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('手动输入签到码').fill(payload);
  await dialog.getByRole('button', { name: '确定' }).click();
}

async function officeRows(request: APIRequestContext, admin: string, detailId: number) {
  return (
    await call<{ list: Record<string, unknown>[] }>(
      request,
      admin,
      'GET',
      `/exhibitionDetailUser/checkList?detailId=${detailId}&pageCount=50`,
    )
  ).list;
}

/** Every museum minute (HH:MM) from `from` to `to`: what the phone may show for a moment in between. */
function minutesBetween(from: number, to: number): string[] {
  const out = new Set<string>();
  for (let t = from; t < to + 60_000; t += 60_000) out.add(formatMuseumMinute(Math.min(t, to)).slice(11));
  return [...out];
}

test('a volunteer checks in offline two hours ago, syncs later, the replay lands once, then checks out', async ({
  page,
  context,
  request,
}, info) => {
  test.setTimeout(120_000);
  const { token: admin } = await signInApi(request, 'admin', ADMIN_PASSWORD);
  const volunteer = await createDriveUser(request, { prefix: 'vol' });
  // The volunteer checked in at the hall two hours ago with no signal and the phone syncs only
  // now. Two hours, or less in the museum day's first hours (the session and the hall's code are
  // today's), always whole 30-minute units so the counted hours are exact (see the check-out).
  const start = Date.now();
  const sinceMidnight = start - parseMuseumDate(museumDate(start))! - 60_000;
  const ago = Math.max(0, Math.min(2 * HOUR, Math.floor(sinceMidnight / UNIT) * UNIT));
  // The session began half an hour before that check-in (inside the window, nothing clamped).
  const s = await todaysSession(request, admin, volunteer.userId, ago + UNIT);

  // Only the phone's clock moves, never the server's: Playwright's clock, installed before the
  // first page at the real time, runs with real time (its timers too, so the outbox's triggers
  // and the UI's animations behave as usual) until setSystemTime moves the page's Date below.
  // setSystemTime shifts the wall clock only; timers count their own ticks and are not disturbed.
  await page.clock.install();
  await signIn(page, volunteer.account, volunteer.password);
  // Opened online with the right clock: the offset measured here (≈ 0) is kept on the phone.
  await page.goto(`/m/session/${s.detailId}`);
  await expect(page.getByRole('heading', { name: s.name })).toBeVisible();
  await expect(page.getByTestId('checkin-state')).toHaveText('待签到');
  await shot(page, info, 'phone-session-online');

  // No signal in the basement hall, two hours ago.
  await context.setOffline(true);
  const from = Date.now();
  await page.clock.setSystemTime(from - ago);
  // A tampered code is refused on the phone at once, in the server's words.
  const sig = s.qr.lastIndexOf('.') + 5;
  const forged = s.qr.slice(0, sig) + (s.qr[sig] === 'A' ? 'B' : 'A') + s.qr.slice(sig + 1);
  await scan(page, '扫码签到', forged);
  await expect(page.getByTestId('scan-error')).toHaveText(
    '签到码无效（签名校验失败），请扫描展厅现场的签到码',
  );
  await shot(page, info, 'phone-scan-refused');
  expect(await axeSerious(page)).toEqual([]);
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('手动输入签到码').fill(s.qr);
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog).toHaveCount(0);
  const state = page.getByTestId('checkin-state');
  await expect(state).toHaveText(/^已签到 \d\d:\d\d（待同步）$/);
  const to = Date.now();
  const shown = (await state.textContent())!.match(/\d\d:\d\d/)![0];
  // The time of two hours ago, as the phone's clock read it when the code was typed.
  expect(minutesBetween(from - ago, to - ago)).toContain(shown);
  await shot(page, info, 'phone-checked-in-offline');
  // Nothing reached the office yet.
  expect((await officeRows(request, admin, s.detailId))[0]).toMatchObject({ status: 0, checkInTime: null });

  // Two hours later: the phone's clock is the real time again before the signal returns, so the
  // offset it measures on its next read is honest; the queued check-in keeps the deviceTime and
  // offset it was recorded with.
  await page.clock.setSystemTime(Date.now());
  // Back online: the outbox replays by itself and the server's placed time replaces 待同步.
  await context.setOffline(false);
  await expect(state).toHaveText(`已签到 ${shown}`);
  await shot(page, info, 'phone-checked-in-synced');
  expect(await axeSerious(page)).toEqual([]);
  // A reload (another replay trigger) sends nothing twice.
  await page.reload();
  await expect(page.getByTestId('checkin-state')).toHaveText(`已签到 ${shown}`);

  const [row] = await officeRows(request, admin, s.detailId);
  expect(row).toMatchObject({ status: 1, volunteerId: volunteer.userId });
  // Placed at the phone's time plus the offset measured online (≈ 0): two hours back, not now.
  const checkIn = row!.checkInTime as number;
  expect(formatMuseumMinute(checkIn).slice(11)).toBe(shown);
  expect(checkIn).toBeGreaterThanOrEqual(from - ago - 5_000);
  expect(checkIn).toBeLessThanOrEqual(to - ago + 5_000);
  // Synced two hours late with an honest clock: nothing for a person to review (late sync is
  // flagged only after 24 hours, skew only beyond 10 minutes).
  expect(row!.flags ?? '').toBe('');
  const detail = await call<{ log: { action: string }[] }>(
    request,
    admin,
    'GET',
    `/exhibitionDetailUser/detail?id=${row!.id as number}`,
  );
  expect(detail.log.filter((l) => l.action === 'check')).toHaveLength(1);
  const counts = await call<{ sessions: { id: number; checkedIn: number }[] }>(
    request,
    admin,
    'GET',
    `/exhibitionDetailUser/dayCounts?date=${s.day}`,
  );
  expect(counts.sessions.find((x) => x.id === s.detailId)).toMatchObject({ checkedIn: 1 });

  // Check-out now, online: the server counts whole units between the two placed times.
  await scan(page, '扫码签退', s.qr);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('checkin-state')).toContainText(/已签退 \d\d:\d\d(?!（待同步）)/);
  const [out] = await officeRows(request, admin, s.detailId);
  expect(out).toMatchObject({ status: 2, checkInTime: checkIn });
  const minutes = (Math.floor(((out!.checkOutTime as number) - checkIn) / UNIT) * UNIT) / 60_000;
  expect(out!.serviceMinutes).toBe(minutes);
  // Exactly `ago` (120 minutes, 2 小时, outside the museum day's first hours): the check-in is
  // placed `ago` before the moment the code was typed and the check-out a few seconds after
  // that moment, far less than one 30-minute unit, so the floor lands on `ago` itself. 90 would
  // mean a placed time off by more than the journey's seconds: a real fault, reported here.
  expect(minutes).toBe(ago / 60_000);
  const records = (
    await call<{ list: { serviceMinutes: number; status: number }[] }>(
      request,
      admin,
      'GET',
      `/serviceRecord/pageList?volunteerId=${volunteer.userId}`,
    )
  ).list;
  expect(records).toEqual([expect.objectContaining({ serviceMinutes: minutes, status: 0 })]);
  await expect(page.getByTestId('checkin-state')).toContainText(
    `服务时长 ${minutes / 60} 小时 · 时长待管理员确认`,
  );
  await shot(page, info, 'phone-checked-out');
});

test('a check-in refused on replay because the session was cancelled stays with its reason', async ({
  page,
  context,
  request,
}, info) => {
  test.setTimeout(90_000);
  const { token: admin } = await signInApi(request, 'admin', ADMIN_PASSWORD);
  const volunteer = await createDriveUser(request, { prefix: 'vol' });
  const s = await todaysSession(request, admin, volunteer.userId);

  await signIn(page, volunteer.account, volunteer.password);
  await page.goto(`/m/session/${s.detailId}`);
  await expect(page.getByTestId('checkin-state')).toHaveText('待签到');
  await swControls(page);
  await context.setOffline(true);
  await scan(page, '扫码签到', s.qr);
  await expect(page.getByTestId('checkin-state')).toHaveText(/^已签到 \d\d:\d\d（待同步）$/);
  // The phone reopens the page with no signal: the session and the queued check-in are on it.
  await page.reload();
  await expect(page.getByRole('heading', { name: s.name })).toBeVisible();
  await expect(page.getByTestId('checkin-state')).toHaveText(/^已签到 \d\d:\d\d（待同步）$/);
  await expect(page.getByTestId('offline-mark')).toBeVisible();

  // Meanwhile the office cancels the session.
  await call(request, admin, 'POST', '/exhibitionDetail/cancel', { id: s.detailId, reason: '展厅临时闭馆' });

  await context.setOffline(false);
  const refused = page.getByTestId('checkin-refused');
  await expect(refused).toContainText('该场次已取消：展厅临时闭馆，签到未计入');
  await expect(page.getByText('该场次已取消：展厅临时闭馆', { exact: true })).toBeVisible();
  await expect(page.getByTestId('checkin-state')).toHaveText('待签到');
  await expect(page.getByRole('button', { name: '扫码签到' })).toHaveCount(0);
  await shot(page, info, 'phone-refused-cancelled');
  // Kept across a reload until the volunteer has read it.
  await page.reload();
  await expect(refused).toContainText('该场次已取消：展厅临时闭馆，签到未计入');
  await refused.getByRole('button', { name: '知道了' }).click();
  await expect(refused).toHaveCount(0);
  expect((await officeRows(request, admin, s.detailId))[0]).toMatchObject({ status: 0, checkInTime: null });

  // A session never opened online says how to get it; a broken address says so too.
  await context.setOffline(true);
  await page.goto(`/m/session/${s.detailId + 1000}`);
  await expect(page.getByTestId('checkin-error')).toHaveText('本机没有该场次的信息，请联网后打开一次');
  await context.setOffline(false);
  await page.goto('/m/session/abc');
  await expect(page.getByTestId('checkin-error')).toHaveText('场次地址不正确，请从“我的场次”重新进入');
});
