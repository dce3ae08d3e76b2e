import type { Cell as FCell, CellStyle, Sheet as FSheet } from '@fortune-sheet/core';
import { getBorderInfoComputeRange, update as formatValue } from '@fortune-sheet/core';
import ExcelJS from 'exceljs';
import { recalculate, type Grid } from './xlsx-recalc';

/*
 * ExcelJS ⇄ fortune-sheet, both ways, for editing xlsx in the browser (issue 17 §1).
 *
 * Reading turns each worksheet into fortune-sheet's model: values, formulas (with their cached
 * results), merged cells, number formats, fonts, fills, alignment, wrapping, borders, column
 * widths, row heights, hidden rows and columns, frozen panes, hidden sheets.
 *
 * Writing never rebuilds the workbook. It loads the original file again and changes only what
 * the person changed: each cell whose value, formula or style (as far as fortune-sheet models
 * it) differs from what reading produced is written, and everything else — rich text nobody
 * touched, fonts by theme colour, notes, hyperlinks, data validation, conditional formatting,
 * print settings, defined names — stays exactly as ExcelJS read it. What ExcelJS itself drops
 * (charts, pivot tables, shapes…) is found by comparing packages before saving
 * (shared/office/features.ts) and the person is asked first.
 *
 * Inserting or deleting rows and columns shifts cells, which are then rewritten where they
 * land; ranges kept from the original (validation, conditional formats, notes) do not move
 * with them (README "Office documents", limits).
 *
 * Pure apart from ExcelJS and fortune-sheet's own formatting helpers: the tests run it in Node.
 */

/** Sheets larger than this many cells open read-only: the grid and the diff would crawl on a tablet. */
export const EDIT_MAX_CELLS = 250_000;

export class TooLargeToEdit extends Error {}

const ID_PREFIX = 'ws-';
const DEFAULT_FMT = 'General';

// ——————————————————————————————————————————————————————————— units and codes

/** Excel column width (characters of the default font) ⇄ pixels, as Excel rounds it. */
const widthToPx = (w: number) => Math.round(w * 7 + 5);
const pxToWidth = (px: number) => Math.max(0, Math.round(((px - 5) / 7) * 100) / 100);
/** Row height in points ⇄ pixels at 96 dpi. */
const heightToPx = (pt: number) => Math.round((pt * 4) / 3);
const pxToHeight = (px: number) => Math.round(px * 0.75 * 100) / 100;

const argbToHex = (argb: string | undefined) =>
  argb && /^[0-9a-f]{6,8}$/i.test(argb) ? `#${argb.slice(-6).toLowerCase()}` : undefined;
const hexToArgb = (hex: string) => {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim()) ?? /^#?([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(hex.trim());
  if (!m) return undefined;
  const six = m.length === 4 ? `${m[1]}${m[1]}${m[2]}${m[2]}${m[3]}${m[3]}` : m[1]!;
  return `FF${six.toUpperCase()}`;
};
/** fortune-sheet also writes rgb(r, g, b). */
function colorToArgb(color: string | undefined): string | undefined {
  if (!color) return undefined;
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/i.exec(color);
  if (rgb) {
    return `FF${rgb
      .slice(1, 4)
      .map((n) => Number(n).toString(16).padStart(2, '0'))
      .join('')
      .toUpperCase()}`;
  }
  return hexToArgb(color);
}
const normColor = (color: string | undefined) => {
  const argb = colorToArgb(color);
  return argb ? `#${argb.slice(2).toLowerCase()}` : undefined;
};

/** fortune-sheet: ht 0 centre, 1 left, 2 right; vt 0 middle, 1 top, 2 bottom; tb '2' wraps. */
const H_TO_F: Record<string, number> = { center: 0, centerContinuous: 0, left: 1, right: 2 };
const F_TO_H = ['center', 'left', 'right'] as const;
const V_TO_F: Record<string, number> = { middle: 0, top: 1, bottom: 2 };
const F_TO_V = ['middle', 'top', 'bottom'] as const;

