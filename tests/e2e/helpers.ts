import { expect, type Page } from '@playwright/test';

export const ADMIN_PASSWORD = 'Admin@12345';
export const DEMO_PASSWORD = 'Demo@2026';

/** Signs in through the login page, as a person would, and waits for the shell. */
export async function signIn(
  page: Page,
  username: string,
  password = username === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD,
) {
  await page.goto('/login');
  await page.getByLabel('账号或手机号').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登 录' }).click();
  await expect(page.getByTestId('user-menu')).toBeVisible();
}

/** The rail's module titles, in order. */
export async function railModules(page: Page): Promise<string[]> {
  return page.getByTestId('module-rail').locator('button').allInnerTexts();
}

export async function tokenOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'token');
  if (!cookie) throw new Error('no token cookie');
  return cookie.value;
}
