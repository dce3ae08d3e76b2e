import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';

/*
 * Self-registration's journey (issue 18), in one lean run: a newcomer registers on a phone from
 * the login page's 注册 link and, signing in too early, is told her account is being reviewed;
 * an administrator on a tablet sees the 人员审核 badge, approves her choosing a role; she signs
 * in on her phone; the administrator then filters 系统日志 to her registration (its password
 * redacted), its approval and her sign-in.
 * The rules (validation, throttle, duplicates, stale and replayed decisions) are API tests.
 */

const PASSWORD = 'Linxy#2026';
// A phone of its own per run, so a rerun on the same data directory registers afresh.
const PHONE = `139${String(Date.now()).slice(-8)}`;
const NAME = '林晓雨';

/** Picks a choice of a select filter, as a person would. */
async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(page.getByTestId(testId)).toHaveValue(option);
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

test('a newcomer registers on a phone, is approved on a tablet, signs in; all three show in 系统日志', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const phoneContext = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    serviceWorkers: 'block',
  });
  const phone = await phoneContext.newPage();

  // 1. Registering, from the login page.
  await phone.goto('/login');
  await phone.getByTestId('register-link').click();
  await expect(phone.getByRole('heading', { name: '注册账号' })).toBeVisible();
  await phone.getByLabel('姓名').fill(NAME);
  await phone.getByLabel('手机号').fill(PHONE.slice(0, 7));
  await phone.getByLabel('设置密码').fill(PASSWORD);
  await phone.getByLabel('确认密码').fill(PASSWORD);
  await phone.getByRole('button', { name: '提交申请' }).click();
  // Refused in place, in the server's words, before anything is sent.
  await expect(phone.getByText('请输入正确的 11 位手机号')).toBeVisible();
  await expect(phone.getByText('请选择部门')).toBeVisible();
  await phone.getByLabel('手机号').fill(PHONE);
  await phone.getByTestId('register-dept').click();
  await phone.getByRole('option', { name: '陈列部' }).click();
  await phone.getByLabel('申请说明（选填）').fill('陈列部新入职讲解员');
  await shot(phone, 'register-phone');
  await phone.getByRole('button', { name: '提交申请' }).click();
  await expect(phone.getByTestId('register-done')).toContainText('注册申请已提交');

  // Signing in before the decision says where the registration stands.
  await phone.getByRole('link', { name: '返回登录' }).click();
  await phone.getByLabel('账号或手机号').fill(PHONE);
  await phone.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await phone.getByRole('button', { name: '登 录' }).click();
  await expect(phone.getByTestId('login-error')).toHaveText(
    '账号正在审核中，请耐心等待管理员审核通过后再登录',
  );

  // 2. The administrator, on a tablet, approves her with a role.
  const tablet = await browser.newPage({ viewport: { width: 1024, height: 768 } });
  await signIn(tablet, 'admin');
  await tablet.goto('/staff/person/pending');
  const menuItem = tablet.getByTestId('side-menu').getByRole('link', { name: /人员审核/ });
  await expect(menuItem).toContainText(/人员审核\s*\d+/);
  const row = tablet.getByTestId('record-row').filter({ hasText: NAME });
  await expect(row).toContainText('陈列部');
  await expect(row).toContainText(`${PHONE.slice(0, 3)}****${PHONE.slice(-4)}`);
  // Both decisions are in view on a tablet, without scrolling the table sideways.
  await expect(row.getByRole('button', { name: '拒绝' })).toBeInViewport();
  await row.getByRole('button', { name: '通过' }).click();
  const dialog = tablet.getByRole('dialog', { name: '通过确认' });
  await dialog.getByTestId('field-roleIds').click();
  await tablet.getByRole('option', { name: '策展人' }).click();
  // The role list stays open for a second pick; Escape closes it, not the dialog.
  await tablet.keyboard.press('Escape');
  await expect(tablet.getByRole('option', { name: '策展人' })).toBeHidden();
  await expect(dialog.getByTestId('field-roleIds')).toBeVisible();
  await shot(tablet, 'approve-tablet');
  await dialog.getByRole('button', { name: '通过' }).click();
  await expect(tablet.getByText('通过成功')).toBeVisible();
  await expect(tablet.getByTestId('record-row').filter({ hasText: NAME })).toHaveCount(0);

  // 3. She signs in on her phone, with the password she chose.
  await phone.getByRole('button', { name: '登 录' }).click();
  await expect(phone.getByTestId('user-menu')).toBeVisible();
  await expect(phone).toHaveURL(/\/home\/workbench/);

  // 4. The administrator finds her registration, its approval and her sign-in in 系统日志.
  await tablet.goto('/system/log');
  await expect(tablet.getByRole('heading', { name: '系统日志' })).toBeVisible();
  const rows = tablet.getByTestId('record-row');
  const detail = tablet.getByTestId('record-detail');
  await choose(tablet, 'filter-module', '注册');
  // Rows are told apart by their call, which the list shows whatever the filter's progress.
  const applied = rows.filter({ hasText: '/register/apply' }).first();
  await expect(applied).toContainText('新增');
  await applied.click();
  await expect(detail).toContainText(PHONE);
  // The password she chose is never stored, even in the log.
  await expect(detail).toContainText('"password": "******"');
  await expect(detail).not.toContainText(PASSWORD);
  await tablet.getByRole('button', { name: '关闭详情' }).click();

  await choose(tablet, 'filter-module', '人员审核');
  const approval = rows.filter({ hasText: '/sysUserPending/approve' }).first();
  await expect(approval).toContainText('审批');
  await expect(approval).toContainText('系统管理员');
  await approval.click();
  await expect(detail).toContainText('roleIds');
  await tablet.getByRole('button', { name: '关闭详情' }).click();

  await tablet.reload();
  await choose(tablet, 'filter-action', '登录');
  await tablet.getByTestId('filter-userName').fill(NAME);
  const signInRow = rows.filter({ hasText: NAME }).first();
  await expect(signInRow).toContainText('成功');
  await expect(rows.filter({ hasNotText: NAME })).toHaveCount(0);
  await shot(tablet, 'system-log-tablet');

  await phoneContext.close();
});
