import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { readQr } from './qr';
import { ADMIN_PASSWORD } from './helpers';
import { freePort, serverProcess, type ServerProcess } from './server-process';

/**
 * The visitor's side of reservations (README "The visitor's side"), on a phone (390×844), with
 * no staff sign-in: choose tomorrow and a slot, prove the phone with the one-time code, add a
 * visitor, agree to the notice, book; the entry QR is read back from its pixels and matches the
 * server's entry code; the place count drops by one; the visitor cancels from 我的预约 with a
 * confirmation and the place comes back.
 *
 * The code is read where a museum without an SMS gateway finds it: the server's log. This spec
 * therefore runs its own server process (the lanes' servers print to Playwright's console).
 * Every other rule (wrong and expired codes, throttles, other phones' bookings, the deadline) is
 * in tests/server/reservation-public.test.ts.
 */

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

let srv: ServerProcess;
let dataDir: string;

/** A valid resident ID (GB 11643 check digit) born on `birth`. */
function idFor(birth: string, serial: number): string {
  const body = `110105${birth.replaceAll('-', '')}${String(serial % 1000).padStart(3, '0')}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((a, c, i) => a + Number(c) * w[i]!, 0);
  return `${body}${'10X98765432'[sum % 11]}`;
}

/** 'yyyy-MM-dd' in the museum's zone (Asia/Shanghai), `days` from now. */
function museumDay(days: number): string {
  const d = new Date(Date.now() + 8 * 3600_000 + days * 86_400_000);
  return d.toISOString().slice(0, 10);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = path.resolve(`.tmp/e2e-visit-${Date.now().toString(36)}`);
  srv = serverProcess({ port: await freePort(), dataDir, startTimeoutMs: 150_000 });
  await srv.start();
});
test.afterAll(async () => {
  await srv?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a visitor books a slot on a phone, shows the entry QR, and cancels', async ({ page, request }) => {
  const base = srv.baseURL;
  const M = `${base}/singleMuseum`;
  // The museum's side, by API: open every day, one 09:00–11:00 slot of 20, tickets generated.
  const login = await request.post(`${M}/login/webLogin`, {
    data: { username: 'admin', password: ADMIN_PASSWORD },
  });
  const token = (await login.json()).result.token as string;
  const staff = async (p: string, data: object) => {
    const r = await (await request.post(`${M}${p}`, { data, headers: { token } })).json();
    expect(r.success, JSON.stringify(r)).toBe(true);
    return r.result;
  };
  await staff('/AppointSetting/save', {
    openTime: '08:00',
    lastEntryTime: '16:00',
    closeTime: '17:00',
    closedWeekdays: '',
    releaseTime: '00:00',
    onePerIdPerDay: true,
    teamNeedsApproval: true,
    notice: '请携带身份证件原件，凭预约二维码入馆。',
  });
  await staff('/AppointSettingTimes/save', {
    name: '上午场',
    startTime: '09:00',
    endTime: '11:00',
    capacity: 20,
    weekdays: '1,2,3,4,5,6,7',
    enabled: true,
  });
  await staff('/AppointTicket/generate', { days: 3 });
  const tomorrow = museumDay(1);

  await page.goto(`${base}/visit`);
  await expect(page.getByRole('heading', { name: '参观预约' })).toBeVisible();
  await page.locator(`[data-testid="visit-date"][data-date="${tomorrow}"]`).click();
  const slot = page.getByTestId('visit-slot').filter({ hasText: '09:00–11:00' });
  await expect(slot).toContainText('余 20');
  await slot.click();

  // The phone and its one-time code, from the server's log (no SMS gateway).
  const phone = '13912345678';
  await page.getByLabel('手机号').fill(phone);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByRole('button', { name: /秒后重新获取/ })).toBeVisible();
  let code = '';
  await expect
    .poll(() => {
      const m = /139\*\*\*\*5678[^\n]*验证码是 (\d{6})/.exec(srv.output());
      code = m?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  await page.getByLabel('验证码').fill(code);
  await page.getByRole('button', { name: '验证', exact: true }).click();
  await expect(page.getByTestId('visit-verified')).toHaveText('已验证手机号 139****5678');

  await page.getByLabel('联系人姓名').fill('陈参观');
  const card = page.getByTestId('visit-visitor').first();
  await card.getByLabel('姓名').fill('陈参观');
  await card.getByLabel('证件号').fill(idFor('1985-04-12', 7));
  await expect(page.getByTestId('visit-notice')).toHaveText('请携带身份证件原件，凭预约二维码入馆。');
  // Without agreeing to the notice the booking is refused in words.
  await page.getByRole('button', { name: '提交预约' }).click();
  await expect(page.getByTestId('visit-error')).toHaveText('请先阅读并同意预约须知');
  await page.getByLabel('我已阅读并同意预约须知').check();
  await page.getByRole('button', { name: '提交预约' }).click();

  await expect(page.getByRole('heading', { name: '预约成功' })).toBeVisible();
  const qr = page.getByTestId('visit-qr');
  await expect(qr).toBeVisible();
  // Read the QR back from its pixels; it carries the entry code the server holds for the order.
  const payload = await readQr(qr);
  const orders = (await (await page.request.get(`${M}/appointPublic/orderList`)).json()).result;
  expect(orders).toHaveLength(1);
  const detail = (await (await page.request.get(`${M}/appointPublic/orderDetail?id=${orders[0].id}`)).json())
    .result;
  expect(payload).toBe(detail.verifyCode);
  await expect(page.getByTestId('visit-code')).toHaveText(detail.verifyCode);
  // The office sees the same entry code and the verified phone on the order.
  const row = (
    await (await request.get(`${M}/AppointOrder/detail?id=${orders[0].id}`, { headers: { token } })).json()
  ).result.record;
  expect(row.verifyCode).toBe(detail.verifyCode);
  expect(row.channel).toBe(2);

  // One place fewer.
  await page.getByRole('button', { name: '返回' }).click();
  await page.locator('label').filter({ hasText: '预约参观' }).click();
  await page.locator(`[data-testid="visit-date"][data-date="${tomorrow}"]`).click();
  await expect(slot).toContainText('余 19');

  // 我的预约 → the booking → cancel, with a confirmation.
  await page.locator('label').filter({ hasText: '我的预约' }).click();
  await page.getByTestId('visit-mine-row').filter({ hasText: tomorrow }).click();
  await expect(page.getByTestId('visit-status')).toHaveText('已预约');
  await page.getByRole('button', { name: '取消预约' }).click();
  const dialog = page.getByRole('dialog', { name: '确认取消预约' });
  await expect(dialog).toContainText(`${tomorrow} 09:00–11:00`);
  await dialog.getByRole('button', { name: '确认取消' }).click();
  await expect(page.getByTestId('visit-status')).toHaveText('已取消');
  await expect(page.getByTestId('visit-qr')).toHaveCount(0);

  // The place is back.
  await page.getByRole('button', { name: '返回' }).click();
  await page.locator('label').filter({ hasText: '预约参观' }).click();
  await page.locator(`[data-testid="visit-date"][data-date="${tomorrow}"]`).click();
  await expect(slot).toContainText('余 20');
});
