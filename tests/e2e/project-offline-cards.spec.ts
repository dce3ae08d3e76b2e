import { expect, test, type Page } from '@playwright/test';
import { waitForServiceWorker } from './drive-helpers';
import { signIn, tokenOf } from './helpers';

/**
 * Issue 17 §3, boards really usable offline: 刘洋 opens a project's board online and never opens
 * its cards; in the storeroom (offline, app reopened) every open card opens with its fields,
 * subtasks, comments and history, and a subtask ticked there waits as 待同步 and reaches the
 * server once when the network returns. A card whose comments and history are not on the device
 * says so instead of claiming 暂无评论 / 暂无动态.
 */

// The service worker opens the app again after a reload offline.
test.use({ serviceWorkers: 'allow' });
// Two offline reloads with the service worker on a loaded machine.
test.setTimeout(120_000);

async function call<T>(page: Page, token: string, path: string, data: unknown): Promise<T> {
  const res = await (await page.request.post(`/singleMuseum${path}`, { headers: { token }, data })).json();
  expect(res.success, JSON.stringify(res)).toBe(true);
  return res.result as T;
}

/** Drops device rows whose key contains `needle` (as the view budget would prune them). */
async function dropDeviceRows(page: Page, needle: string) {
  await page.evaluate(async (n) => {
    for (const info of await indexedDB.databases()) {
      if (!info.name?.startsWith('gwy-')) continue;
      const db = await new Promise<IDBDatabase>((ok, fail) => {
        const r = indexedDB.open(info.name!);
        r.onsuccess = () => ok(r.result);
        r.onerror = () => fail(r.error);
      });
      const tx = db.transaction('cache', 'readwrite');
      const store = tx.objectStore('cache');
      const keys = await new Promise<IDBValidKey[]>((ok) => {
        const r = store.getAllKeys();
        r.onsuccess = () => ok(r.result);
      });
      for (const k of keys) if (String(k).includes(n)) store.delete(k);
      await new Promise((ok) => (tx.oncomplete = ok));
      db.close();
    }
  }, needle);
}

test('every open card of a board read online opens offline; a tick there replays once', async ({ page }) => {
  const stamp = Date.now().toString(36);
  await signIn(page, 'staff05');
  await waitForServiceWorker(page);
  const token = await tokenOf(page);
  const { projectId } = await call<{ projectId: number }>(page, token, '/project/add', {
    name: `库房盘点${stamp}`,
    type: 'other',
  });
  const board = await (
    await page.request.get(`/singleMuseum/project/board?projectId=${projectId}`, { headers: { token } })
  ).json();
  const blockId = board.result.blocks[0].blockId as number;
  const a = await call<{ taskId: number }>(page, token, '/projectTask/addProjectTask', {
    taskName: '核对账册',
    blockId,
    deadline: '2030-01-02',
  });
  await call(page, token, '/projectTask/addKidTask', { parentId: a.taskId, taskName: '第一柜' });
  await call(page, token, '/projectTask/addProjectConmentsList', {
    ownerId: a.taskId,
    commentContent: '<p>请戴手套</p>',
  });
  const b = await call<{ taskId: number }>(page, token, '/projectTask/addProjectTask', {
    taskName: '清点铜镜',
    blockId,
  });

  // Online: the board only; its open cards are kept on the device with it.
  await page.goto(`/project/sub?projectId=${projectId}`);
  await expect(page.getByTestId('task-card')).toHaveCount(2);
  await expect(page.getByTestId('cards-cached')).toHaveText('本机已缓存 2 张未完成卡片，可离线打开', {
    timeout: 20_000,
  });

  // The storeroom: no network, the app reopened.
  await page.context().setOffline(true);
  await page.reload();
  await expect(page.getByTestId('offline-mark').first()).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('task-card').filter({ hasText: '核对账册' }).getByText('核对账册').click();
  const dialog = page.getByTestId('task-dialog');
  await expect(dialog.getByRole('textbox', { name: '任务标题' })).toHaveValue('核对账册');
  await expect(dialog.getByText('该内容尚未离线缓存')).toHaveCount(0);
  await expect(dialog.getByRole('checkbox', { name: '第一柜' })).not.toBeChecked();
  await expect(dialog.getByTestId('comment')).toContainText('请戴手套');
  await expect(dialog.getByTestId('task-history')).toContainText('刘洋 添加了子任务「第一柜」');
  await expect(dialog.getByTestId('task-history')).toContainText('创建了任务「核对账册」');
  await expect(dialog.getByText('暂无评论')).toHaveCount(0);

  // Tick the subtask: shown at once as 待同步; the server has nothing yet.
  await dialog.getByRole('checkbox', { name: '第一柜' }).click();
  await expect(dialog.getByRole('checkbox', { name: '第一柜' })).toBeChecked();
  await expect(dialog.getByTestId('subtask').filter({ hasText: '第一柜' })).toContainText('待同步');
  const before = await call<{ kidsTasks: { collectStatus: number }[] }>(
    page,
    token,
    '/projectTask/getProjectTask',
    { taskId: a.taskId },
  );
  expect(before.kidsTasks[0]!.collectStatus).toBe(1);

  // Back online: it replays once.
  await page.context().setOffline(false);
  await expect(dialog.getByTestId('sync-pending')).toBeHidden({ timeout: 20_000 });
  await expect(dialog.getByTestId('task-refused')).toBeHidden();
  const after = await call<{ kidsTasks: { collectStatus: number }[] }>(
    page,
    token,
    '/projectTask/getProjectTask',
    {
      taskId: a.taskId,
    },
  );
  expect(after.kidsTasks[0]!.collectStatus).toBe(2);
  const history = await call<{ actionDescription: string }[]>(
    page,
    token,
    '/projectTask/getProjectHistoryList',
    {
      taskId: a.taskId,
    },
  );
  expect(history.filter((h) => h.actionDescription === '完成了子任务「第一柜」')).toHaveLength(1);

  // A card whose comments and history the device no longer holds: it says so, never 暂无.
  // Offline first, so no refresh of the board's copy can put them back meanwhile.
  await page.context().setOffline(true);
  await dropDeviceRows(page, `"comments",${b.taskId}`);
  await dropDeviceRows(page, `"history",${b.taskId}`);
  await page.goto(`/project/sub?projectId=${projectId}&taskId=${b.taskId}`);
  await expect(page.getByTestId('offline-mark').first()).toBeVisible({ timeout: 20_000 });
  await expect(dialog.getByRole('textbox', { name: '任务标题' })).toHaveValue('清点铜镜');
  await expect(dialog.getByTestId('comments-state')).toHaveText(
    '当前离线，本机没有这张卡片的评论，联网后自动加载',
  );
  await expect(dialog.getByTestId('history-state')).toHaveText(
    '当前离线，本机没有这张卡片的动态，联网后自动加载',
  );
  await expect(dialog.getByText('暂无评论')).toHaveCount(0);
  await expect(dialog.getByText('暂无动态')).toHaveCount(0);
  // Back online they load by themselves.
  await page.context().setOffline(false);
  await expect(dialog.getByTestId('history-state')).toHaveCount(0, { timeout: 20_000 });
  await expect(dialog.getByTestId('task-history')).toContainText('创建了任务「清点铜镜」');
  await expect(dialog.getByTestId('comments-state')).toHaveText('暂无评论');
});
