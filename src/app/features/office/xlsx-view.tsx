import { Tabs, Text } from '@mantine/core';
import ExcelJS from 'exceljs';
import { useEffect, useState, type CSSProperties } from 'react';
import { tPreview } from '../../lib/i18n/preview';
import classes from './office.module.css';
import { ViewerLoading, ViewerMessage } from './viewer-state';

/*
 * A workbook, read-only: one tab per visible sheet, its cells as a table with the column
 * letters and row numbers of a spreadsheet, merged cells spanning, bold, alignment and solid
 * fills kept. Big sheets are cut at MAX_ROWS × MAX_COLS with a note (a tablet drawing a million
 * cells would stall); the full file is one tap away on 下载.
 */

export const MAX_ROWS = 500;
export const MAX_COLS = 50;

interface Cell {
  text: string;
  rowSpan?: number;
  colSpan?: number;
  style?: CSSProperties;
}
interface Sheet {
  name: string;
  /** null where a merged range covers the cell (its master spans it). */
  rows: (Cell | null)[][];
  cols: number;
  capped: boolean;
}

function columnName(n: number): string {
  let s = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
}

/** A cell as the person typed it: dates as dates (ExcelJS gives them as UTC), formulas by result. */
function cellText(cell: ExcelJS.Cell): string {
  const v = cell.value;
  if (v instanceof Date) {
    const iso = v.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 16).replace('T', ' ');
  }
  if (v && typeof v === 'object' && 'result' in v && v.result instanceof Date) {
    return v.result.toISOString().slice(0, 10);
  }
  try {
    return cell.text ?? '';
  } catch {
    return '';
  }
}

function cellStyle(cell: ExcelJS.Cell): CSSProperties | undefined {
  const style: CSSProperties = {};
  if (cell.font?.bold) style.fontWeight = 600;
  if (cell.font?.italic) style.fontStyle = 'italic';
  const h = cell.alignment?.horizontal;
  if (h === 'center' || h === 'centerContinuous') style.textAlign = 'center';
  else if (h === 'right') style.textAlign = 'right';
  else if (typeof cell.value === 'number') style.textAlign = 'right';
  const fill = cell.fill;
  if (fill?.type === 'pattern' && fill.pattern === 'solid' && fill.fgColor?.argb) {
    style.background = `#${fill.fgColor.argb.slice(-6)}`;
  }
  return Object.keys(style).length ? style : undefined;
}

/** "B2:C3" → its corners, 1-based. */
function rangeOf(ref: string) {
  const m = /^([A-Z]+)(\d+):([A-Z]+)(\d+)$/.exec(ref);
  if (!m) return null;
  const col = (s: string) => [...s].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);
  return { top: Number(m[2]), left: col(m[1]!), bottom: Number(m[4]), right: col(m[3]!) };
}

function readSheet(ws: ExcelJS.Worksheet): Sheet {
  const rowCount = ws.rowCount;
  const colCount = ws.columnCount;
  const rows = Math.min(rowCount, MAX_ROWS);
  const cols = Math.min(colCount, MAX_COLS);
  const grid: (Cell | null)[][] = [];
  for (let r = 1; r <= rows; r++) {
    const row = ws.getRow(r);
    const line: (Cell | null)[] = [];
    for (let c = 1; c <= cols; c++) {
      const cell = row.getCell(c);
      line.push({ text: cellText(cell), style: cellStyle(cell) });
    }
    grid.push(line);
  }
  for (const ref of ws.model.merges ?? []) {
    const m = rangeOf(ref);
    if (!m || m.top > rows || m.left > cols) continue;
    const bottom = Math.min(m.bottom, rows);
    const right = Math.min(m.right, cols);
    const master = grid[m.top - 1]![m.left - 1]!;
    master.rowSpan = bottom - m.top + 1;
    master.colSpan = right - m.left + 1;
    for (let r = m.top; r <= bottom; r++)
      for (let c = m.left; c <= right; c++) if (r !== m.top || c !== m.left) grid[r - 1]![c - 1] = null;
  }
  return { name: ws.name, rows: grid, cols, capped: rowCount > rows || colCount > cols };
}

async function readWorkbook(bytes: ArrayBuffer): Promise<Sheet[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes);
  const visible = wb.worksheets.filter((ws) => ws.state === undefined || ws.state === 'visible');
  return (visible.length ? visible : wb.worksheets).map(readSheet);
}

function SheetTable({ sheet }: { sheet: Sheet }) {
  if (sheet.rows.length === 0) {
    return (
      <Text c="dimmed" size="sm" p="md" data-testid="sheet-empty">
        {tPreview.office.sheetEmpty}
      </Text>
    );
  }
  const letters = Array.from({ length: sheet.cols }, (_, i) => columnName(i + 1));
  return (
    <>
      {sheet.capped && (
        <Text size="sm" c="orange.8" px="md" py={6} data-testid="sheet-capped">
          {tPreview.office.sheetCapped(MAX_ROWS, MAX_COLS)}
        </Text>
      )}
      <div className={classes.sheetScroller}>
        <table className={classes.sheet} data-testid="sheet-table">
          <thead>
            <tr>
              <th className={classes.corner} />
              {letters.map((l) => (
                <th key={l}>{l}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sheet.rows.map((row, r) => (
              <tr key={r}>
                <th>{r + 1}</th>
                {row.map((cell, c) =>
                  cell ? (
                    <td
                      key={c}
                      rowSpan={cell.rowSpan}
                      colSpan={cell.colSpan}
                      style={cell.style}
                      data-cell={`${letters[c]}${r + 1}`}
                    >
                      {cell.text}
                    </td>
                  ) : null,
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export default function XlsxView({ bytes }: { bytes: ArrayBuffer }) {
  const [done, setDone] = useState<{ bytes: ArrayBuffer; sheets: Sheet[] | null } | null>(null);
  const [tab, setTab] = useState<string | null>(null);
  const state = done?.bytes === bytes ? done : null;

  useEffect(() => {
    let cancelled = false;
    readWorkbook(bytes).then(
      (sheets) => !cancelled && setDone({ bytes, sheets }),
      () => !cancelled && setDone({ bytes, sheets: null }),
    );
    return () => {
      cancelled = true;
    };
  }, [bytes]);

  if (!state) return <ViewerLoading />;
  if (!state.sheets || state.sheets.length === 0) return <ViewerMessage message={tPreview.office.broken} />;
  const active = tab && state.sheets.some((s) => s.name === tab) ? tab : state.sheets[0]!.name;
  return (
    <Tabs
      value={active}
      onChange={setTab}
      className={classes.sheetTabs}
      data-testid="xlsx-view"
      keepMounted={false}
      inverted
    >
      {state.sheets.map((s) => (
        <Tabs.Panel key={s.name} value={s.name} className={classes.sheetPanel}>
          <SheetTable sheet={s} />
        </Tabs.Panel>
      ))}
      <Tabs.List aria-label={tPreview.office.sheets} className={classes.sheetList}>
        {state.sheets.map((s) => (
          <Tabs.Tab key={s.name} value={s.name}>
            {s.name}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
