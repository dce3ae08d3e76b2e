import { expect, test } from '@playwright/test';
import { signIn, tokenOf } from './helpers';

test('wrong password, then throttling, with clear Chinese messages', async ({ page }) => {
  await page.goto('/login');
  const user = page.getByLabel('账号或手机号');
  const pass = page.getByLabel('密码', { exact: true });
  const submit = page.getByRole('button', { name: '登 录' });
  await user.fill('staff06');
  for (let left = 4; left >= 1; left--) {
    await pass.fill('wrong-pass1');
    await submit.click();
    await expect(page.getByTestId('login-error')).toHaveText(`账号或密码错误，还可尝试 ${left} 次`);
  }
  await pass.fill('wrong-pass1');
  await submit.click();
  await expect(page.getByTestId('login-error')).toContainText('登录失败次数过多，请 30 秒后再试');
  // Even the right password waits out the delay.
  await pass.fill('Demo@2026');
  await submit.click();
  await expect(page.getByTestId('login-error')).toContainText('登录失败次数过多');
  await expect(page).toHaveURL(/\/login/);
});

test('empty fields are caught before sending', async ({ page }) => {
  await page.goto('/login');
  const user = page.getByLabel('账号或手机号');
  const pass = page.getByLabel('密码', { exact: true });
  await page.getByRole('button', { name: '登 录' }).click();
  await expect(page.getByText('请输入账号或手机号')).toBeVisible();
  await expect(page.getByText('请输入密码')).toBeVisible();
  // Each message belongs to its field, the first empty one has the focus, and typing clears it.
  await expect(user).toHaveAttribute('aria-invalid', 'true');
  await expect(user).toHaveAccessibleDescription('请输入账号或手机号');
  await expect(user).toBeFocused();
  await user.fill('staff05');
  await expect(page.getByText('请输入账号或手机号')).toBeHidden();
  await expect(pass).toHaveAttribute('aria-invalid', 'true');
  // The eye shows the password as typed, for a tablet's on-screen keyboard, and hides it again.
  await pass.fill('Demo@2026');
  const eye = page.getByRole('button', { name: '显示或隐藏密码' });
  await eye.click();
  await expect(pass).toHaveAttribute('type', 'text');
  await expect(eye).toHaveAttribute('aria-pressed', 'true');
  await eye.click();
  await expect(pass).toHaveAttribute('type', 'password');
});

test('an expired session shows 登录超时 and returns to sign-in', async ({ page, request }) => {
  await signIn(page, 'admin');
  // The workbench's cards load on their own (今日讲解场次 last, its code lazily); once they have,
  // the first call after the logout is the click's. A card still loading would meet the ended
  // session first and show the same dialog before the click, which the click then cannot reach.
  const today = page.getByTestId('volunteer-today');
  await expect(
    today.getByTestId('volunteer-today-summary').or(today.getByText('今日没有讲解场次')),
  ).toBeVisible();
  // 今日预约 (reservation managers) loads lazily too.
  await expect(page.getByTestId('reservation-today-loaded')).toBeVisible();
  // End the session on the server, as expiry or an administrator would.
  const res = await request.post('/singleMuseum/login/logout', { headers: { token: await tokenOf(page) } });
  expect(res.status()).toBe(200);
  // The click's call meets the ended session; so may a background call that comes first (a
  // refetch, the live stream reconnecting), and then the dialog is already over the rail and
  // the click cannot land. Either way the person sees 登录超时.
  const expired = page.getByText('登录超时，请重新登录');
  await page
    .locator('[data-module="system"]')
    .click({ timeout: 10_000 })
    .catch(async (err: unknown) => {
      if (!(await expired.isVisible())) throw err;
    });
  await expect(expired).toBeVisible();
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByTestId('login-page')).toBeVisible();
});

test('signing out offline, before the device has kept the sign-in page, says 当前离线 and opens it once back', async ({
  page,
  context,
}) => {
  // This lane blocks service workers: the sign-in page's document cannot load offline here, as
  // on a first visit whose worker has not installed yet.
  await signIn(page, 'admin');
  await context.setOffline(true);
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await page.getByRole('button', { name: '确定' }).click();
  const offline = page.getByTestId('signed-out-offline');
  await expect(offline).toContainText('当前离线，无法登录。请连接网络后重试。');
  await expect(page).toHaveURL(/\/login$/);
  // 重试 while still offline keeps the page (no browser error page).
  await offline.getByRole('button', { name: '重试' }).click();
  await expect(offline.getByRole('button', { name: '重试' })).toBeEnabled();
  await expect(offline).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByTestId('login-page')).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole('button', { name: '登 录' })).toBeEnabled();
});
