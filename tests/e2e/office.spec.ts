import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { driveApi, openDrive, row } from './drive-helpers';
import { signIn } from './helpers';
import { docxText } from './office-helpers';
import { freePort, serverProcess } from './server-process';
import { openPanel, uploadItem } from './upload-helpers';
import { createDriveUser } from './users';

/** The editors are multi-megabyte chunks: on a loaded two-core CI machine their first load is slow. */
const EDITOR_LOAD = 30_000;

/*
 * Office files in real Chromium against the real server (issue 5, issue 17 §1), with no Document
 * Server configured: 新建文件 makes a blank document, and opening an office file goes to
 * /onlyoffice, where Word and Excel files open for editing in the browser and save back, and
 * ot=detail (and PowerPoint) is the read-only viewer, with 下载 and 返回. Every test uses a
 * person of its own.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-office-e2e-'));

async function freshPerson(page: Page, request: Parameters<typeof createDriveUser>[0]) {
  const user = await createDriveUser(request, { prefix: 'of' });
  await signIn(page, user.account, user.password);
  await openDrive(page);
  return user;
}

/** Right-clicks blank space in the list and picks 新建文件. */
async function newFileFromBlank(page: Page) {
  const box = (await page.getByTestId('file-browser').boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height - 20, { button: 'right' });
  await page.getByTestId('context-menu').getByRole('menuitem', { name: '新建文件', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '新建文件' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function uploadFiles(page: Page, files: string[]) {
  await openPanel(page);
  await page.getByTestId('upload-input-files').setInputFiles(files);
  for (const f of files) {
    await expect(uploadItem(page, path.basename(f))).toHaveAttribute('data-state', 'success', {
      timeout: 30_000,
    });
  }
  await page.getByTestId('upload-panel').getByRole('button', { name: '关闭上传面板' }).click();
}

test('新建文件 makes a Word document that opens for editing: type, save, reopen, and the text is there', async ({
  page,
  request,
}, testInfo) => {
  const user = await freshPerson(page, request);
  const api = driveApi(request, user.token);

  // The dialog from the blank-space menu: the spec's width, a type and one name field.
  const dialog = await newFileFromBlank(page);
  expect(Math.round((await dialog.boundingBox())!.width)).toBe(550);
  await expect(dialog.getByRole('radio', { name: 'Word 文档' })).toBeChecked();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog.getByText('请输入文件名称')).toBeVisible();
  const name = dialog.getByLabel('文件名称');
  await name.fill('长'.repeat(256));
  await expect(dialog.getByText('256/255')).toBeVisible();
  await name.press('Enter');
  await expect(dialog.getByText('文件名称不能超过 255 个字符')).toBeVisible();
  await name.fill('展览方案');
  await expect(dialog.getByText('4/255')).toBeVisible();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('文件创建成功', { exact: true })).toBeVisible();

  // The new document opens at once for typing (ot=add): with no Document Server, the browser's editor.
  await expect(page).toHaveURL(/\/onlyoffice\?.*ot=add/);
  await expect(page.getByTestId('office-title')).toHaveText('展览方案.docx');
  await expect(page.getByText('只读', { exact: true })).toHaveCount(0);
  const doc = page.locator('.paged-editor__pages');
  await expect(doc).toBeVisible({ timeout: EDITOR_LOAD });
  await expect(page.getByTestId('office-save')).toBeEnabled();
  await doc.click({ position: { x: 200, y: 120 } });
  await page.keyboard.type('第三展厅改陈方案');
  await page.keyboard.press('Enter');
  await page.keyboard.type('开幕时间待定');
  const status = page.getByTestId('office-save-status');
  await expect(status).toHaveText('有未保存的修改');

  // Leaving with unsaved changes asks first.
  await page.getByRole('button', { name: '返回' }).click();
  const leave = page.getByRole('dialog', { name: '离开编辑页？' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: '继续编辑' }).click();
  await expect(leave).toBeHidden();

  // Ctrl+S saves through office/savefile; the server holds the text.
  await page.keyboard.press('Control+s');
  await expect(status).toHaveText(/^已保存 \d{2}:\d{2}$/);
  const shot = testInfo.outputPath('word-editor-tablet.png');
  await page.screenshot({ path: shot });
  await testInfo.attach('word-editor-tablet', { path: shot, contentType: 'image/png' });
  const id = (await api.find('/', '展览方案')).userFileId;
  const saved = await request.get(`/wangpan/filetransfer/downloadfile?userFileId=${id}`, {
    headers: { token: user.token },
  });
  expect(await docxText(await saved.body())).toBe('第三展厅改陈方案开幕时间待定');

  // 返回 goes without asking now, to the folder where it was made.
  await page.getByRole('button', { name: '返回' }).click();
  await expect(page.getByTestId('drive-page')).toBeVisible();
  await expect(row(page, '展览方案.docx')).toBeVisible();

  // The same name again: the collision rule, and the toast says what it became.
  const again = await newFileFromBlank(page);
  await again.getByLabel('文件名称').fill('展览方案.docx');
  await again.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('文件创建成功：已有同名文件，新文件名为“展览方案(1).docx”')).toBeVisible();
  await expect(page.getByTestId('office-title')).toHaveText('展览方案(1).docx');
  await page.getByRole('button', { name: '返回' }).click();
  await expect(row(page, '展览方案(1).docx')).toBeVisible();

  // Opening the first one from the drive (ot=edit) shows the saved text.
  await row(page, '展览方案.docx').dblclick();
  await expect(page).toHaveURL(/\/onlyoffice\?.*ot=edit/);
  await expect(page.locator('.paged-editor__pages')).toContainText('第三展厅改陈方案', {
    timeout: EDITOR_LOAD,
  });
  await expect(page.locator('.paged-editor__pages')).toContainText('开幕时间待定');
  const download = page.getByTestId('office-download');
  await expect(download).toHaveText('下载');
  await expect(download).toHaveAttribute('href', /^\/wangpan\/filetransfer\/downloadfile\?userFileId=\d+$/);
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toBe('展览方案.docx');
  await page.getByRole('button', { name: '返回' }).click();
  await expect(page.getByTestId('drive-page')).toBeVisible();
});

