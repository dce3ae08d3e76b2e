import { expect, test } from '@playwright/test';
import { signIn, tokenOf } from './helpers';

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
