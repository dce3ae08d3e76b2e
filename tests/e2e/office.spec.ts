import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { openDrive, row } from './drive-helpers';
import { signIn } from './helpers';
import { openPanel, uploadItem } from './upload-helpers';
import { createDriveUser } from './users';

/*
 * Office files in real Chromium against the real server (issue 5), with no Document Server
 * configured: 新建文件 makes a blank document, and opening an office file goes to /onlyoffice,
 * whose read-only viewer draws it in the browser with 下载 and 返回. Every test uses a person of
 * its own.
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

test('新建文件 makes a Word document, which opens read-only on /onlyoffice with 下载 and 返回', async ({
  page,
  request,
}) => {
  await freshPerson(page, request);

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
  await expect(row(page, '展览方案.docx')).toBeVisible();

  // The same name again: the collision rule, and the toast says what it became.
  const again = await newFileFromBlank(page);
  await again.getByLabel('文件名称').fill('展览方案.docx');
  await again.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('文件创建成功：已有同名文件，新文件名为“展览方案(1).docx”')).toBeVisible();
  await expect(row(page, '展览方案(1).docx')).toBeVisible();

  // Opening it goes to /onlyoffice, where docx-preview draws the blank page.
  await row(page, '展览方案.docx').dblclick();
  await expect(page).toHaveURL(/\/onlyoffice\?.*ot=edit/);
  await expect(page.getByTestId('office-title')).toHaveText('展览方案.docx');
  await expect(page.getByText('只读', { exact: true })).toBeVisible();
  const view = page.locator('[data-testid="docx-view"][data-ready]');
  await expect(view).toBeVisible();
  await expect(view.locator('section.docx')).toHaveCount(1);
  const download = page.getByTestId('office-download');
  await expect(download).toHaveText('下载');
  await expect(download).toHaveAttribute('href', /^\/wangpan\/filetransfer\/downloadfile\?userFileId=\d+$/);
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toBe('展览方案.docx');

  await page.getByRole('button', { name: '返回' }).click();
  await expect(page.getByTestId('drive-page')).toBeVisible();
  await expect(row(page, '展览方案.docx')).toBeVisible();
});

test('a workbook shows its cells and sheets; slides render; broken, legacy and pdf files say why', async ({
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

  await row(page, '藏品清单.xlsx').dblclick();
  const table = page.getByTestId('sheet-table');
  await expect(table.locator('td[data-cell="A2"]')).toHaveText('青花缠枝莲纹瓶');
  await expect(table.locator('td[data-cell="B2"]')).toHaveText('明代');
  await expect(table.locator('td[data-cell="A4"]')).toHaveAttribute('colspan', '2');
  await expect(table.locator('td[data-cell="B4"]')).toHaveCount(0);
  await page.getByRole('tab', { name: '统计' }).click();
  await expect(page.getByTestId('sheet-table').locator('td[data-cell="A1"]')).toHaveText('42');
  await expect(page.getByTestId('office-download')).toBeVisible();
  await page.getByRole('button', { name: '返回' }).click();

  await row(page, '损坏的表格.xlsx').dblclick();
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
});

test('an address without a file says so instead of failing', async ({ page, request }) => {
  await freshPerson(page, request);
  await page.goto('/onlyoffice?fileName=x&extendName=docx');
  await expect(page.getByTestId('office-message')).toHaveText('缺少文件信息，请回到网盘重新打开文档');
  await page.getByRole('button', { name: '返回' }).click();
  await expect(page.getByTestId('drive-page')).toBeVisible();
});
