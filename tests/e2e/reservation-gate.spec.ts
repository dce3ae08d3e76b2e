import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { axeSerious } from './axe';
import { formatMuseumMinute, museumDate } from '../../src/shared/rules/museum-time';
import { ADMIN_PASSWORD, signIn } from './helpers';
import { clearOfDayEnd, DAY_END_WAIT_MS } from '../server/reservation-util';
import { createDriveUser, signInApi } from './users';

/*
 * The gate tablet (issue 21; README "Visitor reservations" › 入馆核验) at tablet size against the
 * real server: today's list loaded online, the network dropped, two visitors admitted by their
 * entry codes (typed into 手动输入入馆码, the scanner's fallback and the test's way in) — one of
 * whom the east gate admits meanwhile through the API —, a code used twice refused on the
 * tablet, the network back: the queue replays, the office sees one admission each, and the
 * gate keeps the conflict with its reason until dismissed. The rules (hashes, grant, device
 * time, windows, idempotent replay) are API tests: tests/server/reservation-gate.test.ts. axe-core
 * checks the page online (no serious findings).
 */

// bypassCSP: only so the axe check can inject its script (as in a11y.spec.ts).
test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true, bypassCSP: true });

const M = '/singleMuseum';

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

/** An open ticket of today holding now, made if none: an all-day template, same-day booking allowed. */
async function todaysTicket(request: APIRequestContext, admin: string): Promise<number> {
  const today = museumDate(Date.now());
  const now = formatMuseumMinute(Date.now()).slice(11);
  await call(request, admin, 'POST', '/AppointSetting/save', {
    openTime: '00:00',
    lastEntryTime: '23:58',
    closeTime: '23:59',
    closedWeekdays: '',
    sameDayCutoffMinutes: 0,
    onePerIdPerDay: true,
    teamNeedsApproval: true,
  });
  const find = async () => {
    const list = await call<{
      list: { id: number; startTime: string; endTime: string; isOpen: boolean; surplusSum: number }[];
    }>(request, admin, 'GET', `/AppointTicket/getList?dateFrom=${today}&dateTo=${today}&pageCount=100`);
    return list.list.find((t) => t.isOpen && t.startTime <= now && t.endTime > now && t.surplusSum >= 2);
  };
  let t = await find();
  if (!t) {
    await call(request, admin, 'POST', '/AppointSettingTimes/save', {
      name: '核验全天',
      startTime: '00:00',
      endTime: '23:58',
      capacity: 50,
      weekdays: '1,2,3,4,5,6,7',
      validFrom: today,
      validTo: today,
      enabled: true,
    });
    await call(request, admin, 'POST', '/AppointTicket/generate', { days: 1 });
    t = await find();
  }
  expect(t, 'an open ticket of today holding now').toBeTruthy();
  return t!.id;
}

