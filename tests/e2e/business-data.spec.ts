import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

/*
 * 业务数据 (issue 18), one lean journey through the records engine's list field: a member of staff
 * (王芳) at tablet size reports her month with two indicator rows; the second repeats the first
 * indicator, so the form shows the server's words at the field and nothing is saved; she deletes
 * the row and saves, and the list shows the month with its indicators in words. Month closing,
 * other people's ids and bad figures are API tests (tests/server/records-business.test.ts).
 */

test('staff report a month of business data, fixing a repeated indicator', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page, 'staff02');
  await page.goto('/home/data-managemnt?type=1');
  await expect(page.getByRole('heading', { name: '业务数据' })).toBeVisible();

  await page.getByTestId('records-add').click();
  const form = page.getByTestId('record-form');
  await form.getByTestId('field-year').fill('2032');
  await form.getByTestId('field-month').fill('3');
  const addRow = form.getByRole('button', { name: '添加一行' });
  for (const [n, value] of [
    [1, '12'],
    [2, '3'],
  ] as const) {
    await addRow.click();
    await form.getByTestId(`field-items-${n}-indicator`).click();
    await page.getByRole('option', { name: '讲解场次' }).click();
    await form.getByTestId(`field-items-${n}-value`).fill(value);
    await form.getByTestId(`field-items-${n}-unit`).fill('场');
  }
  await form.getByTestId('field-workSummary').fill('完成常设展讲解');
  await form.getByRole('button', { name: '保存' }).click();
  await expect(form.getByText('业务指标第 1 行和第 2 行是同一指标，请合并为一行')).toBeVisible();

  await form.getByRole('button', { name: '删除业务指标第 2 行' }).click();
  await expect(form.getByTestId('items-row')).toHaveCount(1);
  await form.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('添加成功')).toBeVisible();
  await expect(page.getByTestId('records-businessDataPersonal').getByText('讲解场次 12 场')).toBeVisible();
});