/** Border styles in fortune-sheet's numbering ⇄ Excel's names. */
const BORDER_STYLES = [
  undefined,
  'thin',
  'hair',
  'dotted',
  'dashed',
  'dashDot',
  'dashDotDot',
  'double',
  'medium',
  'mediumDashed',
  'mediumDashDot',
  'mediumDashDotDot',
  'slantDashDot',
  'thick',
] as const;
type Side = 'l' | 'r' | 't' | 'b';
const SIDES: Record<Side, 'left' | 'right' | 'top' | 'bottom'> = {
  l: 'left',
  r: 'right',
  t: 'top',
  b: 'bottom',
};
type FBorder = Partial<Record<Side, { style: number; color: string }>>;

// ——————————————————————————————————————————————————————————— dates

const DAY_MS = 86_400_000;
/** Excel's serial day of a Date as ExcelJS gives it (UTC midnight = the day). */
function toSerial(d: Date, date1904: boolean): number {
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  return Math.round(((d.getTime() - epoch) / DAY_MS) * 1e8) / 1e8;
}

function isDateFormat(fmt: string): boolean {
  // Quoted text and [colours] aside, a d, m(onth), y, h or s code makes it a date/time format.
  const bare = fmt.replace(/"[^"]*"|\[[^\]]*\]|\\./g, '');
  return /[dyhs]/i.test(bare) || /(^|[^0#?,.])m/i.test(bare);
}

// ——————————————————————————————————————————————————————————— reading

interface ReadCtx {
  date1904: boolean;
  maxCells: number;
  /** Cells read so far, over all sheets. */
  cells: number;
}

function styleOf(cell: ExcelJS.Cell): CellStyle & { bg?: string } {
  const s: CellStyle & { bg?: string } = {};
  const f = cell.font;
  if (f) {
    if (f.bold) s.bl = 1;
    if (f.italic) s.it = 1;
    if (f.underline) s.un = 1;
    if (f.strike) s.cl = 1;
    if (f.name) s.ff = f.name;
    if (f.size) s.fs = f.size;
    const fc = argbToHex(f.color?.argb);
    if (fc) s.fc = fc;
  }
  const fill = cell.fill;
  if (fill?.type === 'pattern' && fill.pattern === 'solid') {
    const bg = argbToHex(fill.fgColor?.argb);
    if (bg) s.bg = bg;
  }
  const a = cell.alignment;
  if (a) {
    if (a.horizontal && a.horizontal in H_TO_F) s.ht = H_TO_F[a.horizontal];
    if (a.vertical && a.vertical in V_TO_F) s.vt = V_TO_F[a.vertical];
    if (a.wrapText) s.tb = '2';
  }
  return s;
}

function borderOf(cell: ExcelJS.Cell): FBorder | null {
  const b = cell.border;
  if (!b) return null;
  const out: FBorder = {};
  for (const [k, side] of Object.entries(SIDES) as [Side, keyof ExcelJS.Borders][]) {
    const edge = b[side] as Partial<ExcelJS.Border> | undefined;
    const style = edge?.style ? BORDER_STYLES.indexOf(edge.style as (typeof BORDER_STYLES)[number]) : -1;
    if (style > 0) out[k] = { style, color: argbToHex(edge?.color?.argb) ?? '#000000' };
  }
  return Object.keys(out).length ? out : null;
}

/** A plain value (number, text, boolean, date, error) as fortune-sheet's v, ct and m. */
function plain(value: unknown, fmt: string, ctx: ReadCtx): Pick<FCell, 'v' | 'm' | 'ct'> | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    const serial = toSerial(value, ctx.date1904);
    const fa = isDateFormat(fmt) ? fmt : 'yyyy-mm-dd';
    return { v: serial, ct: { fa, t: 'd' }, m: String(formatValue(fa, serial)) };
  }
  if (typeof value === 'number') {
    const t = isDateFormat(fmt) ? 'd' : 'n';
    return { v: value, ct: { fa: fmt, t }, m: String(formatValue(fmt, value)) };
  }
  if (typeof value === 'boolean') {
    return { v: value, ct: { fa: DEFAULT_FMT, t: 'b' }, m: value ? 'TRUE' : 'FALSE' };
  }
  if (typeof value === 'object' && 'error' in (value as object)) {
    const e = String((value as { error: unknown }).error);
    return { v: e, ct: { fa: DEFAULT_FMT, t: 'e' }, m: e };
  }
  const text = String(value);
  return { v: text, ct: { fa: fmt === '@' ? '@' : DEFAULT_FMT, t: fmt === '@' ? 's' : 'g' }, m: text };
}

