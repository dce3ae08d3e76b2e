import type { Cell } from '@fortune-sheet/core';
import { describe, expect, it } from 'vitest';
import { recalculate, type Grid } from '../../src/app/features/office/xlsx-recalc';

/** A sheet's cells from `{A1: value or '=formula'}`. */
function grid(cells: Record<string, number | string>): Grid {
  const out: Grid = new Map();
  for (const [addr, v] of Object.entries(cells)) {
    const m = /^([A-Z])(\d+)$/.exec(addr)!;
    const key = `${Number(m[2]) - 1}_${m[1]!.charCodeAt(0) - 65}`;
    const cell: Cell = typeof v === 'string' && v.startsWith('=') ? { f: v, v: 0 } : { v };
    out.set(key, cell);
  }
  return out;
}

describe('recalculating a workbook before it is saved', () => {
  it('computes formulas across sheets, CJK names unquoted as Excel writes them, and chains', () => {
    const r = recalculate([
      { name: '藏品清单', grid: grid({ D3: 10, D4: 30, D5: '=SUM(D3:D4)', D6: '=D5*2' }) },
      { name: '统计', grid: grid({ B1: '=AVERAGE(藏品清单!D3:D4)', B2: "='藏品清单'!D6+1", B3: '=B2/0' }) },
    ]);
    expect([...r.get(0)!]).toEqual([
      ['4_3', 40],
      ['5_3', 80],
    ]);
    expect(r.get(1)!.get('0_1')).toBe(20);
    expect(r.get(1)!.get('1_1')).toBe(81);
    expect(r.get(1)!.get('2_1')).toEqual({ error: '#DIV/0!' });
  });

  it('leaves alone what the engine cannot evaluate (the cached result stays)', () => {
    const r = recalculate([{ name: 'Sheet1', grid: grid({ A1: 1, A2: '=XLOOKUP(1,A1:A1,A1:A1)' }) }]);
    expect(r.get(0)!.has('1_0')).toBe(false);
  });

  it('stops on a circular reference instead of looping', () => {
    const r = recalculate([{ name: 'Sheet1', grid: grid({ A1: '=A2+1', A2: '=A1+1' }) }]);
    expect(r.get(0)!.size).toBe(2);
  });
});
