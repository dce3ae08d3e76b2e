import { expect, test } from '@playwright/test';
import { readQr } from './qr';
import { createPublicKey, verify } from 'node:crypto';
import { signIn, tokenOf } from './helpers';
import { createDriveUser } from './users';

/*
 * Volunteer service's staff pages (issue 20), one lean journey at tablet size: an administrator
 * generates an exhibition's sessions from its daily times, opens the hall's signed check-in code,
 * looks at 签到管理 and the annual check, and saves the students' settings. The rules (guards,
 * hours at the window's edges, replays, forged and revoked codes) are API tests
 * (tests/server/volunteer-service.test.ts).
 */

test('an administrator generates sessions, reads the hall code and saves the settings', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page, 'admin');
  const token = await tokenOf(page);
  const name = `青铜器展讲解${Date.now() % 100000}`;
  const added = await page.request.post('/singleMuseum/v2/exhibition/add', {
    headers: { token },
    data: {
      name,
      hall: '二号展厅',
      startDate: '2031-05-06',
      endDate: '2031-05-12',
      explainMinutes: 30,
      explainTimes: [{ time: '10:00' }, { time: '15:00' }],
      needQualification: true,
      status: 1,
    },
  });
  expect((await added.json()).success).toBe(true);

  await page.goto('/volunteer/exlain-index');
  await expect(page.getByRole('heading', { name: '志愿服务展览' })).toBeVisible();
  const row = page.getByTestId('record-row').filter({ hasText: name });
  await row.getByRole('button', { name: '生成场次' }).click();
  const dialog = page.getByRole('dialog', { name: `生成场次：${name}` });
  await dialog.getByRole('button', { name: '生成场次' }).click();
  // 05-06..05-12 with Monday 05-12 closed: six days, two times each.
  await expect(page.getByText('已生成 12 个场次（跳过 1 个闭馆日）')).toBeVisible();
  await expect(page.getByTestId('record-row').filter({ hasText: '2031-05-06' }).first()).toBeVisible();

  await row.getByRole('button', { name: '签到码' }).click();
  await expect(page.getByTestId('qr-payload')).toContainText('gwy1.');
  await expect(page.getByText('当前版本：第 1 版')).toBeVisible();
  await page.getByRole('button', { name: '作废旧码' }).click();
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('当前版本：第 2 版')).toBeVisible();
  await page.keyboard.press('Escape');

  await page.goto('/volunteer/sign-in');
  await expect(page.getByRole('heading', { name: '场次签到' })).toBeVisible();
  await page.getByLabel('日期', { exact: true }).fill('2031-05-06');
  await expect(page.getByTestId('session-counts').filter({ hasText: name })).toHaveCount(2);

  await page.goto('/volunteer/service-list');
  await expect(page.getByRole('heading', { name: '志愿服务记录' })).toBeVisible();
  await page.getByRole('button', { name: '年度考核' }).click();
  await page.getByRole('button', { name: '查询' }).click();
  await expect(page.getByText(/最低 60 小时；共核查 \d+ 人/)).toBeVisible();
  await page.keyboard.press('Escape');

  await page.goto('/volunteer/stu-service-appoint');
  await expect(page.getByRole('heading', { name: '学生服务时段' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '学生服务预约' })).toBeVisible();

  await page.goto('/volunteer/stu-service-setting');
  await expect(page.getByRole('heading', { name: '志愿服务设置' })).toBeVisible();
  await page.getByRole('button', { name: '编辑设置' }).click();
  const form = page.getByTestId('record-form');
  await form.getByTestId('field-annualMinHours').fill('40');
  await form.getByRole('button', { name: '保存' }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByText('40', { exact: true })).toBeVisible();
});

/*
 * At tablet size: an administrator confirms a day's pending hours in bulk and sees the year's
 * totals move, then opens the hall's rotating code full screen. The QR on the screen is read
 * back (jsQR on its pixels) and its Ed25519 signature checked with the server's public key, so
 * the picture carries exactly the signed payload. The screenshot is kept as an artefact.
 */