type RichRun = { text: string; font?: Partial<ExcelJS.Font> };

function cellOf(cell: ExcelJS.Cell, ctx: ReadCtx): FCell | null {
  const fmt = cell.numFmt || DEFAULT_FMT;
  const style = styleOf(cell);
  const v = cell.value as unknown;
  let out: FCell | null;
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    const o = v as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) {
      const formula = cell.formula;
      const result = plain(o.result, fmt, ctx);
      out = {
        ...(result ?? { ct: { fa: fmt, t: isDateFormat(fmt) ? 'd' : 'n' } }),
        f: `=${formula}`,
      };
    } else if ('richText' in o) {
      const runs = (o.richText as RichRun[]) ?? [];
      out = {
        v: runs.map((r) => r.text).join(''),
        ct: {
          fa: DEFAULT_FMT,
          t: 'inlineStr',
          s: runs.map((r) => ({
            v: r.text,
            ...(r.font?.bold ? { bl: 1 } : {}),
            ...(r.font?.italic ? { it: 1 } : {}),
            ...(r.font?.underline ? { un: 1 } : {}),
            ...(r.font?.strike ? { cl: 1 } : {}),
            ...(r.font?.size ? { fs: r.font.size } : {}),
            ...(r.font?.name ? { ff: r.font.name } : {}),
            ...(argbToHex(r.font?.color?.argb) ? { fc: argbToHex(r.font?.color?.argb) } : {}),
          })),
        },
      };
    } else if ('hyperlink' in o || 'text' in o) {
      out = plain(typeof o.text === 'string' ? o.text : String(o.text ?? ''), fmt, ctx);
    } else {
      out = plain(v, fmt, ctx);
    }
  } else {
    out = plain(v, fmt, ctx);
  }
  if (!out && Object.keys(style).length === 0 && fmt === DEFAULT_FMT) return null;
  return {
    ...(out ?? {}),
    ...(out?.ct ? {} : fmt !== DEFAULT_FMT ? { ct: { fa: fmt, t: 'n' } } : {}),
    ...style,
  };
}

/** "B2:C3" → 0-based corners. */
function rangeOf(ref: string) {
  const m = /^\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?$/.exec(ref);
  if (!m) return null;
  const col = (s: string) => [...s].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0) - 1;
  const top = Number(m[2]) - 1;
  const left = col(m[1]!);
  return { top, left, bottom: m[4] ? Number(m[4]) - 1 : top, right: m[3] ? col(m[3]) : left };
}

function columnName(index0: number): string {
  let s = '';
  for (let i = index0 + 1; i > 0; i = Math.floor((i - 1) / 26))
    s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
}
const a1 = (r: number, c: number) => `${columnName(c)}${r + 1}`;

