import { expect, test, type APIRequestContext } from '@playwright/test';
import { axeSerious } from './axe';
import { ADMIN_PASSWORD } from './helpers';
import { signInApi } from './users';

/*
 * The volunteer's own phone (issue 20; README "Volunteer accounts and the phone view"), one
 * journey at 390 × 844: a volunteer the administrator passed signs in with the initial password,
 * is asked for a new one, signs in again and lands on /m (not the staff rail); sees the number,
 * hours and the week's sessions; claims an open session; and still reads the page with the
 * network off. The rules (guards, quotas, hours) are API tests (tests/server/volunteer-me.test.ts).
 */

test.use({ serviceWorkers: 'allow' });

const M = '/singleMuseum';

/** A valid resident ID (GB 11643 check digit) for a birth date, unique per run. */
function idFor(birth: string): string {
  const body = `110105${birth.replaceAll('-', '')}${String(Date.now()).slice(-3)}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((a, c, i) => a + Number(c) * w[i]!, 0);
  return `${body}${'10X98765432'[sum % 11]}`;
}

/** The museum's day `n` days from now (Asia/Shanghai), 'yyyy-MM-dd'. */
function day(n: number): string {
  return new Date(Date.now() + n * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
}

async function call(api: APIRequestContext, token: string, path: string, data: Record<string, unknown>) {
  const res = await api.post(`${M}${path}`, { headers: { token }, data });
  const body = await res.json();
  expect(body.success, `${path}: ${body.message}`).toBe(true);
  return body.result;
}

test('a volunteer signs in on a phone, lands on /m, claims a session and reads it offline', async ({
  browser,
  request,
}) => {
  const admin = (await signInApi(request, 'admin', ADMIN_PASSWORD)).token;
  const groups = await (
    await request.get(`${M}/v2/bsVolunteerV2Group/list`, { headers: { token: admin } })
  ).json();
  const groupId = groups.result.list.find((g: { name: string }) => g.name === '讲解组').id;
  const phone = `139${String(Date.now()).slice(-8)}`;
  const app = await call(request, admin, '/v2/bsVolunteerV2ApplicationForm/save', {
    type: 1,
    name: '周若溪',
    gender: 2,
    birthDate: '1993-06-18',
    idType: 1,
    idNumber: idFor('1993-06-18'),
    phone,
    emergencyName: '周父',
    emergencyPhone: '13800005555',
    groupId,
    availableTimes: '周末上午',
  });
  await call(request, admin, '/v2/bsVolunteerV2ApplicationForm/sendInterview', {
    id: app.id,
    interviewTime: `${day(3)} 10:00`,
    interviewPlace: '三楼会议室',
  });
  const passed = await call(request, admin, '/v2/bsVolunteerV2ApplicationForm/interviewPass', {
    id: app.id,
    interviewScore: 90,
  });
  const { account, initialPassword, userId } = passed.account;
  expect(passed.operatorNote).toContain(initialPassword);

  // A session of hers tomorrow, one open for claims the day after, and two confirmed hours.
  const ex = await call(request, admin, '/v2/exhibition/add', {
    name: '青铜时代',
    hall: '二号展厅',
    startDate: day(0),
    endDate: day(30),
    explainMinutes: 60,
    explainTimes: [{ time: '10:00' }],
    needQualification: false,
    status: 1,
  });
  const session = (d: number, start: string, end: string) =>
    call(request, admin, '/v2/exhibitionDetail/save', {
      exhibitionId: ex.id,
      serviceDate: day(d),
      startTime: start,
      endTime: end,
      type: 1,
      quota: 2,
    });
  const mine = await session(1, '10:00', '11:00');
  await call(request, admin, '/v2/exhibitionDetail/setExplain', { id: mine.id, explainerIds: [userId] });
  const open = await session(2, '14:00', '15:00');
  await call(request, admin, '/v2/exhibitionDetail/showRecruit', { id: open.id, recruitOpen: true });
  const rec = await call(request, admin, '/v2/serviceRecord/save', {
    volunteerId: userId,
    volunteerKind: 1,
    serviceType: 1,
    serviceDate: day(0),
    startTime: '09:00',
    endTime: '11:00',
    content: '展厅讲解',
  });
  await call(request, admin, '/v2/serviceRecord/confirm', { id: rec.id });
  // A recruit open for sign-up (admitted at once: no review).
  const minute = (d: number) => `${day(d)} 09:00`;
  const recruit = await call(request, admin, '/v2/bsVolunteerV2Recruit/add', {
    title: '周末亲子导览',
    type: 1,
    groupId,
    targetType: 1,
    content: '<p>周末亲子导览志愿者</p>',
    signupStart: minute(-1),
    signupEnd: minute(5),
    total: 3,
    hoursPerPerson: '3',
    needReview: false,
  });
  await call(request, admin, '/v2/bsVolunteerV2Recruit/publish', { id: recruit.id });

  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'allow',
    // Our CSP refuses the injected axe script, as it should any inline script (a11y.spec.ts).
    bypassCSP: true,
  });
  const page = await context.newPage();
  const signIn = async (password: string) => {
    await page.goto('/login');
    await page.getByLabel('账号或手机号').fill(account);
    await page.getByLabel('密码', { exact: true }).fill(password);
    await page.getByRole('button', { name: '登 录' }).click();
  };

  // First sign-in: the initial password must be replaced before anything else.
  await signIn(initialPassword);
  await expect(page).toHaveURL(/\/m$/);
  const first = page.getByTestId('first-password');
  await expect(first).toContainText('请先设置您的登录密码');
  expect(await axeSerious(page)).toEqual([]);
  await first.getByLabel('初始密码').fill(initialPassword);
  await first.getByLabel(/^新密码/).fill('Ruoxi@2026');
  await first.getByLabel(/^确认新密码/).fill('Ruoxi@2026');
  await first.getByRole('button', { name: '设置新密码' }).click();
  await expect(page).toHaveURL(/\/login/);

  await signIn('Ruoxi@2026');
  await expect(page).toHaveURL(/\/m$/);
  await expect(page.getByTestId('module-rail')).toHaveCount(0);
  await expect(page.getByTestId('vp-number')).toHaveText(passed.volunteerNo);
  await expect(page.getByTestId('vp-status')).toHaveText('见习');
  await expect(page.getByTestId('vp-hours-year')).toContainText('2');
  const sessions = page.getByTestId('vp-session');
  await expect(sessions).toHaveCount(1);
  await expect(sessions.first()).toContainText('明天');
  await expect(sessions.first()).toContainText('青铜时代');
  await expect(sessions.first()).toHaveAttribute('href', `/m/session/${mine.id}`);

  // Claim the open session: it joins my week.
  const claim = page.getByTestId('vp-claim-row').filter({ hasText: '青铜时代' });
  await expect(claim).toContainText('14:00–15:00');
  await claim.getByTestId('vp-claim').click();
  await page.getByRole('dialog').getByRole('button', { name: '认领' }).click();
  await expect(page.getByText('认领成功，已加入您的场次')).toBeVisible();
  await expect(sessions).toHaveCount(2);
  await expect(page.getByTestId('vp-claim-row')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('volunteer-home-phone.png'), fullPage: true });
  expect(await axeSerious(page)).toEqual([]);

  // Offline: the installed shell and the device's copy of the page still open.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((r) =>
        navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }),
      );
  });
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('vp-offline')).toContainText('当前离线');
  await expect(page.getByTestId('vp-number')).toHaveText(passed.volunteerNo);
  await expect(sessions).toHaveCount(2);
  await expect(page.getByTestId('vp-hours-year')).toContainText('2');
  // A sign-up made offline waits on the phone, to be settled by the server's quota.
  const signUp = page.getByTestId('vp-recruit').filter({ hasText: '周末亲子导览' });
  await signUp.getByTestId('vp-sign-up').click();
  await expect(signUp.getByTestId('vp-sign-waiting')).toHaveText('待提交 · 提交后以服务器名额为准');
  await page.screenshot({ path: test.info().outputPath('volunteer-home-offline.png'), fullPage: true });
  await context.setOffline(false);
  // Back online the outbox sends it; the server admits it (no review) and the place is taken.
  await expect(signUp.getByTestId('vp-sign-waiting')).toHaveCount(0, { timeout: 15_000 });
  await expect(signUp).toContainText('已录用');
  const taken = await (
    await request.get(`${M}/v2/bsVolunteerV2Recruit/detail?id=${recruit.id}`, { headers: { token: admin } })
  ).json();
  expect(taken.result.record.used).toBe(1);

  // No signal again: the claimed session, never opened on this phone, opens from the device
  // (the home read the week's check-in pages ahead while it had signal).
  await context.setOffline(true);
  await sessions.filter({ hasText: '14:00–15:00' }).click();
  await expect(page).toHaveURL(new RegExp(`/m/session/${open.id}$`));
  await expect(page.getByTestId('checkin-page')).toContainText('14:00–15:00');
  await expect(page.getByRole('heading', { name: '青铜时代' })).toBeVisible();
  await expect(page.getByTestId('offline-mark')).toBeVisible();
  await expect(page.getByTestId('checkin-error')).toHaveCount(0);
  await context.setOffline(false);
  await context.close();
});
