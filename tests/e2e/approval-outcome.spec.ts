import { expect, test } from '@playwright/test';
import { badgeText } from '../../src/shared/menu/badge';
import {
  clickAt,
  closePersonPages,
  DEMO_PASSWORD,
  expectWithin2s,
  personPage,
  signIn,
  watchText,
} from './helpers';
import { signInApi } from './users';

/*
 * Issue 17 §2, the requester's side: 王芳 (staff02) files 年假 on her tablet; her superior 李明
 * (staff01) agrees in his own browser. Without a reload her bell rises within 2 seconds, and the
 * notice opens 我发起的 with the request's panel reading 审批通过. The rules (refusal, transfer,
 * copies, the actor, replays) are in tests/server/approval-outcome.test.ts.
 */

// Each person's browser goes when the test ends (helpers.ts, personPage).
test.afterEach(closePersonPages);

test('王芳 files 年假; 李明 agrees; her bell rises live and opens the request, 审批通过', async ({
  browser,
  request,
}, testInfo) => {
  const wf = await signInApi(request, 'staff02', DEMO_PASSWORD);
  const call = async (path: string, init: { method?: string; data?: unknown } = {}) =>
    (
      await request.fetch(`/singleMuseum${path}`, {
        method: init.method ?? 'POST',
        headers: { token: wf.token },
        ...(init.data !== undefined && { data: init.data }),
      })
    ).json();
  const templates = (await call('/workflowInst/templates?category=normal', { method: 'GET' })) as {
    result: { id: number; name: string }[];
  };
  const leave = templates.result.find((t) => t.name === '请假');
  expect(leave, JSON.stringify(templates)).toBeTruthy();

  // 王芳 on a portrait tablet, on her workbench, before she files.
  const wang = await personPage(browser, { viewport: { width: 820, height: 1180 } });
  await signIn(wang, 'staff02');
  await expect(wang.getByTestId('workbench')).toBeVisible();

  const started = await call('/workflowInst/start', {
    data: {
      templateId: leave!.id,
      form: {
        leaveType: 'annual',
        period: { start: '2027-03-01', end: '2027-03-01', duration: 1 },
        reason: '年假回乡',
      },
    },
  });
  expect(started.success, started.message).toBe(true);
  const id = started.result.actvityId as number;
  const before = ((await call('/workflowActvity/count', { method: 'GET' })).result as { total: number })
    .total;
  if (before > 0) await expect(wang.getByTestId('notice-total')).toHaveText(badgeText(before));

  // 李明 agrees in his own browser.
  const li = await personPage(browser, { viewport: { width: 1280, height: 900 } });
  await signIn(li, 'staff01');
  await li.goto(`/approve/process-pending?state=pending&actvityId=${id}`);
  const panel = li.getByTestId('detail-panel');
  const seen = await watchText(wang, 'notice-total', badgeText(before + 1));
  await panel.getByTestId('panel-agree').click();
  // From his click on 提交 itself (the dialog's opening before it is not the live path).
  const agreedAt = await clickAt(li.getByTestId('action-dialog').getByTestId('action-submit'));
  // His panel reads 审批通过 once the server has answered (he is the only approver of 1 day).
  await expect(panel.getByTestId('detail-status')).toHaveText('审批通过');

  // Her bell, live, within 2 seconds of his click (its answer included), by her page's own
  // clock (see watchText).
  await expectWithin2s(seen, agreedAt, 'her bell after his 提交', testInfo);
  await wang.getByTestId('notice-centre').click();
  const row = wang.getByTestId('notice-row').filter({ hasText: '您的「请假」申请已通过' });
  await expect(row).toHaveCount(1);
  await row.click();
  await expect(wang).toHaveURL(new RegExp(`/approve/process-mystart\\?.*actvityId=${id}`));
  const mine = wang.getByTestId('detail-panel');
  await expect(mine.getByTestId('detail-title')).toHaveText('王芳的请假');
  await expect(mine.getByTestId('detail-status')).toHaveText('审批通过');
});
