import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { driveApi, openDrive, row, waitForServiceWorker } from './drive-helpers';
import { signIn } from './helpers';
import { docxText, zipPart } from './office-helpers';
import { createDriveUser } from './users';

/** The editors are multi-megabyte chunks: on a loaded two-core CI machine their first load is slow. */
const EDITOR_LOAD = 30_000;

/*
 * Editing office documents in the browser with no Document Server (issue 17 §1), in real
 * Chromium against the real server: a real workbook's cell and formula edited and saved (the
 * server recomputes nothing: the results are the page's), what the editor would drop named
 * before saving, a save made offline that waits in the outbox across a reload and lands once,
 * and the Word editor on a phone. The fixtures are LibreOffice's (tests/fixtures/office).
 */

const FIXTURES = path.resolve('tests/fixtures/office');

async function freshPerson(page: Page, request: Parameters<typeof createDriveUser>[0]) {
  const user = await createDriveUser(request, { prefix: 'oe' });
  await signIn(page, user.account, user.password);
  return { user, api: driveApi(request, user.token) };
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** The grid of fortune-sheet: cells are drawn on a canvas, so they are reached as a person does. */
function grid(page: Page) {
  const area = page.locator('.fortune-cell-area');
  const nameBox = page.locator('.fortune-name-box');
  return {
    nameBox,
    formulaBar: page.locator('.fortune-fx-input'),
    /** Selects `address` from A1 with the arrow keys, and checks it got there. */
    async select(address: string) {
      const m = /^([A-Z])(\d+)$/.exec(address)!;
      await area.click({ position: { x: 8, y: 8 } });
      await expect(nameBox).toHaveText('A1');
      // From the (merged) first row down, then right.
      for (let r = 1; r < Number(m[2]); r++) await page.keyboard.press('ArrowDown');
      for (let c = 0; c < m[1]!.charCodeAt(0) - 65; c++) await page.keyboard.press('ArrowRight');
      await expect(nameBox).toHaveText(address);
    },
    /** Types over the selected cell (double-click edits, as a person would), Enter commits. */
    async type(text: string) {
      const box = (await page.locator('.luckysheet-cell-selected').first().boundingBox())!;
      await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
      const input = page.locator('.luckysheet-cell-input');
      await expect(input).toBeFocused();
      await page.keyboard.press('Control+a');
      await page.keyboard.press('Backspace');
      await page.keyboard.type(text);
      await page.keyboard.press('Enter');
    },
  };
}

async function download(page: Page, token: string, id: number): Promise<Buffer> {
  const res = await page.request.get(`/wangpan/filetransfer/downloadfile?userFileId=${id}`, {
    headers: { token },
  });
  expect(res.ok()).toBe(true);
  return res.body();
}

async function workbook(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  return wb;
}

test('a real workbook: a cell and a formula edited and saved; the server holds them, every total right', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const { user, api } = await freshPerson(page, request);
  const { userFileId: id } = await api.put(
    '/',
    '藏品清单.xlsx',
    fs.readFileSync(path.join(FIXTURES, 'inventory.xlsx')),
  );
  await openDrive(page);
  await row(page, '藏品清单.xlsx').dblclick();
  await expect(page).toHaveURL(/\/onlyoffice\?.*ot=edit/);
  await expect(page.getByTestId('xlsx-editor')).toBeVisible({ timeout: EDITOR_LOAD });
  await expect(page.getByTestId('office-save')).toBeEnabled();

  const g = grid(page);
  await g.select('B4');
  await expect(g.formulaBar).toHaveText('商代铜鼎');
  await g.type('商代青铜鼎');
  await g.select('D4');
  await g.type('3800000');
  await g.select('A9');
  await g.type('最高估值');
  await g.select('D9');
  await g.type('=MAX(D3:D6)');
  await g.select('D9');
  await expect(g.formulaBar).toHaveText('=MAX(D3:D6)');
  await expect(page.getByTestId('office-save-status')).toHaveText('有未保存的修改');

  await page.getByTestId('office-save').click();
  await expect(page.getByTestId('office-save-status')).toHaveText(/^已保存 \d{2}:\d{2}$/);
  await shot(page, testInfo, 'excel-editor-tablet');

  // On the server: the edits, the totals that depend on them (on both sheets), the rest intact.
  const wb = await workbook(await download(page, user.token, id));
  const ws = wb.getWorksheet('藏品清单')!;
  expect(ws.getCell('B4').value).toBe('商代青铜鼎');
  expect(ws.getCell('D4').value).toBe(3800000);
  expect(ws.getCell('D4').numFmt).toBe('#,##0.00');
  expect(ws.getCell('A9').value).toBe('最高估值');
  expect(ws.getCell('D9').value).toEqual({ formula: 'MAX(D3:D6)', result: 3800000 });
  expect(ws.getCell('D7').value).toEqual({ formula: 'SUM(D3:D6)', result: 5630001.25 });
  expect(wb.getWorksheet('统计')!.getCell('B2').value).toEqual({
    formula: 'AVERAGE(藏品清单!D3:D6)',
    result: 1407500.3125,
  });
  expect(ws.model.merges).toEqual(['A1:E1']);
  expect(ws.getCell('C3').value).toEqual(new Date('2019-03-12T00:00:00.000Z'));
  expect(ws.getCell('C3').numFmt).toBe('yyyy-mm-dd');
  expect(ws.getCell('B3').value).toBe('青花瓷瓶');

  // A row inserted above the first item (fortune-sheet compiles no code for it: the CSP has no
  // unsafe-eval); the formulas on both sheets follow the rows.
  await g.select('A3');
  const at = (await page.locator('.luckysheet-cell-selected').first().boundingBox())!;
  await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2, { button: 'right' });
  await page
    .locator('.luckysheet-cols-menuitem')
    .filter({ hasText: '向上插入' })
    .click({ position: { x: 20, y: 12 } });
  await expect(page.getByTestId('office-save-status')).toHaveText('有未保存的修改');
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('office-save-status')).toHaveText(/^已保存 \d{2}:\d{2}$/);
  const shifted = await workbook(await download(page, user.token, id));
  const list = shifted.getWorksheet('藏品清单')!;
  expect(list.getCell('A3').value).toBeNull();
  expect(list.getCell('A4').value).toBe('GW-001');
  expect(list.getCell('D8').value).toEqual({ formula: 'SUM(D4:D7)', result: 5630001.25 });
  expect(shifted.getWorksheet('统计')!.getCell('B2').value).toEqual({
    formula: 'AVERAGE(藏品清单!D4:D7)',
    result: 1407500.3125,
  });
});

