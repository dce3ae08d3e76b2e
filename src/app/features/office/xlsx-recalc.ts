import type { Cell as FCell } from '@fortune-sheet/core';
import { Parser } from '@fortune-sheet/formula-parser';

/*
 * Every formula's result, recomputed over the whole workbook when it is saved.
 *
 * A saved xlsx carries each formula's last result, and LibreOffice shows those results as they
 * are (it does not recalculate an xlsx on opening by default; Excel and WPS do). fortune-sheet
 * recalculates while the person edits, but not formulas on other sheets than the one changed
 * (统计!B2 = AVERAGE(藏品清单!D3:D6) kept its old average). So before writing, every formula of
 * every sheet is evaluated again with fortune-sheet's own engine, in passes until nothing
 * changes (a formula that reads another formula settles one pass later).
 *
 * Where the engine cannot evaluate a formula (a function it does not know, syntax it does not
 * read), the result the cell already has is kept: Excel and WPS recalculate it on opening.
 */

export type Grid = Map<string, FCell>;

/** Errors that mean "this engine cannot", not "the formula's answer is an error". */
const CANNOT = new Set(['#NAME?', '#ERROR!']);
const ERRORS = /^#?(DIV\/0|N\/A|NAME\?|NUM|VALUE|REF|NULL)!?$/;
const MAX_PASSES = 20;

const key = (r: number, c: number) => `${r}_${c}`;

function plain(cell: FCell | undefined): unknown {
  if (!cell || cell.v === undefined || cell.v === '') return null;
  return cell.v;
}

/** `藏品清单!A1` → `'藏品清单'!A1`: the engine reads only quoted or plain-Latin sheet names. */
function quoteSheets(formula: string, names: readonly string[]): string {
  let out = formula;
  for (const name of [...names].sort((a, b) => b.length - a.length)) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`(^|[^'\\w\\u0080-\\uffff])${escaped}!`, 'g'), (_m, before: string) => {
      return `${before}'${name.replace(/'/g, "''")}'!`;
    });
  }
  return out;
}

/** The engine's answer as a cell value: numbers, text, booleans, or an error such as #DIV/0!. */
function normalise(result: unknown): unknown {
  if (typeof result === 'string') {
    const m = ERRORS.exec(result);
    if (m) return { error: `#${m[1]}${m[1]!.endsWith('?') || m[1] === 'N/A' ? '' : '!'}` };
  }
  if (result instanceof Error) return { error: '#VALUE!' };
  if (Array.isArray(result)) return normalise(result.flat()[0]);
  return result;
}

/**
 * The recomputed result of every formula cell, per sheet (by the sheets' order in `sheets`) and
 * cell key `r_c`. Cells the engine cannot evaluate are absent: keep what they hold.
 */
export function recalculate(
  sheets: readonly { name: string; grid: Grid }[],
): Map<number, Map<string, unknown>> {
  const names = sheets.map((s) => s.name);
  const index = new Map(names.map((n, i) => [n, i]));
  const results = new Map<number, Map<string, unknown>>(sheets.map((_, i) => [i, new Map()]));
  const formulas: { sheet: number; key: string; text: string }[] = [];
  sheets.forEach((s, i) => {
    for (const [k, cell] of s.grid)
      if (cell.f) formulas.push({ sheet: i, key: k, text: quoteSheets(cell.f.replace(/^=/, ''), names) });
  });
  if (formulas.length === 0) return results;

  const valueAt = (sheet: number, r: number, c: number): unknown => {
    const k = key(r, c);
    const own = results.get(sheet)!;
    if (own.has(k)) {
      const v = own.get(k);
      return v && typeof v === 'object' && 'error' in v ? (v as { error: string }).error : v;
    }
    return plain(sheets[sheet]?.grid.get(k));
  };
  const sheetOf = (name: string | null | undefined, options: object) =>
    name ? (index.get(name) ?? -1) : (options as { sheet: number }).sheet;

  const parser = new Parser();
  parser.on('callCellValue', (coord, options, done) => {
    const sheet = sheetOf(coord.sheetName, options);
    done(sheet < 0 ? null : valueAt(sheet, coord.row.index, coord.column.index));
  });
  parser.on('callRangeValue', (start, end, options, done) => {
    const sheet = sheetOf(start.sheetName, options);
    const rows: unknown[][] = [];
    for (let r = start.row.index; r <= end.row.index; r++) {
      const row: unknown[] = [];
      for (let c = start.column.index; c <= end.column.index; c++)
        row.push(sheet < 0 ? null : valueAt(sheet, r, c));
      rows.push(row);
    }
    done(rows);
  });

  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let changed = false;
    for (const f of formulas) {
      const { error, result } = parser.parse(f.text, { sheet: f.sheet });
      if (error && CANNOT.has(error)) continue;
      const value = error ? { error } : normalise(result);
      const own = results.get(f.sheet)!;
      if (JSON.stringify(own.get(f.key)) !== JSON.stringify(value)) {
        own.set(f.key, value);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return results;
}
