import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, signIn } from './helpers';
import { signInApi } from './users';

/*
 * 考勤统计 (issue 8), lean: 王芳 (staff02) travels two days across a month end, far in the future
 * so no other spec's requests share the month; 李明 (staff01) approves through the API. The
 * director opens 考勤统计 for each month, sees the split days, opens 王芳's detail, and
 * downloads the workbook.
 */

async function museumCall(request: APIRequestContext, token: string, path: string, data?: unknown) {
  const res = await request.fetch(`/singleMuseum${path}`, {
    method: data === undefined ? 'GET' : 'POST',
    headers: { token },
    data,
  });
  const body = (await res.json()) as { success: boolean; message: string; result: any };
  expect(body.success, `${path}: ${body.message}`).toBe(true);
  return body.result;
}

test('the director sees approved travel split across months, opens the detail and exports', async ({
  page,
  request,
}) => {
  const staff02 = await signInApi(request, 'staff02', DEMO_PASSWORD);
  const staff01 = await signInApi(request, 'staff01', DEMO_PASSWORD);
  const templates: { id: number; name: string }[] = await museumCall(
    request,
    staff02.token,
    '/workflowTemplate/startable',
  );
  const travel = templates.find((t) => t.name === '出差')!;
  const { actvityId } = await museumCall(request, staff02.token, '/workflowInst/start', {
    templateId: travel.id,
    form: {
      destination: '敦煌',
      period: { start: '2031-03-31', end: '2031-04-01', duration: 2 },
      reason: '壁画调研',
    },
  });
  await museumCall(request, staff01.token, '/workflowInst/approval', { actvityId, action: 2 });

  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page, 'director');
  await page.goto('/approve/view?month=2031-03');
  const row = page.getByTestId('attendance-row').filter({ hasText: '王芳' });
  // 请假, 出差, 加班, 审批单数: one of the two days falls in March.
  await expect(row.getByRole('cell')).toHaveText(['王芳', '办公室', '0', '1', '0', '1']);
  await expect(page.getByTestId('attendance-month')).toContainText('2031年03月');

  await row.getByRole('link', { name: '王芳：查看考勤明细' }).click();
  await expect(page.getByRole('heading', { name: '王芳的考勤明细' })).toBeVisible();
  await expect(page.getByTestId('attendance-total-travel')).toContainText('1天');
  await expect(page.getByTestId('attendance-requests')).toContainText('2031-03-31 至 2031-04-01');
  await expect(page.getByRole('link', { name: '王芳的出差' })).toHaveAttribute(
    'href',
    `/approve/process-done?state=done&actvityId=${actvityId}`,
  );

  await page.getByRole('link', { name: '返回考勤统计' }).click();
  await expect(page.getByTestId('attendance-table')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByTestId('attendance-export').click();
  expect((await download).suggestedFilename()).toBe('考勤统计-2031-03.xlsx');

  // On a phone the table scrolls inside its card; the page itself never scrolls sideways.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/approve/department-summary?month=2031-04');
  const office = page
    .getByTestId('department-table')
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: '办公室', exact: true }) });
  // The other travel day, in April.
  await expect(office.getByRole('cell')).toHaveText(['办公室', '2', '0', '1', '0', '1']);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // Another month from the picker: the address keeps it, and May has no travel.
  await page.getByTestId('attendance-month').click();
  await page.getByRole('button', { name: '5月' }).click();
  await expect(page).toHaveURL(/month=2031-05/);
  await expect(office.getByRole('cell')).toHaveText(['办公室', '2', '0', '0', '0', '0']);
});