/** A valid resident ID (GB 11643 check digit) born 1990, unique per run and serial. */
function idFor(serial: number): string {
  const body = `110105199004${String(10 + (serial % 18)).padStart(2, '0')}${String(Date.now() % 1000).padStart(3, '0')}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((a, c, i) => a + Number(c) * w[i]!, 0);
  return `${body}${'10X98765432'[sum % 11]}`;
}

async function shot(page: Page, info: TestInfo, name: string) {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
}

async function scan(page: Page, code: string) {
  await page.getByRole('button', { name: '扫码核验' }).click();
  const dialog = page.getByRole('dialog', { name: '扫描观众的入馆码' });
  await dialog.getByLabel('手动输入入馆码').fill(code);
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByTestId('gate-order')).toBeVisible();
}

test('the gate goes offline, admits two visitors (one admitted elsewhere meanwhile), syncs, and keeps the conflict', async ({
  page,
  context,
  request,
}, info) => {
  // Today's ticket is used throughout: not in the museum day's last minutes.
  test.setTimeout(120_000 + DAY_END_WAIT_MS);
  await clearOfDayEnd();
  const { token: admin } = await signInApi(request, 'admin', ADMIN_PASSWORD);
  const ticketId = await todaysTicket(request, admin);
  const book = (name: string, serial: number) =>
    call<{ id: number; orderNo: string; verifyCode: string }>(request, admin, 'POST', '/AppointOrder/book', {
      ticketId,
      contactName: name,
      contactPhone: `139${String(Date.now() % 100_000_000).padStart(8, '0')}`,
      visitors: [{ name, idType: 1, idNumber: idFor(serial) }],
    });
  const a = await book('门甲', 1);
  const b = await book('门乙', 2);

  // The gate's staff hold 入馆核验 only.
  const roles = await call<{ roleId: number; code: string }[]>(request, admin, 'GET', '/sysRole/list');
  let roleId = roles.find((r) => r.code === 'gateStaff')?.roleId;
  if (!roleId) {
    roleId = (
      await call<{ roleId: number }>(request, admin, 'POST', '/sysRole/save', {
        code: 'gateStaff',
        name: '检票员',
        remark: '',
      })
    ).roleId;
    await call(request, admin, 'POST', '/sysRole/setMenus', {
      roleId,
      menuKeys: ['home.workbench', 'order.gate'],
    });
  }
  const staff = await createDriveUser(request, { prefix: 'gate', role: 'gateStaff' });

  await signIn(page, staff.account, staff.password);
  await page.goto('/reservation/gate');
  await expect(page.getByRole('heading', { name: '入馆核验' })).toBeVisible();
  await expect(page.getByTestId('gate-synced')).toContainText('名单同步于');
  await shot(page, info, 'gate-online');
  expect(await axeSerious(page)).toEqual([]);

  // The entrance's Wi-Fi drops.
  await context.setOffline(true);
  // Meanwhile the east gate, online, admits 门乙.
  await call(request, admin, 'POST', '/AppointOrder/finishAppoint', { verifyCode: b.verifyCode });

  await scan(page, a.verifyCode);
  await expect(page.getByTestId('gate-order')).toContainText('门甲');
  await page.getByRole('button', { name: '确认入馆（1 人）' }).click();
  await expect(page.getByTestId('gate-order')).toBeHidden();
  await scan(page, b.verifyCode);
  await page.getByRole('button', { name: '确认入馆（1 人）' }).click();
  await expect(page.getByTestId('gate-order')).toBeHidden();
  await expect(page.getByTestId('gate-counts')).toContainText('2 人待同步');
  await expect(page.getByTestId('offline-mark')).toBeVisible();

  // The same code again is refused on the tablet: it was used here.
  await scan(page, a.verifyCode);
  await expect(page.getByTestId('gate-problem')).toHaveText(
    /^该入馆码已使用：全部参观人已入馆（\d{2}:\d{2}，待同步），不能重复核销$/,
  );
  await expect(page.getByRole('button', { name: /确认入馆/ })).toBeDisabled();
  await shot(page, info, 'gate-offline-used-code');
  await page.getByTestId('gate-order').getByRole('button', { name: '关闭' }).click();
  await expect(page.getByTestId('gate-order')).toBeHidden();

  // Back online: the queue replays; 门甲 lands, 门乙 is refused and kept with the reason.
  await context.setOffline(false);
  const refused = page.getByTestId('gate-refused');
  await expect(refused).toContainText(`入馆：门乙（${b.orderNo}）`);
  await expect(refused).toContainText(/已入馆（\d{2}:\d{2}），不能重复核销/);
  await expect(page.getByTestId('gate-counts')).not.toContainText('待同步');
  await shot(page, info, 'gate-conflict');

  // The office sees one admission each.
  for (const o of [a, b]) {
    const d = await call<{ record: { status: number }; log: { action: string }[] }>(
      request,
      admin,
      'GET',
      `/AppointOrder/detail?id=${o.id}`,
    );
    expect(d.record.status).toBe(2);
    expect(d.log.filter((l) => l.action === 'finishAppoint')).toHaveLength(1);
  }

  // Dismissed, the conflict goes; a reload finds nothing queued.
  await refused.getByRole('button', { name: '知道了' }).click();
  await expect(refused).toBeHidden();
  await page.reload();
  await expect(page.getByTestId('gate-page')).toBeVisible();
  await expect(page.getByTestId('gate-refused')).toBeHidden();
});