function sheetOf(ws: ExcelJS.Worksheet, order: number, ctx: ReadCtx): FSheet {
  const celldata: NonNullable<FSheet['celldata']> = [];
  const borderInfo: unknown[] = [];
  const merge: NonNullable<NonNullable<FSheet['config']>['merge']> = {};
  const covered = new Set<string>();
  for (const ref of ws.model.merges ?? []) {
    const m = rangeOf(ref);
    if (!m) continue;
    merge[`${m.top}_${m.left}`] = {
      r: m.top,
      c: m.left,
      rs: m.bottom - m.top + 1,
      cs: m.right - m.left + 1,
    };
    for (let r = m.top; r <= m.bottom; r++)
      for (let c = m.left; c <= m.right; c++) if (r !== m.top || c !== m.left) covered.add(`${r}_${c}`);
  }
  ws.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    row.eachCell({ includeEmpty: true }, (cell, colNumber) => {
      const r = rowNumber - 1;
      const c = colNumber - 1;
      if (++ctx.cells > ctx.maxCells) throw new TooLargeToEdit();
      const border = borderOf(cell);
      if (border) borderInfo.push({ rangeType: 'cell', value: { row_index: r, col_index: c, ...border } });
      if (covered.has(`${r}_${c}`)) return;
      const v = cellOf(cell, ctx);
      if (v) celldata.push({ r, c, v });
    });
  });
  // Merged areas: the master spans them, every covered cell points at it.
  for (const mc of Object.values(merge)) {
    const at = celldata.find((d) => d.r === mc.r && d.c === mc.c);
    if (at?.v) at.v.mc = { ...mc };
    else celldata.push({ r: mc.r, c: mc.c, v: { mc: { ...mc } } });
    for (let r = mc.r; r < mc.r + mc.rs; r++)
      for (let c = mc.c; c < mc.c + mc.cs; c++)
        if (r !== mc.r || c !== mc.c) celldata.push({ r, c, v: { mc: { r: mc.r, c: mc.c } } });
  }

  const columnlen: Record<string, number> = {};
  const colhidden: Record<string, number> = {};
  for (let c = 1; c <= ws.columnCount; c++) {
    const col = ws.getColumn(c);
    if (col.width !== undefined) columnlen[c - 1] = widthToPx(col.width);
    if (col.hidden) colhidden[c - 1] = 0;
  }
  const rowlen: Record<string, number> = {};
  const rowhidden: Record<string, number> = {};
  ws.eachRow({ includeEmpty: true }, (row, n) => {
    if (row.height !== undefined) rowlen[n - 1] = heightToPx(row.height);
    if (row.hidden) rowhidden[n - 1] = 0;
  });

  const view = ws.views?.[0] as Partial<ExcelJS.WorksheetViewFrozen> | undefined;
  let frozen: FSheet['frozen'];
  if (view?.state === 'frozen' && ((view.xSplit ?? 0) > 0 || (view.ySplit ?? 0) > 0)) {
    const x = view.xSplit ?? 0;
    const y = view.ySplit ?? 0;
    frozen = {
      type: x && y ? 'rangeBoth' : y ? 'rangeRow' : 'rangeColumn',
      range: { row_focus: Math.max(0, y - 1), column_focus: Math.max(0, x - 1) },
    };
  }

  // fortune-sheet recalculates only the formulas listed in calcChain: without it, a total would
  // keep its old result when a figure it adds up changes.
  const id = `${ID_PREFIX}${ws.id}`;
  const calcChain = celldata.filter((d) => d.v?.f).map((d) => ({ r: d.r, c: d.c, id }));
  const lastRow = celldata.reduce((n, d) => Math.max(n, d.r), 0);
  const lastCol = celldata.reduce((n, d) => Math.max(n, d.c), 0);
  return {
    id,
    name: ws.name,
    order,
    status: 0,
    hide: ws.state && ws.state !== 'visible' ? 1 : 0,
    celldata,
    // Room to type below and beside the data, as a spreadsheet offers.
    row: Math.max(lastRow + 1 + 50, 84),
    column: Math.max(lastCol + 1 + 10, 26),
    config: {
      merge,
      columnlen,
      rowlen,
      ...(Object.keys(colhidden).length ? { colhidden } : {}),
      ...(Object.keys(rowhidden).length ? { rowhidden } : {}),
      ...(borderInfo.length ? { borderInfo } : {}),
    },
    ...(frozen ? { frozen } : {}),
    ...(calcChain.length ? { calcChain } : {}),
    // Without a selection of its own, fortune-sheet names the first cell "A1:NaN".
    luckysheet_select_save: [{ row: [0, 0], column: [0, 0], row_focus: 0, column_focus: 0 }],
  };
}

async function load(bytes: ArrayBuffer | Uint8Array): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as ArrayBuffer);
  return wb;
}

const readCtx = (wb: ExcelJS.Workbook, maxCells = Infinity): ReadCtx => ({
  date1904: Boolean((wb.properties as { date1904?: boolean } | undefined)?.date1904),
  maxCells,
  cells: 0,
});