test('a workbook edits from the drive and shows read-only on ot=detail; slides render; broken, legacy and pdf files say why', async ({
  page,
  request,
}) => {
  await freshPerson(page, request);

  const wb = new ExcelJS.Workbook();
  const items = wb.addWorksheet('藏品');
  items.getCell('A1').value = '藏品名称';
  items.getCell('B1').value = '年代';
  items.getCell('A2').value = '青花缠枝莲纹瓶';
  items.getCell('B2').value = '明代';
  items.mergeCells('A4:B4');
  items.getCell('A4').value = '合计 1 件';
  wb.addWorksheet('统计').getCell('A1').value = 42;
  const xlsx = path.join(dir, '藏品清单.xlsx');
  fs.writeFileSync(xlsx, Buffer.from(await wb.xlsx.writeBuffer()));
  const broken = path.join(dir, '损坏的表格.xlsx');
  fs.writeFileSync(broken, 'this is not a zip');
  const legacy = path.join(dir, '旧报告.doc');
  fs.writeFileSync(legacy, 'legacy word');
  const pdf = path.join(dir, '说明书.pdf');
  fs.writeFileSync(pdf, '%PDF-1.4\n%%EOF\n');
  await uploadFiles(page, [xlsx, broken, legacy, pdf]);

  // A pdf in the drive: the spec's warning, and the page stays.
  await row(page, '说明书.pdf').dblclick();
  await expect(page.getByText('暂不支持在线查看，请下载后查看')).toBeVisible();
  await expect(page.getByTestId('drive-page')).toBeVisible();

  // From the drive a workbook opens for editing; ot=detail is the read-only viewer, with 编辑.
  await row(page, '藏品清单.xlsx').dblclick();
  await expect(page.getByTestId('xlsx-editor')).toBeVisible({ timeout: EDITOR_LOAD });
  await page.goto(page.url().replace('ot=edit', 'ot=detail'));
  await expect(page.getByText('只读', { exact: true })).toBeVisible();
  await expect(page.getByTestId('office-edit')).toHaveText('编辑');
  const table = page.getByTestId('sheet-table');
  await expect(table.locator('td[data-cell="A2"]')).toHaveText('青花缠枝莲纹瓶');
  await expect(table.locator('td[data-cell="B2"]')).toHaveText('明代');
  await expect(table.locator('td[data-cell="A4"]')).toHaveAttribute('colspan', '2');
  await expect(table.locator('td[data-cell="B4"]')).toHaveCount(0);
  await page.getByRole('tab', { name: '统计' }).click();
  await expect(page.getByTestId('sheet-table').locator('td[data-cell="A1"]')).toHaveText('42');
  await expect(page.getByTestId('office-download')).toBeVisible();
  await page.getByTestId('office-edit').click();
  await expect(page).toHaveURL(/ot=edit/);
  await expect(page.getByTestId('xlsx-editor')).toBeVisible({ timeout: EDITOR_LOAD });
  await expect(page.getByText('只读', { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: '返回' }).click();

  // A broken workbook cannot be edited: the page says so, and the viewer says why.
  await row(page, '损坏的表格.xlsx').dblclick();
  await expect(page.getByTestId('office-edit-failed')).toHaveText(
    '此文档无法在浏览器中编辑，已改为只读查看。请下载后用 Office 或 WPS 编辑',
    { timeout: EDITOR_LOAD },
  );
  await expect(page.getByTestId('office-message')).toHaveText(
    '文件已损坏或不是有效的 Office 文档，无法在线查看。请下载后用 Office 或 WPS 打开',
  );
  await expect(page.getByTestId('office-download')).toBeVisible();
  await page.getByRole('button', { name: '返回' }).click();

  await row(page, '旧报告.doc').dblclick();
  await expect(page.getByTestId('office-message')).toHaveText('暂不支持在线查看，请下载后查看');
  await expect(page.getByTestId('office-download')).toBeVisible();
  await page.getByRole('button', { name: '返回' }).click();

  // A presentation from the toolbar's 新建文件: the blank title slide renders.
  await page.locator('[data-action="newFile"]').click();
  const dialog = page.getByRole('dialog', { name: '新建文件' });
  await dialog.getByRole('radio', { name: 'PowerPoint 演示文稿' }).check();
  await dialog.getByLabel('文件名称').fill('开幕致辞');
  await dialog.getByLabel('文件名称').press('Enter');
  await expect(row(page, '开幕致辞.pptx')).toBeVisible();
  await row(page, '开幕致辞.pptx').dblclick();
  await expect(page.locator('[data-testid="pptx-view"][data-ready]')).toBeVisible();
  await expect(page.getByTestId('office-message')).toHaveCount(0);
  // Presentations stay a viewer, and say how to edit them.
  await expect(page.getByText('此类文件只能在线查看，编辑请下载后用 Office 或 WPS 打开')).toBeVisible();
  await expect(page.getByTestId('office-save')).toHaveCount(0);
  await expect(page.getByTestId('office-edit')).toHaveCount(0);
});

test('an address without a file says so instead of failing', async ({ page, request }) => {
  await freshPerson(page, request);
  await page.goto('/onlyoffice?fileName=x&extendName=docx');
  await expect(page.getByTestId('office-message')).toHaveText('缺少文件信息，请回到网盘重新打开文档');
  await page.getByRole('button', { name: '返回' }).click();
  await expect(page.getByTestId('drive-page')).toBeVisible();
});

// ——————————————————————————————————————————————————————————————— with a Document Server

const SECRET = 'e2e-document-server-secret-0123';

/** HS256 as the Document Server signs (written here: e2e tests do not import server code). */
function sign(claims: object): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${head}.${createHmac('sha256', SECRET).update(head).digest('base64url')}`;
}

/**
 * A stand-in Document Server: its api.js defines DocsAPI.DocEditor, which records the config
 * the page hands it and marks its placeholder (the real one draws the editor in an iframe
 * there). `files` are what it offers for download on a save.
 */
async function standInDocumentServer() {
  const files = new Map<string, Buffer>();
  let apiUp = true;
  const apiJs = `window.DocsAPI = { DocEditor: function (id, config) {
    window.__docEditorConfig = config;
    var el = document.getElementById(id);
    el.setAttribute('data-testid', 'stand-in-editor');
    el.setAttribute('data-mode', config.editorConfig.mode);
    el.textContent = config.document.title;
    return { destroyEditor: function () {} };
  } };`;
  const server = http.createServer((req, res) => {
    if (req.url === '/web-apps/apps/api/documents/api.js' && apiUp) {
      res.writeHead(200, { 'content-type': 'application/javascript' }).end(apiJs);
      return;
    }
    const body = files.get(req.url ?? '');
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    files,
    setApi: (up: boolean) => {
      apiUp = up;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function workbook(value: string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Sheet1').getCell('A1').value = value;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test('with a Document Server: its editor opens with the signed config, a save lands, and without it the viewer takes over', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const ds = await standInDocumentServer();
  const port = await freePort();
  const dataDir = path.resolve(`.tmp/e2e-office-${port}`);
  const server = serverProcess({
    port,
    dataDir,
    env: { ONLYOFFICE_URL: ds.url, ONLYOFFICE_JWT_SECRET: SECRET, PUBLIC_URL: `http://127.0.0.1:${port}` },
  });
  await server.start();
  const request = await playwright.request.newContext({ baseURL: server.baseURL });
  const context = await browser.newContext({ baseURL: server.baseURL });
  try {
    const user = await createDriveUser(request, { prefix: 'ds', server: server.baseURL });
    const api = driveApi(request, user.token);
    const page = await context.newPage();
    await signIn(page, user.account, user.password);
    await openDrive(page);

    // 新建文件, then open it: the Document Server's editor, in edit mode, in Chinese.
    await page.locator('[data-action="newFile"]').click();
    const dialog = page.getByRole('dialog', { name: '新建文件' });
    await dialog.getByRole('radio', { name: 'Excel 表格' }).check();
    await dialog.getByLabel('文件名称').fill('年度预算');
    await dialog.getByLabel('文件名称').press('Enter');
    await expect(page).toHaveURL(/\/onlyoffice\?.*ot=add/);
    const editor = page.getByTestId('stand-in-editor');
    await expect(editor).toHaveAttribute('data-mode', 'edit');
    await expect(editor).toHaveText('年度预算.xlsx');
    await expect(page.getByText('只读', { exact: true })).toHaveCount(0);
    const config = (await page.evaluate(() => (window as any).__docEditorConfig)) as any;
    expect(config).toMatchObject({
      type: 'desktop',
      documentType: 'cell',
      width: '100%',
      editorConfig: { mode: 'edit', lang: 'zh' },
    });
    expect(config.token.split('.')).toHaveLength(3);
    // The document URL works for the Document Server, with no session.
    const doc = await fetch(config.document.url);
    expect(doc.status).toBe(200);

    // People edit, all close the document: the Document Server calls back with the new file.
    ds.files.set('/cache/files/save/output.xlsx', await workbook('二〇二五年预算'));
    const claims = { key: config.document.key, status: 2, url: `${ds.url}/cache/files/save/output.xlsx` };
    const answer = await fetch(config.editorConfig.callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...claims, token: sign(claims) }),
    });
    expect(await answer.json()).toEqual({ error: 0 });

    // Opening again: a new key for the new content.
    await page.getByRole('button', { name: '返回' }).click();
    await row(page, '年度预算.xlsx').dblclick();
    await expect(page.getByTestId('stand-in-editor')).toBeVisible();
    const again = (await page.evaluate(() => (window as any).__docEditorConfig)) as any;
    expect(again.document.key).not.toBe(config.document.key);

    // The Document Server is unreachable: the page says so and shows the saved content read-only.
    ds.setApi(false);
    await page.getByRole('button', { name: '返回' }).click();
    await page.reload();
    await row(page, '年度预算.xlsx').dblclick();
    await expect(page.getByText('在线文档服务暂时无法连接，已改为只读查看')).toBeVisible();
    await expect(page.getByTestId('sheet-table').locator('td[data-cell="A1"]')).toHaveText('二〇二五年预算');
    expect(await api.names('/')).toEqual(['年度预算.xlsx']);

    // On a phone the signed config asks for the mobile editor.
    ds.setApi(true);
    const phone = await browser.newContext({
      baseURL: server.baseURL,
      viewport: { width: 375, height: 812 },
    });
    try {
      const p = await phone.newPage();
      await signIn(p, user.account, user.password);
      const id = (await api.find('/', '年度预算')).userFileId;
      await p.goto(`/onlyoffice?userFileId=${id}&fileName=年度预算&extendName=xlsx&filePath=/&ot=detail`);
      await expect(p.getByTestId('stand-in-editor')).toHaveAttribute('data-mode', 'view');
      expect(await p.evaluate(() => (window as any).__docEditorConfig.type)).toBe('mobile');
    } finally {
      await phone.close();
    }
  } finally {
    await context.close();
    await request.dispose();
    await server.stop();
    await ds.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
