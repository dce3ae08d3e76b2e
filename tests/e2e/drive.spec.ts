import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { apiFor, contextAction, menuEntries, openDrive, row, rowNames } from './drive-helpers';

/*
 * The drive, as a member of staff uses it (issue 3 "Tests"). Accounts used here and nowhere
 * else: staff03 (folders, dialogs, bin) and staff04 (views, menus, search); the offline spec
 * uses staff05.
 */

async function newFolder(page: Page, name: string) {
  await page.locator('[data-action="newFolder"]').click();
  const dialog = page.getByRole('dialog', { name: '新建文件夹' });
  await dialog.getByLabel('文件夹名称').fill(name);
  await dialog.getByLabel('文件夹名称').press('Enter');
  await expect(dialog).toBeHidden();
  await expect(row(page, name)).toBeVisible();
}

async function modalWidth(page: Page, name: string) {
  const box = await page.getByRole('dialog', { name }).boundingBox();
  return Math.round(box!.width);
}

test('a nested tree: create, rename, move and copy with the dialogs', async ({ page, request }) => {
  await signIn(page, 'staff03');
  await openDrive(page);
  const api = await apiFor(page, request);

  // 新建文件夹: validation with the spec's words, the counter, Enter submits.
  await page.locator('[data-action="newFolder"]').click();
  const create = page.getByRole('dialog', { name: '新建文件夹' });
  expect(await modalWidth(page, '新建文件夹')).toBe(550);
  await create.getByRole('button', { name: '确定' }).click();
  await expect(create.getByText('请输入文件夹名称')).toBeVisible();
  await create.getByLabel('文件夹名称').fill('a/b');
  await expect(create.getByText('3/255')).toBeVisible();
  await create.getByLabel('文件夹名称').press('Enter');
  await expect(create.getByText('文件夹名称不能包含以下字符')).toBeVisible();
  await create.getByLabel('文件夹名称').fill('馆藏档案');
  await create.getByLabel('文件夹名称').press('Enter');
  await expect(create).toBeHidden();
  await expect(page.getByText('文件夹创建成功')).toBeVisible();
  await newFolder(page, '展陈资料');
  // The server refuses a second folder of the same name; the dialog stays open with its words.
  await page.locator('[data-action="newFolder"]').click();
  await create.getByLabel('文件夹名称').fill('展陈资料');
  await create.getByRole('button', { name: '确定' }).click();
  await expect(create.getByRole('textbox')).toHaveAttribute('aria-invalid', 'true');
  await expect(create).toBeVisible();
  await create.getByRole('button', { name: '取消' }).click();
  await expect(create).toBeHidden();

  // Open a folder by double-click; create inside it from the blank-space menu.
  await row(page, '馆藏档案').dblclick();
  await expect(page.getByTestId('breadcrumb')).toContainText('馆藏档案');
  await expect(page).toHaveURL(/filePath=%2F%E9%A6%86%E8%97%8F%E6%A1%A3%E6%A1%88%2F/);
  expect(await menuEntries(page, 'blank')).toEqual(['新建文件夹', '新建文件', '上传文件', '刷新']);
  const browser = page.getByTestId('file-browser');
  const box = (await browser.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height - 20, { button: 'right' });
  await page.getByTestId('context-menu').getByRole('menuitem', { name: '新建文件夹' }).click();
  await create.getByLabel('文件夹名称').fill('青铜器');
  await create.getByLabel('文件夹名称').press('Enter');
  await expect(row(page, '青铜器')).toBeVisible();
  await newFolder(page, '瓷器');

  // 重命名文件: 550 px, prefilled, 请输入文件名称 on blur, the server's refusal stays in the dialog.
  await contextAction(page, '青铜器', '重命名');
  const rename = page.getByRole('dialog', { name: '重命名文件' });
  expect(await modalWidth(page, '重命名文件')).toBe(550);
  const field = rename.getByLabel('文件名称');
  await expect(field).toHaveValue('青铜器');
  await field.fill('');
  await field.blur();
  await expect(rename.getByText('请输入文件名称')).toBeVisible();
  await field.fill('瓷器');
  await rename.getByRole('button', { name: '确定' }).click();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(rename).toBeVisible();
  await field.fill('青铜器类');
  await rename.getByRole('button', { name: '确定' }).click();
  await expect(rename).toBeHidden();
  await expect(page.getByText('重命名成功')).toBeVisible();
  await expect(row(page, '青铜器类')).toBeVisible();
  await expect(row(page, '青铜器')).toHaveCount(0);

  // 移动到 (700 px): the folder tree; 瓷器 goes to 展陈资料.
  await contextAction(page, '瓷器', '移动到');
  const move = page.getByRole('dialog', { name: '移动到' });
  expect(await modalWidth(page, '移动到')).toBe(700);
  await move.locator('[data-path="/展陈资料/"]').click();
  await expect(move.getByTestId('move-target')).toHaveText('/展陈资料/');
  await move.getByRole('button', { name: '移动到此处' }).click();
  await expect(move).toBeHidden();
  await expect(page.getByText('移动成功')).toBeVisible();
  await expect(row(page, '瓷器')).toHaveCount(0);

  // A folder cannot go into itself: the dialog says so with the server's words.
  await page.getByTestId('breadcrumb').getByRole('button', { name: '全部文件' }).click();
  await contextAction(page, '馆藏档案', '移动到');
  await move.locator('[data-path="/馆藏档案/"]').click();
  await expect(move.getByText('原路径与目标路径冲突，不能移动')).toBeVisible();
  await expect(move.getByRole('button', { name: '移动到此处' })).toBeDisabled();
  await move.getByRole('button', { name: '取消' }).click();

  // 复制到: the whole subtree is copied into 展陈资料.
  await contextAction(page, '馆藏档案', '复制到');
  const copy = page.getByRole('dialog', { name: '复制到' });
  await copy.locator('[data-path="/展陈资料/"]').click();
  await copy.getByRole('button', { name: '复制到此处' }).click();
  await expect(copy).toBeHidden();
  await expect(page.getByText('复制成功')).toBeVisible();
  await row(page, '展陈资料').dblclick();
  // Names sort by pinyin: 瓷 (cí) before 馆 (guǎn).
  await expect.poll(() => rowNames(page)).toEqual(['瓷器', '馆藏档案']);
  await row(page, '馆藏档案').dblclick();
  await expect.poll(() => rowNames(page)).toEqual(['青铜器类']);

  // The server holds the same tree.
  expect(await api.names('/')).toEqual(['展陈资料', '馆藏档案']);
  expect(await api.names('/馆藏档案/')).toEqual(['青铜器类']);
  expect(await api.names('/展陈资料/')).toEqual(['瓷器', '馆藏档案']);
  expect(await api.names('/展陈资料/馆藏档案/')).toEqual(['青铜器类']);

  // 文件详情 in a folder view: no path (spec: fileType 0 hides it).
  await contextAction(page, '青铜器类', '文件详情');
  const detail = page.getByRole('dialog', { name: '文件详情' });
  await expect(detail.getByTestId('detail-table')).toContainText('文件夹');
  await expect(detail.getByTestId('detail-path')).toHaveCount(0);
  await detail.getByRole('button', { name: '关闭' }).click();
});