/** A workbook in fortune-sheet's model; throws TooLargeToEdit beyond `maxCells` cells (all sheets). */
export async function readWorkbook(
  bytes: ArrayBuffer | Uint8Array,
  { maxCells = EDIT_MAX_CELLS }: { maxCells?: number } = {},
): Promise<FSheet[]> {
  const wb = await load(bytes);
  const ctx = readCtx(wb, maxCells);
  const sheets = wb.worksheets.map((ws, i) => sheetOf(ws, i, ctx));
  if (sheets.length === 0) {
    sheets.push({
      name: 'Sheet1',
      id: `${ID_PREFIX}new`,
      order: 0,
      status: 1,
      celldata: [],
      config: {},
      luckysheet_select_save: [{ row: [0, 0], column: [0, 0], row_focus: 0, column_focus: 0 }],
    });
  }
  const active = (wb.views?.[0] as { activeTab?: number } | undefined)?.activeTab ?? 0;
  const shown = sheets.filter((s) => !s.hide);
  (shown[active] ?? shown[0] ?? sheets[0]!).status = 1;
  return sheets;
}

// ——————————————————————————————————————————————————————————— writing

/** What of a cell fortune-sheet models, as one comparable string. */
function projection(cell: FCell | null | undefined, border: FBorder | undefined): string {
  const c = cell ?? {};
  const fa = c.ct?.fa ?? DEFAULT_FMT;
  const rich =
    c.ct?.t === 'inlineStr' && Array.isArray(c.ct.s)
      ? (c.ct.s as Record<string, unknown>[]).map((r) => [
          r.v,
          r.bl ? 1 : 0,
          r.it ? 1 : 0,
          r.un ? 1 : 0,
          r.cl ? 1 : 0,
          r.fs ?? null,
          r.ff ?? null,
          normColor(r.fc as string | undefined) ?? null,
        ])
      : null;
  // A formula's result counts too: LibreOffice shows the cached result without recalculating.
  const value = rich ? null : c.v === undefined || c.v === '' ? null : c.v;
  return JSON.stringify([
    c.f ? c.f.replace(/^=/, '') : null,
    typeof value === 'number' ? Number(value.toPrecision(15)) : value,
    rich,
    fa === 'General' ? DEFAULT_FMT : fa,
    c.bl ? 1 : 0,
    c.it ? 1 : 0,
    c.un ? 1 : 0,
    c.cl ? 1 : 0,
    c.ff ?? null,
    c.fs ?? null,
    normColor(c.fc) ?? null,
    normColor(c.bg) ?? null,
    c.ht ?? null,
    c.vt ?? null,
    c.tb === '2' ? 1 : 0,
    border
      ? (['l', 'r', 't', 'b'] as Side[]).map((k) =>
          border[k] ? [border[k]!.style, normColor(border[k]!.color) ?? '#000000'] : null,
        )
      : null,
  ]);
}

/** A sheet's cells as a grid lookup, whichever of data or celldata fortune-sheet holds. */
function gridOf(sheet: FSheet): Grid {
  const out = new Map<string, FCell>();
  if (sheet.data) {
    sheet.data.forEach((row, r) =>
      row?.forEach((cell, c) => {
        if (cell) out.set(`${r}_${c}`, cell);
      }),
    );
  } else {
    for (const d of sheet.celldata ?? []) if (d.v) out.set(`${d.r}_${d.c}`, d.v);
  }
  return out;
}

function bordersOf(sheet: FSheet, grid: Map<string, FCell>): Record<string, FBorder> {
  if (!sheet.config?.borderInfo?.length) return {};
  let rows = 0;
  let cols = 0;
  for (const key of grid.keys()) {
    const [r, c] = key.split('_').map(Number);
    rows = Math.max(rows, r! + 1);
    cols = Math.max(cols, c! + 1);
  }
  for (const b of sheet.config.borderInfo as {
    rangeType?: string;
    value?: { row_index: number; col_index: number };
    range?: { row: number[]; column: number[] }[];
  }[]) {
    if (b.rangeType === 'cell' && b.value) {
      rows = Math.max(rows, b.value.row_index + 1);
      cols = Math.max(cols, b.value.col_index + 1);
    }
    for (const r of b.range ?? []) {
      rows = Math.max(rows, (r.row[1] ?? 0) + 1);
      cols = Math.max(cols, (r.column[1] ?? 0) + 1);
    }
  }
  // The helper reads `data` for its size; give it a grid of that size.
  const data = Array.from({ length: rows }, () => Array.from({ length: cols }, () => null));
  const id = sheet.id ?? 'sheet';
  const computed = getBorderInfoComputeRange(
    { luckysheetfile: [{ ...sheet, id, data }], currentSheetId: id } as never,
    0,
    rows,
    0,
    cols,
    id,
  ) as Record<string, FBorder>;
  return computed ?? {};
}