test('what the editor cannot keep is named before saving; 另存为新文件 leaves the original whole', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const { user, api } = await freshPerson(page, request);
  const original = fs.readFileSync(path.join(FIXTURES, 'features.xlsx'));
  const { userFileId: id } = await api.put('/', '借展.xlsx', original);
  await page.goto(`/onlyoffice?userFileId=${id}&fileName=借展&extendName=xlsx&filePath=/&ot=edit`);
  await expect(page.getByTestId('xlsx-editor')).toBeVisible({ timeout: EDITOR_LOAD });
  const g = grid(page);
  await g.select('A5');
  await g.type('玉琮');
  await page.getByTestId('office-save').click();

  const dialog = page.getByRole('dialog', { name: '保存后以下内容将丢失' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('office-loss-list')).toHaveText('图表（1 处）');
  await expect(dialog.getByRole('link', { name: '下载原文件' })).toHaveAttribute(
    'href',
    `/wangpan/filetransfer/downloadfile?userFileId=${id}`,
  );
  await shot(page, testInfo, 'loss-warning-tablet');
  // 取消 saves nothing.
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('office-save-status')).toHaveText('有未保存的修改');
  expect(await download(page, user.token, id)).toEqual(original);

  await page.getByTestId('office-save').click();
  await dialog.getByRole('button', { name: '另存为新文件' }).click();
  await expect(page.getByText('已另存为“借展（修改稿）.xlsx”，原文件保持不变')).toBeVisible();
  await expect(page.getByTestId('office-title')).toHaveText('借展（修改稿）.xlsx');
  expect(await api.names('/')).toEqual(['借展.xlsx', '借展（修改稿）.xlsx']);
  // The original still has its chart; the copy has the edit (and no chart).
  expect(await download(page, user.token, id)).toEqual(original);
  const copy = await api.find('/', '借展（修改稿）');
  const copyBytes = await download(page, user.token, copy.userFileId);
  expect((await workbook(copyBytes)).worksheets[0]!.getCell('A5').value).toBe('玉琮');
  expect(await zipPart(copyBytes, 'xl/charts/chart1.xml')).toBeNull();
  // The copy opened for editing: saving it again warns no more (it holds no chart to lose).
  await expect(page.getByTestId('xlsx-editor')).toBeVisible({ timeout: EDITOR_LOAD });
  await g.select('A6');
  await g.type('青铜爵');
  await page.getByTestId('office-save').click();
  await expect(page.getByTestId('office-save-status')).toHaveText(/^已保存/);
  await expect(dialog).toBeHidden();
  expect(
    (await workbook(await download(page, user.token, copy.userFileId))).worksheets[0]!.getCell('A6').value,
  ).toBe('青铜爵');
});

