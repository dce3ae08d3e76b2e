import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { signIn } from './helpers';

/*
 * The librarian's catalogue import (issue 22), at tablet size: 陈静 (典藏部, the reading room's
 * librarian) imports books on 图书管理; one row's ISBN has a wrong check digit, so the
 * batch-import error dialog (code 1004) names that row and nothing is imported; she fixes the
 * file and imports it again, and the books are listed with their stock (可借 = 馆藏). The rules
 * of the import are tests/server/books.test.ts's; the borrowing journey is the lead's spec.
 */

const HEADERS = [
  '类别*',
  '题名*',
  '责任者',
  '出版社',
  'ISBN',
  '中图分类号',
  '馆藏位置*',
  '馆藏数*',
  '流通方式*',
];

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('书刊');
  ws.addRow(HEADERS);
  for (const r of rows) ws.addRow(r as ExcelJS.CellValue[]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function chooseFile(page: Page, name: string, buffer: Buffer) {
  await page.getByTestId('import-dialog').locator('input[type="file"]').setInputFiles({
    name,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
}

test('a librarian imports books: a bad ISBN refuses the whole file with 1004, the fixed file imports', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const rows = [
    [
      '图书',
      '青铜器鉴定导入本',
      '杜迺松',
      '文物出版社',
      '9787501000000',
      'K876.41',
      '资料室 3 架 2 层',
      3,
      '可借阅',
    ],
    [
      '图书',
      '中国陶瓷史导入本',
      '中国硅酸盐学会',
      '文物出版社',
      '9787020002207',
      'K876.3',
      '资料室 3 架 1 层',
      2,
      '可借阅',
    ],
  ];

  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page, 'staff04');
  await page.goto('/books/book-manage');
  await expect(page.getByRole('heading', { name: '图书管理' })).toBeVisible();
  await page.getByTestId('records-import').click();
  const dialog = page.getByRole('dialog', { name: '批量导入书刊' });
  const download = page.waitForEvent('download');
  await dialog.getByTestId('import-template').click();
  expect((await download).suggestedFilename()).toBe('书刊导入模板.xlsx');

  await chooseFile(page, '新书.xlsx', await workbook(rows));
  await dialog.getByTestId('import-submit').click();
  const errors = page.getByRole('dialog', {
    name: '导入失败：文件中有 1 处错误，未导入任何数据。请按下列提示修改后重新导入',
  });
  await expect(errors).toBeVisible();
  await expect(errors.getByTestId('import-error-line')).toHaveText([
    '第 2 行：ISBN校验位不正确，请核对后重新输入',
  ]);
  await page.screenshot({ path: 'test-results/e2e/books-import-errors-tablet.png' });
  await errors.getByRole('button', { name: '修改后重新导入' }).click();
  await expect(errors).toBeHidden();
  // Nothing of the refused file was saved, the good row included.
  await expect(page.getByTestId('record-row').filter({ hasText: '导入本' })).toHaveCount(0);

  rows[0]![4] = '9787501000005';
  await chooseFile(page, '新书（改）.xlsx', await workbook(rows));
  await dialog.getByTestId('import-submit').click();
  await expect(page.getByText('批量导入成功，共 2 条')).toBeVisible();
  await expect(dialog).toBeHidden();
  const imported = page.getByTestId('record-row').filter({ hasText: '导入本' });
  await expect(imported).toHaveCount(2);
  // 馆藏 3 · 待领取 0 · 在借 0 · 可借 3, as the server counts.
  await expect(imported.filter({ hasText: '青铜器鉴定导入本' })).toContainText('可借阅');
  const cells = imported.filter({ hasText: '青铜器鉴定导入本' }).getByRole('cell');
  const header = await page.getByRole('columnheader').allInnerTexts();
  const at = (name: string) => header.indexOf(name);
  expect(at('可借')).toBeGreaterThan(at('在借'));
  await expect(cells.nth(at('馆藏数'))).toHaveText('3');
  await expect(cells.nth(at('可借'))).toHaveText('3');
  await page.screenshot({ path: 'test-results/e2e/books-manage-tablet.png' });

  // 停借 in the row: the status changes, and 恢复借阅 is offered instead.
  const bronze = imported.filter({ hasText: '青铜器鉴定导入本' });
  await bronze.getByRole('button', { name: '停借' }).click();
  await page.getByRole('dialog', { name: '停借确认' }).getByRole('button', { name: '停借' }).click();
  await expect(bronze.getByRole('button', { name: '恢复借阅' })).toBeVisible();
  await expect(cells.nth(at('状态'))).toHaveText('停借');

  // The periodicals' page lists periodicals only.
  await page.goto('/books/periodical-manage');
  await expect(page.getByRole('heading', { name: '期刊管理' })).toBeVisible();
  await expect(page.getByTestId('records-total')).toBeVisible();
  await expect(page.getByTestId('record-row').filter({ hasText: '导入本' })).toHaveCount(0);
});