function fontOf(c: FCell, base: Partial<ExcelJS.Font> | undefined): Partial<ExcelJS.Font> {
  const font: Partial<ExcelJS.Font> = { ...(base ?? {}) };
  const set = <K extends keyof ExcelJS.Font>(k: K, v: ExcelJS.Font[K] | undefined) => {
    if (v === undefined || v === false) delete font[k];
    else font[k] = v;
  };
  set('bold', c.bl ? true : undefined);
  set('italic', c.it ? true : undefined);
  set('underline', c.un ? true : undefined);
  set('strike', c.cl ? true : undefined);
  if (c.ff !== undefined && c.ff !== '') font.name = String(c.ff);
  if (c.fs !== undefined) font.size = Number(c.fs);
  const argb = colorToArgb(c.fc);
  if (argb) font.color = { argb };
  return font;
}

function writeValue(target: ExcelJS.Cell, c: FCell) {
  if (c.f) {
    const result =
      c.v === undefined || c.v === ''
        ? undefined
        : c.ct?.t === 'e' && typeof c.v === 'string'
          ? { error: c.v }
          : c.v;
    target.value = {
      formula: c.f.replace(/^=/, ''),
      ...(result !== undefined ? { result: result as ExcelJS.CellFormulaValue['result'] } : {}),
    } as ExcelJS.CellFormulaValue;
    return;
  }
  if (c.ct?.t === 'inlineStr' && Array.isArray(c.ct.s) && c.ct.s.length) {
    target.value = {
      richText: (c.ct.s as (CellStyle & { v?: string })[]).map((run) => ({
        text: run.v ?? '',
        font: fontOf(run as FCell, undefined),
      })),
    };
    return;
  }
  if (c.v === undefined || c.v === null || c.v === '') {
    target.value = null;
    return;
  }
  if (typeof c.v === 'number' || typeof c.v === 'boolean') {
    target.value = c.v;
    return;
  }
  // fortune-sheet keeps what was typed as text when it is not a number it recognised.
  target.value = String(c.v);
}

function writeStyle(target: ExcelJS.Cell, c: FCell, border: FBorder | undefined, was: string) {
  // Every object is new: ExcelJS shares style objects between cells.
  target.font = fontOf(c, target.font);
  if (c.bg && colorToArgb(c.bg)) {
    target.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: colorToArgb(c.bg)! } };
  } else if (target.fill?.type === 'pattern' && target.fill.pattern === 'solid') {
    target.fill = { type: 'pattern', pattern: 'none' };
  }
  const alignment: Partial<ExcelJS.Alignment> = { ...(target.alignment ?? {}) };
  if (c.ht !== undefined && F_TO_H[c.ht]) alignment.horizontal = F_TO_H[c.ht];
  else delete alignment.horizontal;
  if (c.vt !== undefined && F_TO_V[c.vt]) alignment.vertical = F_TO_V[c.vt];
  else delete alignment.vertical;
  if (c.tb === '2') alignment.wrapText = true;
  else delete alignment.wrapText;
  target.alignment = alignment;
  target.numFmt = c.ct?.fa && c.ct.fa !== 'General' ? c.ct.fa : DEFAULT_FMT;
  // Borders only when fortune-sheet's differ from what was read (it knows fewer kinds).
  const before = JSON.parse(was) as unknown[];
  const after = JSON.parse(projection(c, border)) as unknown[];
  if (JSON.stringify(before.at(-1)) !== JSON.stringify(after.at(-1))) {
    const next: Partial<ExcelJS.Borders> = {};
    for (const [k, side] of Object.entries(SIDES) as [Side, 'left' | 'right' | 'top' | 'bottom'][]) {
      const edge = border?.[k];
      const style = edge ? BORDER_STYLES[edge.style] : undefined;
      if (edge && style) next[side] = { style, color: { argb: colorToArgb(edge.color) ?? 'FF000000' } };
    }
    target.border = next as ExcelJS.Borders;
  }
}

