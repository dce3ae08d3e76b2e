import { expect, test } from '@playwright/test';
import { railModules, signIn } from './helpers';

test.describe('sign-in, rail and navigation', () => {
  test('an information officer sees exactly their modules, navigates and logs out', async ({ page }) => {
    await signIn(page, 'staff09');
    await expect(page).toHaveURL(/\/home\/workbench$/);
    expect(await railModules(page)).toEqual([
      '工作台',
      '办公行政',
      '图书借阅',
      '数字资源',
      '小程序管理',
      '官网建设',
      '英文网站',
      '系统管理',
    ]);
    await expect(page.getByTestId('current-user-name')).toHaveText('郑凯');

    // A built module: system management opens its first page, the staff list.
    await page.locator('[data-module="system"]').click();
    await expect(page).toHaveURL(/\/staff\/person$/);
    await expect(page.getByTestId('side-menu')).toContainText('角色设置');
    await expect(page.getByRole('cell', { name: 'director' })).toBeVisible();

    await page.getByTestId('side-menu').getByText('角色设置').click();
    await expect(page).toHaveURL(/\/staff\/role\/setting$/);
    await expect(page.getByText('超级管理员').first()).toBeVisible();

    // Clicking the same module again folds its panel; once more unfolds it.
    await page.locator('[data-module="system"]').click();
    await expect(page.getByTestId('module-panel')).toHaveCount(0);
    await page.locator('[data-module="system"]').click();
    await expect(page.getByTestId('module-panel')).toBeVisible();

    // The mini-program's module opens its first page, the guide's tree (issue 23). Every route
    // has a page since issue 24 (catalogue-walk.spec.ts).
    await page.locator('[data-module="applet"]').click();
    await expect(page).toHaveURL(/\/applet-management\/guide$/);
    await expect(page.getByRole('heading', { name: '导览内容' })).toBeVisible();
    await expect(page.getByTestId('page-building')).toHaveCount(0);

    // The workbench entry collapses the panel and goes to / (the workbench).
    await page.locator('[data-module="home"]').click();
    await expect(page).toHaveURL(/\/home\/workbench$/);
    await expect(page.getByTestId('module-panel')).toHaveCount(0);

    // Redirect routes of the spec.
    await page.goto('/staff');
    await expect(page).toHaveURL(/\/staff\/person$/);

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.getByRole('button', { name: '确定' }).click();
    await expect(page).toHaveURL(/\/login/);
    await page.goto('/home/workbench');
    await expect(page).toHaveURL(/\/login/);
  });

  test('an employee without a role gets the default role', async ({ page }) => {
    await signIn(page, 'staff02');
    expect(await railModules(page)).toEqual(['工作台', '办公行政', '图书借阅', '数字资源']);
    await page.locator('[data-module="resources"]').click();
    await expect(page).toHaveURL(/\/resources\/net-disk\?fileType=0$/);
    await expect(page.getByTestId('side-menu')).toContainText('回收站');
  });

  test('the administrator sees all thirteen modules', async ({ page }) => {
    await signIn(page, 'admin');
    expect(await railModules(page)).toHaveLength(13);
  });

  test('a route outside the role shows 无权限, an unknown one 页面不存在', async ({ page }) => {
    await signIn(page, 'staff02');
    await page.goto('/staff/person');
    await expect(page.getByTestId('page-forbidden')).toContainText('无权限');
    await page.goto('/no/such/page');
    await expect(page.getByTestId('page-not-found')).toBeVisible();
  });

  test('anonymous users are sent to the login page and back after sign-in', async ({ page }) => {
    await page.goto('/resources/net-disk?fileType=0');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await page.getByLabel('账号或手机号').fill('staff02');
    await page.getByLabel('密码', { exact: true }).fill('Demo@2026');
    await page.getByRole('button', { name: '登 录' }).click();
    await expect(page).toHaveURL(/\/resources\/net-disk\?fileType=0$/);
  });
});
