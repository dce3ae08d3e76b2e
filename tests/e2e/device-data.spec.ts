import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { apiFor, openDrive, row } from './drive-helpers';

// Needs the service worker (offline reloads, Background Sync, the device's copies).
test.use({ serviceWorkers: 'allow' });

/*
 * Museum tablets are shared: signing out removes the person's offline copy from the device,
 * unless offline changes are still waiting to sync — those are kept, said so, and replayed at
 * the next sign-in. Account: director (used by no other spec).
 */

async function offlineDatabases(page: Page): Promise<string[]> {
  return page.evaluate(async () =>
    (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith('gwy-')),
  );
}

async function signOutVia(page: Page, expectText: string) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await expect(page.getByRole('dialog')).toContainText(expectText);
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page).toHaveURL(/\/login/);
  // The sign-in page's own document (login.html) when it can load, else the app's 当前离线 page.
  await expect(page.getByTestId('login-page').or(page.getByTestId('signed-out-offline'))).toBeVisible();
}

test('signing out clears the offline copy, but keeps unsynced changes until they are sent', async ({
  page,
  context,
  request,
}) => {
  await signIn(page, 'director');
  const api = await apiFor(page, request);
  await api.mkdir('/', '社教活动');
  await openDrive(page);
  await expect(row(page, '社教活动')).toBeVisible();
  expect(await offlineDatabases(page)).toHaveLength(1);

  await signOutVia(page, '本机缓存的离线内容将一并清除');
  expect(await offlineDatabases(page)).toEqual([]);

  // An offline change is kept through sign-out and reaches the server after the next sign-in.
  await signIn(page, 'director');
  await openDrive(page);
  await expect(row(page, '社教活动')).toBeVisible();
  await context.setOffline(true);
  await page.locator('[data-action="newFolder"]').click();
  const dialog = page.getByRole('dialog', { name: '新建文件夹' });
  await dialog.getByLabel('文件夹名称').fill('离线新建');
  await dialog.getByLabel('文件夹名称').press('Enter');
  await expect(dialog).toBeHidden();
  await signOutVia(page, '还有 1 项离线修改或上传尚未完成');
  expect(await offlineDatabases(page)).toHaveLength(1);
  // Offline, the sign-in page shows 当前离线 (from the worker's copy, or, before the worker has
  // kept it, from the app), and can be used once the network returns.
  await expect(page.getByText('当前离线，无法登录。请连接网络后重试。')).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByRole('button', { name: '登 录' })).toBeEnabled({ timeout: 15_000 });
  await signIn(page, 'director');
  const again = await apiFor(page, request); // the first session ended at sign-out
  await expect
    .poll(async () => (await again.list('/')).map((e) => e.fileName).sort(), { timeout: 15_000 })
    .toEqual(['社教活动', '离线新建']);
});