const mergeKey = (m: { r: number; c: number; rs: number; cs: number }) => `${m.r}_${m.c}_${m.rs}_${m.cs}`;
const mergeRange = (m: { r: number; c: number; rs: number; cs: number }) =>
  `${a1(m.r, m.c)}:${a1(m.r + m.rs - 1, m.c + m.cs - 1)}`;

/** What a write touched (tests and the benchmark read it). */
export interface WriteStats {
  /** Cells written because they differ from what reading produced. */
  cells: string[];
}

function writeSheet(
  ws: ExcelJS.Worksheet,
  before: FSheet | undefined,
  after: FSheet,
  newGrid: Grid,
  stats: WriteStats,
) {
  const oldGrid = before ? gridOf(before) : new Map<string, FCell>();
  const oldBorders = before ? bordersOf(before, oldGrid) : {};
  const newBorders = bordersOf(after, newGrid);

  // Merges first: ExcelJS refuses values written into a merged area's covered cells.
  const oldMerges = new Map(Object.values(before?.config?.merge ?? {}).map((m) => [mergeKey(m), m]));
  const newMerges = new Map(Object.values(after.config?.merge ?? {}).map((m) => [mergeKey(m), m]));
  for (const [key, m] of oldMerges) if (!newMerges.has(key)) ws.unMergeCells(mergeRange(m));

  const keys = new Set([
    ...oldGrid.keys(),
    ...newGrid.keys(),
    ...Object.keys(oldBorders),
    ...Object.keys(newBorders),
  ]);
  const covered = new Set<string>();
  for (const m of newMerges.values())
    for (let r = m.r; r < m.r + m.rs; r++)
      for (let c = m.c; c < m.c + m.cs; c++) if (r !== m.r || c !== m.c) covered.add(`${r}_${c}`);
  for (const key of keys) {
    if (covered.has(key)) continue;
    const was = projection(oldGrid.get(key), oldBorders[key]);
    const now = projection(newGrid.get(key), newBorders[key]);
    if (was === now) continue;
    const [r, c] = key.split('_').map(Number) as [number, number];
    const target = ws.getCell(r + 1, c + 1);
    stats.cells.push(`${ws.name}!${target.address}`);
    const cell = newGrid.get(key) ?? {};
    writeValue(target, cell);
    writeStyle(target, cell, newBorders[key], was);
  }
  for (const [key, m] of newMerges) if (!oldMerges.has(key)) ws.mergeCells(mergeRange(m));

  // Column widths and row heights that changed; hidden rows and columns.
  const cfgBefore = before?.config ?? {};
  const cfgAfter = after.config ?? {};
  const cols = new Set([...Object.keys(cfgBefore.columnlen ?? {}), ...Object.keys(cfgAfter.columnlen ?? {})]);
  for (const k of cols) {
    const a = cfgAfter.columnlen?.[k];
    if (a !== cfgBefore.columnlen?.[k] && a !== undefined) ws.getColumn(Number(k) + 1).width = pxToWidth(a);
  }
  const rows = new Set([...Object.keys(cfgBefore.rowlen ?? {}), ...Object.keys(cfgAfter.rowlen ?? {})]);
  for (const k of rows) {
    const a = cfgAfter.rowlen?.[k];
    if (a !== cfgBefore.rowlen?.[k] && a !== undefined) ws.getRow(Number(k) + 1).height = pxToHeight(a);
  }
  for (const [key, get] of [
    ['colhidden', (i: number) => ws.getColumn(i + 1)],
    ['rowhidden', (i: number) => ws.getRow(i + 1)],
  ] as const) {
    const b = cfgBefore[key] ?? {};
    const a = cfgAfter[key] ?? {};
    for (const k of new Set([...Object.keys(b), ...Object.keys(a)])) {
      if (k in a !== k in b) get(Number(k)).hidden = k in a;
    }
  }

  if (JSON.stringify(before?.frozen ?? null) !== JSON.stringify(after.frozen ?? null)) {
    const f = after.frozen;
    const focus = f?.range ?? { row_focus: 0, column_focus: 0 };
    const y = f && /row|both/i.test(f.type) ? focus.row_focus + 1 : 0;
    const x = f && /column|both/i.test(f.type) ? focus.column_focus + 1 : 0;
    ws.views = x || y ? [{ state: 'frozen', xSplit: x, ySplit: y }] : [{ state: 'normal' }];
  }
  ws.state = after.hide ? 'hidden' : 'visible';
}