test('delete to the bin, restore, then delete permanently', async ({ page, request }) => {
  await signIn(page, 'staff03');
  const api = await apiFor(page, request);
  await api.mkdir('/', '待删除');
  await api.mkdir('/待删除/', '子文件夹');
  await openDrive(page);

  await contextAction(page, '待删除', '删除');
  const del = page.getByRole('dialog', { name: '删除文件' });
  await expect(del).toContainText('删除后可在回收站中还原');
  await expect(del).toContainText('文件夹中的全部内容会一并删除');
  await del.getByRole('button', { name: '删除' }).click();
  await expect(del).toBeHidden();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(row(page, '待删除')).toHaveCount(0);

  // The recycle bin lists the top item only, with its deletion time, and the bin's own menu.
  await page.getByTestId('side-menu').getByText('回收站').click();
  await expect(page).toHaveURL(/collection-depot\?fileType=6$/);
  await expect(row(page, '待删除')).toBeVisible();
  await expect(page.getByRole('columnheader', { name: /删除时间/ })).toBeVisible();
  expect(await rowNames(page)).toEqual(['待删除']);
  expect(await menuEntries(page, row(page, '待删除'))).toEqual(['还原', '永久删除', '文件详情']);
  expect(await menuEntries(page, 'blank')).toEqual(['刷新']);

  // 文件详情 in the bin: 原路径 and the deletion time.
  await contextAction(page, '待删除', '文件详情');
  const detail = page.getByRole('dialog', { name: '文件详情' });
  await expect(detail).toContainText('原路径');
  await expect(detail).toContainText('删除时间');
  await detail.getByRole('button', { name: '关闭' }).click();

  await contextAction(page, '待删除', '还原');
  const restore = page.getByRole('dialog', { name: '还原文件' });
  await restore.getByRole('button', { name: '还原' }).click();
  await expect(restore).toBeHidden();
  await expect(page.getByText('文件已还原')).toBeVisible();
  await expect(row(page, '待删除')).toHaveCount(0);
  expect(await api.names('/')).toContain('待删除');
  expect(await api.names('/待删除/')).toEqual(['子文件夹']);

  // Delete again, then permanently from the bin with the batch bar.
  await openDrive(page);
  await row(page, '待删除').locator('input[type="checkbox"]').check();
  await page.locator('[data-action="batch-delete"]').click();
  await page.getByRole('dialog', { name: '删除文件' }).getByRole('button', { name: '删除' }).click();
  await expect(row(page, '待删除')).toHaveCount(0);
  await openDrive(page, '/resources/collection-depot?fileType=6');
  await row(page, '待删除').locator('input[type="checkbox"]').check();
  await expect(page.getByTestId('selection-bar')).toContainText('已选 1 项');
  await page.locator('[data-action="batch-delete"]').click();
  const forever = page.getByRole('dialog', { name: '永久删除' });
  await expect(forever).toContainText('永久删除后无法恢复');
  await forever.getByRole('button', { name: '永久删除' }).click();
  await expect(forever).toBeHidden();
  await expect(page.getByText('回收站是空的')).toBeVisible();
  const bin = await api.get<{ total: number }>('/recoveryfile/list');
  expect(bin.data?.total).toBe(0);
  expect(await api.names('/')).not.toContain('待删除');
});

