import { loadExcel } from '../../lazy';
import type { DeptSheet, MonthSheet, YearSheet } from '../../../shared/api/attendance';

/**
 * The 考勤 workbooks (issue 8): one sheet, a bold Chinese header row, then one row per person,
 * department or month, days as numbers (so the office can sum them in Excel).
 */
const DAY_COLUMNS = ['请假（天）', '出差（天）', '加班（天）', '审批单数'];
type DayRow = { leave: number; travel: number; overtime: number; count: number };
const dayCells = (r: DayRow) => [r.leave, r.travel, r.overtime, r.count];

async function workbook(sheetName: string, headers: string[], rows: (string | number)[][]): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  wb.creator = '馆务云';
  const ws = wb.addWorksheet(sheetName);
  ws.addRow(headers).font = { bold: true };
  for (const r of rows) ws.addRow(r);
  ws.columns.forEach((c, i) => (c.width = i < headers.length - DAY_COLUMNS.length ? 16 : 12));
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export const monthWorkbook = (s: MonthSheet) =>
  workbook(
    `考勤统计 ${s.month}`,
    ['姓名', '部门', ...DAY_COLUMNS],
    s.list.map((r) => [r.name, r.deptNames, ...dayCells(r)]),
  );

export const departmentsWorkbook = (s: DeptSheet) =>
  workbook(
    `部门汇总 ${s.month}`,
    ['部门', '人数', ...DAY_COLUMNS],
    s.list.map((r) => [r.deptName, r.people, ...dayCells(r)]),
  );

export const personalWorkbook = (s: YearSheet) =>
  workbook(
    `个人汇总 ${s.year}`,
    ['月份', ...DAY_COLUMNS],
    [...s.list.map((r) => [r.month, ...dayCells(r)]), ['合计', ...dayCells(s.totals)]],
  );