/**
 * The edited sheets written over the original workbook; only what changed is touched (see the
 * comment at the top). Sheets keep their identity by fortune-sheet id (`ws-<ExcelJS id>`):
 * renamed, reordered, added and deleted sheets all follow.
 */
export async function writeWorkbook(
  original: ArrayBuffer | Uint8Array,
  sheets: FSheet[],
  stats: WriteStats = { cells: [] },
): Promise<Uint8Array> {
  const wb = await load(original);
  const ctx = readCtx(wb);
  const before = new Map(wb.worksheets.map((ws, i) => [`${ID_PREFIX}${ws.id}`, sheetOf(ws, i, ctx)]));
  // Shared formulas point at a master cell; a master the person changed would strand them.
  for (const ws of wb.worksheets) {
    ws.eachRow((row) =>
      row.eachCell((cell) => {
        const v = cell.value as { sharedFormula?: string; result?: unknown } | null;
        if (v && typeof v === 'object' && 'sharedFormula' in v) {
          cell.value = { formula: cell.formula, result: v.result } as ExcelJS.CellFormulaValue;
        }
      }),
    );
  }
  // A workbook without a theme part (LibreOffice's, the product's blank) loads with an empty
  // theme list, and ExcelJS would then write a relationship to a theme it never writes: Excel
  // reports such a file as damaged. Without a list, ExcelJS writes its default theme instead.
  const book = wb as unknown as { _themes?: Record<string, unknown> };
  if (!book._themes || Object.keys(book._themes).length === 0) book._themes = undefined;
  const ordered = [...sheets].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  // Every formula's result, fresh (xlsx-recalc.ts): what LibreOffice will show.
  const grids = ordered.map(gridOf);
  const results = recalculate(ordered.map((sh, i) => ({ name: sh.name, grid: grids[i]! })));
  grids.forEach((grid, i) => {
    for (const [k, value] of results.get(i)!) {
      const cell = grid.get(k)!;
      const error = value && typeof value === 'object' && 'error' in value ? String(value.error) : null;
      grid.set(k, {
        ...cell,
        v: (error ?? value) as FCell['v'],
        ct: { ...(cell.ct ?? { fa: DEFAULT_FMT }), t: error ? 'e' : (cell.ct?.t ?? 'n') },
      });
    }
  });
  const kept = new Set<number>();
  const placed: ExcelJS.Worksheet[] = [];
  for (const [i, s] of ordered.entries()) {
    const id = s.id?.startsWith(ID_PREFIX) ? Number(s.id.slice(ID_PREFIX.length)) : NaN;
    let ws = Number.isInteger(id) ? wb.getWorksheet(id) : undefined;
    if (ws && kept.has(ws.id)) ws = undefined;
    if (!ws) ws = wb.addWorksheet(s.name);
    else if (ws.name !== s.name) ws.name = s.name;
    kept.add(ws.id);
    placed.push(ws);
    writeSheet(ws, before.get(`${ID_PREFIX}${ws.id}`), s, grids[i]!, stats);
  }
  for (const ws of wb.worksheets) if (!kept.has(ws.id)) wb.removeWorksheet(ws.id);
  // ExcelJS writes sheets by orderNo (not in its typings).
  placed.forEach((ws, i) => ((ws as ExcelJS.Worksheet & { orderNo: number }).orderNo = i));
  const active = Math.max(
    0,
    ordered.findIndex((s) => s.status === 1),
  );
  wb.views = [{ ...(wb.views?.[0] ?? {}), activeTab: active, firstSheet: 0 } as ExcelJS.WorkbookView];
  // Excel and WPS recalculate on opening; the cached results fortune-sheet computed serve the rest.
  wb.calcProperties = { ...(wb.calcProperties ?? {}), fullCalcOnLoad: true };
  return new Uint8Array(await wb.xlsx.writeBuffer());
}