test('grid and list views, remembered after a reload', async ({ page, request }) => {
  await signIn(page, 'staff04');
  const api = await apiFor(page, request);
  await api.mkdir('/', '视图测试');
  await openDrive(page);
  await expect(row(page, '视图测试')).toBeVisible();

  await page.getByTestId('view-grid-80').click();
  await expect(page.getByTestId('file-browser')).toHaveAttribute('data-mode', 'grid');
  await expect(
    page.locator('[data-testid="file-cell"][data-name="视图测试"] [data-testid="file-icon"]').first(),
  ).toHaveAttribute('width', '80');
  await page.reload();
  await expect(page.getByTestId('file-browser')).toHaveAttribute('data-mode', 'grid');

  await page.getByTestId('view-grid-50').click();
  await page.reload();
  await expect(
    page.locator('[data-testid="file-cell"][data-name="视图测试"] [data-testid="file-icon"]').first(),
  ).toHaveAttribute('width', '50');

  await page.getByTestId('view-list').click();
  await page.reload();
  await expect(page.getByTestId('file-browser')).toHaveAttribute('data-mode', 'list');
  await expect(row(page, '视图测试')).toBeVisible();
});

test('context menus follow the spec table in each view', async ({ page, request }) => {
  await signIn(page, 'staff04');
  const api = await apiFor(page, request);
  await api.mkdir('/', '菜单测试');
  await api.mkdir('/', '其他资源测试', { fileType: 9, isAdmin: 1 });

  // fileType 0: everything but restore, unzip (not an archive) and copy link.
  await openDrive(page);
  expect(await menuEntries(page, row(page, '菜单测试'))).toEqual([
    '打开',
    '下载',
    '分享',
    '复制到',
    '移动到',
    '移动到项目',
    '重命名',
    '删除',
    '文件详情',
  ]);
  expect(await menuEntries(page, 'blank')).toEqual(['新建文件夹', '新建文件', '上传文件', '刷新']);
  // Menu entries are 36 px high (spec §9).
  await row(page, '菜单测试').click({ button: 'right' });
  const item = page.getByTestId('context-menu').getByRole('menuitem').first();
  expect(Math.round((await item.boundingBox())!.height)).toBe(36);
  await page.keyboard.press('Escape');

  // fileType 9, read-only view: download and details only; blank space only refreshes.
  await openDrive(page, '/resources/other-resource?fileType=9&filePath=/');
  expect(await menuEntries(page, row(page, '其他资源测试'))).toEqual(['下载', '文件详情']);
  expect(await menuEntries(page, 'blank')).toEqual(['刷新']);
  await expect(page.locator('[data-action="newFolder"]')).toHaveCount(0);

  // fileType 9, administrator view (isAdmin=1): delete too, and creating.
  await openDrive(page, '/resources/other-resource-management?isAdmin=1');
  expect(await menuEntries(page, row(page, '其他资源测试'))).toEqual(['下载', '永久删除', '文件详情']);
  expect(await menuEntries(page, 'blank')).toEqual(['新建文件夹', '新建文件', '上传文件', '刷新']);

  // fileType 6: restore, delete, details.
  await openDrive(page);
  await contextAction(page, '菜单测试', '删除');
  await page.getByRole('dialog', { name: '删除文件' }).getByRole('button', { name: '删除' }).click();
  await openDrive(page, '/resources/collection-depot?fileType=6');
  expect(await menuEntries(page, row(page, '菜单测试'))).toEqual(['还原', '永久删除', '文件详情']);

  // 上传文件, from the toolbar or the blank-space menu, opens the upload panel.
  await openDrive(page);
  await page.locator('[data-action="upload"]').click();
  await expect(page.getByTestId('upload-panel')).toBeVisible();
  await page.getByTestId('upload-panel').getByRole('button', { name: '关闭上传面板' }).click();
  await expect(page.getByTestId('upload-panel')).toBeHidden();
  await page.getByTestId('file-browser').click({ button: 'right', position: { x: 200, y: 300 } });
  await page.getByTestId('context-menu').getByRole('menuitem', { name: '上传文件' }).click();
  await expect(page.getByTestId('upload-panel')).toBeVisible();
});