test('an administrator confirms hours in bulk and shows the rotating code on a tablet', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page, 'admin');
  const token = await tokenOf(page);
  const api = async (path: string, data: Record<string, unknown>) => {
    const r = await page.request.post(`/singleMuseum/v2/${path}`, { headers: { token }, data });
    const body = await r.json();
    expect(body.success, JSON.stringify(body)).toBe(true);
    return body.result;
  };
  const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
  const a = await createDriveUser(request, { prefix: 'vol' });
  const b = await createDriveUser(request, { prefix: 'vol' });
  const name = `轮换码展${Date.now() % 100000}`;
  const ex = await api('exhibition/add', {
    name,
    hall: '三号展厅',
    startDate: today,
    endDate: today,
    explainMinutes: 60,
    explainTimes: [{ time: '06:00' }],
    needQualification: false,
    status: 1,
  });
  const session = await api('exhibitionDetail/save', {
    exhibitionId: ex.id,
    serviceDate: today,
    startTime: '06:00',
    endTime: '07:00',
    type: 3,
    quota: 3,
    recruitOpen: false,
  });
  await api('exhibitionDetail/setExplain', { id: session.id, explainerIds: [a.userId, b.userId] });
  // 代签 and 补签 by the office: two pending hours.
  for (const v of [a, b]) {
    await api('exhibitionDetailUser/check', {
      detailId: session.id,
      volunteerId: v.userId,
      time: `${today} 06:00`,
      reason: '现场登记',
    });
    await api('exhibitionDetailUser/checkTime', {
      detailId: session.id,
      volunteerId: v.userId,
      time: `${today} 07:00`,
      reason: '现场登记',
    });
  }

  await page.goto('/volunteer/service-list');
  const totals = page.getByTestId('volunteer-totals');
  await expect(totals).toContainText('本年度已确认');
  const read = async () => {
    const m = /已确认 ([\d.]+) 小时 · 待确认 ([\d.]+) 小时/.exec((await totals.textContent()) ?? '');
    return { confirmed: Number(m?.[1]), pending: Number(m?.[2]) };
  };
  await expect.poll(async () => (await read()).pending).toBeGreaterThanOrEqual(2);
  const before = await read();
  await page.getByRole('button', { name: '批量确认' }).click();
  await page.getByTestId('confirm-all').click();
  await expect(page.getByText(/已确认 \d+ 条/)).toBeVisible();
  await expect.poll(async () => (await read()).pending).toBe(0);
  expect((await read()).confirmed).toBeGreaterThanOrEqual(before.confirmed + 2);
  await expect(page.getByTestId('chart-hours-month')).toBeVisible();

  await page.goto('/volunteer/exlain-index');
  const row = page.getByTestId('record-row').filter({ hasText: name });
  await row.getByRole('button', { name: '平板轮换码' }).click();
  const qr = page.getByTestId('rotating-qr');
  await expect(qr).toBeVisible();
  await expect(page.getByTestId('rotating-countdown')).toContainText('秒后更新');
  await expect(page.getByRole('heading', { name: '三号展厅' })).toBeVisible();
  const payload = await readQr(qr);
  expect(payload).toBe(await qr.getAttribute('data-payload'));
  const parts = payload.split('.');
  expect(parts.slice(0, 2)).toEqual(['gwy1', String(ex.id)]);
  expect(Buffer.from(parts[2]!, 'base64url').toString('utf8')).toBe('三号展厅');
  expect(Number(parts[5]) - Number(parts[4])).toBe(150_000);
  const key = await (
    await page.request.get('/singleMuseum/v2/exhibition/qrKey', { headers: { token } })
  ).json();
  const publicKey = createPublicKey({
    key: Buffer.from(key.result.publicKey, 'base64url'),
    format: 'der',
    type: 'spki',
  });
  expect(
    verify(null, Buffer.from(parts.slice(0, 6).join('.')), publicKey, Buffer.from(parts[6]!, 'base64url')),
  ).toBe(true);
  await testInfo.attach('tablet-rotating-code', {
    body: await page.screenshot(),
    contentType: 'image/png',
  });
  await page.getByRole('button', { name: '退出展示' }).click();
  await expect(qr).toHaveCount(0);

  // The roll's charts and 建议停用 tab, and the workbench card with today's session.
  await page.goto('/volunteer/adult-volunteer');
  await expect(page.getByTestId('chart-new-month')).toBeVisible();
  await expect(page.getByTestId('chart-attendance')).toBeVisible();
  await expect(page.getByTestId('roll-tabs')).toContainText('建议停用');
  await page.goto('/home/workbench');
  const card = page.getByTestId('volunteer-today');
  await expect(card).toContainText(name);
  await expect(card).toContainText('已签到 2/2 · 缺 1 人');
});