test.describe('offline', () => {
  // The reload while offline needs the service worker (the app shell from its precache).
  test.use({ serviceWorkers: 'allow' });

  test('a save made offline waits in the outbox across a reload and lands once when the network returns', async ({
    page,
    context,
    request,
  }, testInfo) => {
    test.setTimeout(150_000);
    const { user, api } = await freshPerson(page, request);
    const made = await api.post<{ userFileId: number }>('/office/createofficefile', {
      extendName: 'docx',
      filePath: '/',
      fileName: '值班记录',
    });
    const id = made.data!.userFileId;
    const blank = await download(page, user.token, id);
    await waitForServiceWorker(page);
    await page.goto(`/onlyoffice?userFileId=${id}&fileName=值班记录&extendName=docx&filePath=/&ot=edit`);
    const doc = page.locator('.paged-editor__pages');
    await expect(doc).toBeVisible({ timeout: EDITOR_LOAD });
    await expect(page.getByTestId('office-save')).toBeEnabled();

    await context.setOffline(true);
    await doc.click({ position: { x: 200, y: 120 } });
    await page.keyboard.type('库房温湿度正常');
    await page.getByTestId('office-save').click();
    const status = page.getByTestId('office-save-status');
    await expect(status).toHaveText('已保存在本机，联网后自动同步');
    await expect(page.getByTestId('outbox-button')).toContainText('待同步 1');
    await shot(page, testInfo, 'offline-save-tablet');

    // The bytes live in IndexedDB: a reload (still offline) finds the save waiting.
    await page.reload();
    await expect(page.getByTestId('office-message')).toHaveText('当前离线，无法打开文档，请联网后重试');
    await expect(page.getByTestId('outbox-button')).toContainText('待同步 1');
    await page.getByTestId('outbox-button').click();
    const item = page.getByTestId('outbox-item');
    await expect(item).toHaveCount(1);
    await expect(item).toContainText('保存文档“值班记录.docx”');
    await expect(item).toHaveAttribute('data-status', 'pending');
    await page.keyboard.press('Escape');
    expect(await download(page, user.token, id)).toEqual(blank);

    // Back online: sent once, the queue empties, the server has the text and no copy.
    await context.setOffline(false);
    await expect(page.getByTestId('outbox-button')).toHaveCount(0, { timeout: 30_000 });
    expect(await docxText(await download(page, user.token, id))).toBe('库房温湿度正常');
    expect(await api.names('/')).toEqual(['值班记录.docx']);
    // The page reopens the saved document.
    await page.reload();
    await expect(page.locator('.paged-editor__pages')).toContainText('库房温湿度正常', {
      timeout: EDITOR_LOAD,
    });
  });
});

test('on a phone (390 × 844) a Word document opens fitted to the screen, and typing saves', async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await context.newPage();
    const { user, api } = await freshPerson(page, request);
    const { userFileId: id } = await api.put(
      '/',
      '年度报告.docx',
      fs.readFileSync(path.join(FIXTURES, 'report.docx')),
    );
    await page.goto(`/onlyoffice?userFileId=${id}&fileName=年度报告&extendName=docx&filePath=/&ot=edit`);
    const doc = page.locator('.paged-editor__pages');
    await expect(doc).toContainText('馆藏文物保护年度报告', { timeout: EDITOR_LOAD });
    // The page fits the screen: nothing of it is cut off to the right.
    const sheet = page.locator('.layout-page').first();
    await expect
      .poll(async () => {
        const b = (await sheet.boundingBox())!;
        return b.x >= 0 && b.x + b.width <= 390;
      })
      .toBe(true);
    await expect(page.getByTestId('office-save')).toBeVisible();
    await expect(page.getByTestId('office-download')).toBeVisible();
    await doc.getByText('馆务办公室', { exact: true }).click();
    await page.keyboard.press('End');
    await page.keyboard.type('（盖章）');
    await page.getByTestId('office-save').click();
    await expect
      .poll(async () => docxText(await download(page, user.token, id)), { timeout: 15_000 })
      .toContain('馆务办公室（盖章）');
    await shot(page, testInfo, 'word-editor-phone');
  } finally {
    await context.close();
  }
});