test('a long press opens the menu on a touch screen', async ({ browser, request }) => {
  const context = await browser.newContext({ hasTouch: true, viewport: { width: 768, height: 1024 } });
  const page = await context.newPage();
  await signIn(page, 'staff04');
  const api = await apiFor(page, request);
  await api.mkdir('/', '长按测试');
  await openDrive(page);
  const box = (await row(page, '长按测试').boundingBox())!;
  const cdp = await context.newCDPSession(page);
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await page.waitForTimeout(700);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  const menu = page.getByTestId('context-menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: '重命名' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  // The long press selected the row (selection mode, where a tap toggles); leave that mode.
  await page.getByTestId('file-browser').press('Escape');
  await expect(row(page, '长按测试')).not.toHaveAttribute('aria-selected', 'true');

  // A tap opens the folder (touch: no double tap needed).
  await row(page, '长按测试').tap();
  await expect(page.getByTestId('breadcrumb')).toContainText('长按测试');
  await context.close();
});

test('search highlights hits and a hit opens its folder', async ({ page, request }) => {
  await signIn(page, 'staff04');
  const api = await apiFor(page, request);
  await api.mkdir('/', '搜索测试');
  await api.mkdir('/搜索测试/', '青花瓷瓶记录');
  await api.mkdir('/', '粉彩青花对照');
  await openDrive(page);

  await page.getByTestId('drive-search').fill('青花');
  await expect(page.getByTestId('search-summary')).toContainText('共 2 项');
  const hit = row(page, '青花瓷瓶记录');
  await expect(hit.locator('mark')).toHaveText('青花');
  await expect(hit).toContainText('/搜索测试/');
  await expect(row(page, '粉彩青花对照').locator('mark')).toHaveText('青花');

  await hit.dblclick();
  await expect(page.getByTestId('breadcrumb')).toContainText('搜索测试');
  await expect(row(page, '青花瓷瓶记录')).toHaveAttribute('data-focused', 'true');
  await expect(page.getByTestId('drive-search')).toHaveValue('');
});
