import type ExcelJS from 'exceljs';
import { loadExcel } from '../lazy';
import type { FastifyReply } from 'fastify';
import { IMPORT_MAX_ROWS, type ImportError } from '../../shared/records/api';
import { invalid } from '../errors';
import { contentDisposition } from '../modules/drive/download';

/**
 * The spreadsheets of the records engine: exports, import templates, and reading an uploaded
 * file back. One sheet with a bold header row of Chinese labels; an import template marks
 * required columns with *, offers each choice column as an in-cell list, formats text columns
 * as text (so 010… keeps its 0) and explains every column on a second sheet 填写说明.
 */

export interface SheetColumn {
  key: string;
  header: string;
  required?: boolean;
  /** The choices of a column (an in-cell drop-down in the template). */
  options?: readonly string[];
  /** One line for 填写说明: the format, an example. */
  note?: string;
  /** Store as text (phones, codes): Excel would drop leading zeros of a number. */
  text?: boolean;
  width?: number;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Sends a workbook as a download. */
export function sendXlsx(reply: FastifyReply, name: string, body: Buffer) {
  return reply
    .header('content-disposition', contentDisposition(name))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .type(XLSX_TYPE)
    .send(body);
}

function widthOf(c: SheetColumn): number {
  return c.width ?? Math.max(12, Math.min(40, c.header.length * 2 + 4));
}

/** An export: the header row, then the rows (values already as people read them). */
export async function exportWorkbook(
  title: string,
  columns: readonly SheetColumn[],
  rows: readonly unknown[][],
): Promise<Buffer> {
  const wb = new (await loadExcel()).Workbook();
  wb.creator = '馆务云';
  const ws = wb.addWorksheet(title.slice(0, 31));
  ws.addRow(columns.map((c) => c.header)).font = { bold: true };
  for (const r of rows) ws.addRow(r as ExcelJS.CellValue[]);
  columns.forEach((c, i) => (ws.getColumn(i + 1).width = widthOf(c)));
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The header of a template column: 值班日期* for a required one. */
const headerOf = (c: SheetColumn) => (c.required ? `${c.header}*` : c.header);

/** An import template: the header row, drop-downs, text formats, and 填写说明. */
export async function templateWorkbook(
  title: string,
  columns: readonly SheetColumn[],
  hint: string,
): Promise<Buffer> {
  const wb = new (await loadExcel()).Workbook();
  wb.creator = '馆务云';
  const ws = wb.addWorksheet(title.slice(0, 31));
  const header = ws.addRow(columns.map(headerOf));
  header.font = { bold: true };
  header.eachCell((cell, i) => {
    if (columns[i - 1]?.required) cell.font = { bold: true, color: { argb: 'FFC92A2A' } };
  });
  // The choices live on a hidden sheet: an in-cell list is limited to 255 characters inline.
  const lists = wb.addWorksheet('选项', { state: 'hidden' });
  columns.forEach((c, i) => {
    const column = ws.getColumn(i + 1);
    column.width = widthOf(c);
    if (c.text) column.numFmt = '@';
    if (c.options?.length) {
      c.options.forEach((o, j) => (lists.getCell(j + 1, i + 1).value = o));
      const letter = lists.getColumn(i + 1).letter;
      for (let r = 2; r <= 501; r++)
        ws.getCell(r, i + 1).dataValidation = {
          type: 'list',
          allowBlank: !c.required,
          formulae: [`选项!$${letter}$1:$${letter}$${c.options.length}`],
          showErrorMessage: true,
          errorTitle: '不是可选项',
          error: `请从下拉列表中选择${c.header}`,
        };
    }
  });
  ws.views = [{ state: 'frozen', ySplit: 1 }];

  const help = wb.addWorksheet('填写说明');
  help.addRow([hint]).font = { bold: true };
  help.addRow([]);
  help.addRow(['列', '必填', '填写要求']).font = { bold: true };
  for (const c of columns) {
    const options = c.options?.length ? `可选：${c.options.join('、')}` : '';
    help.addRow([c.header, c.required ? '是' : '否', [c.note, options].filter(Boolean).join('；')]);
  }
  help.getColumn(1).width = 16;
  help.getColumn(2).width = 8;
  help.getColumn(3).width = 90;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The header words of a cell: 值班日期* and 值班日期 are the same column. */
const normalHeader = (v: unknown) =>
  String(v ?? '')
    .replace(/[*＊]|（必填）|\(必填\)/g, '')
    .replace(/\s+/g, '')
    .trim();

export interface SheetRow {
  /** The row's number in Excel (the header is row 1), as the error dialog names it. */
  row: number;
  cells: Record<string, unknown>;
}

/**
 * Reads the first sheet of an uploaded workbook against the columns: finds each column by its
 * header (any order; a missing required column is an error), skips empty rows, and answers
 * each row's raw cells by key. A file that is no workbook, or has no data rows, is refused.
 */
export async function readWorkbook(
  body: Buffer,
  columns: readonly SheetColumn[],
): Promise<{ rows: SheetRow[]; errors: ImportError[] }> {
  const wb = new (await loadExcel()).Workbook();
  try {
    await wb.xlsx.load(body as unknown as ArrayBuffer);
  } catch {
    throw invalid('无法读取该文件，请上传由模板填写的 .xlsx 文件（可在页面上下载导入模板）');
  }
  const ws = wb.worksheets.find((s) => s.state !== 'hidden' && s.name !== '填写说明');
  if (!ws || ws.rowCount < 2) throw invalid('文件中没有数据，请在模板第 2 行起填写后再导入');

  const positions = new Map<string, number>();
  ws.getRow(1).eachCell((cell, col) => {
    const h = normalHeader(cell.value);
    if (h && !positions.has(h)) positions.set(h, col);
  });
  const errors: ImportError[] = [];
  for (const c of columns)
    if (c.required && !positions.has(c.header))
      errors.push({
        row: 1,
        column: c.header,
        message: `表头缺少“${c.header}”列，请使用页面上下载的导入模板`,
      });
  if (errors.length) return { rows: [], errors };

  const rows: SheetRow[] = [];
  for (let r = 2; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const cells: Record<string, unknown> = {};
    let any = false;
    for (const c of columns) {
      const at = positions.get(c.header);
      const v = at ? row.getCell(at).value : null;
      cells[c.key] = v;
      if (v !== null && v !== undefined && String(typeof v === 'object' ? 'x' : v).trim() !== '') any = true;
    }
    if (!any) continue;
    rows.push({ row: r, cells });
    if (rows.length > IMPORT_MAX_ROWS)
      throw invalid(`一次最多导入 ${IMPORT_MAX_ROWS} 行，请把文件拆成几份分别导入`);
  }
  if (!rows.length) throw invalid('文件中没有数据，请在模板第 2 行起填写后再导入');
  return { rows, errors };
}
