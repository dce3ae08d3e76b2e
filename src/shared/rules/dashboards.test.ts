import { describe, expect, it } from 'vitest';
import {
  dayLabels,
  exhibitionGroup,
  monthEnd,
  monthLabels,
  openInMonth,
  topWithOther,
  tourSeries,
} from './dashboards';

describe('dashboards shaping', () => {
  it('makes day and month buckets across month and year ends', () => {
    expect(dayLabels('2027-03-01', 3)).toEqual(['2027-02-27', '2027-02-28', '2027-03-01']);
    expect(monthLabels('2027-02-10', 3)).toEqual(['2026-12', '2027-01', '2027-02']);
    expect(monthLabels('2027-02', 12)).toHaveLength(12);
    expect(monthEnd('2028-02')).toBe('2028-02-29');
  });

  it('sums tour rows by source into days or months, ignoring rows outside', () => {
    const rows = [
      { date: '2027-01-30', source: 1, count: 3, minors: 1, teams: 0 },
      { date: '2027-01-31', source: 2, count: 12, minors: 10, teams: 1 },
      { date: '2027-01-31', source: 4, count: 5, minors: 0, teams: 0 },
      { date: '2027-02-01', source: 3, count: 2, minors: 0, teams: 0 },
      { date: '2026-12-01', source: 1, count: 99, minors: 0, teams: 0 },
    ];
    const d = tourSeries(rows, ['2027-01-30', '2027-01-31', '2027-02-01'], 'day');
    expect(d.reserved).toEqual([3, 0, 0]);
    expect(d.team).toEqual([0, 12, 0]);
    expect(d.manual).toEqual([0, 5, 0]);
    expect(d.walkIn).toEqual([0, 0, 2]);
    expect(d.total).toEqual([3, 17, 2]);
    expect(d.minors).toEqual([1, 10, 0]);
    expect(d.teams).toEqual([0, 1, 0]);
    const m = tourSeries(rows, ['2027-01', '2027-02'], 'month');
    expect(m.total).toEqual([20, 2]);
  });

  it('keeps the 9 largest slices and sums the rest as 其他', () => {
    const items = Array.from({ length: 12 }, (_, i) => ({ label: `类${i + 1}`, value: i + 1 }));
    const pie = topWithOther([...items, { label: '空', value: 0 }]);
    expect(pie).toHaveLength(10);
    expect(pie[0]).toEqual({ label: '类12', value: 12 });
    expect(pie[9]).toEqual({ label: '其他', value: 1 + 2 + 3 });
    expect(topWithOther(items.slice(0, 10))).toHaveLength(10);
    expect(
      topWithOther([{ label: '其他', value: 50 }, ...items]).find((i) => i.label === '其他')!.value,
    ).toBe(50 + 1 + 2 + 3);
  });

  it('tells which months an exhibition was open and its group', () => {
    expect(openInMonth('2027-01-15', '2027-03-01', '2027-03')).toBe(true);
    expect(openInMonth('2027-01-15', '2027-02-28', '2027-03')).toBe(false);
    expect(openInMonth('2027-04-01', '', '2027-03')).toBe(false);
    expect(openInMonth('2010-01-01', '', '2027-03')).toBe(true);
    expect(openInMonth('', '', '2027-03')).toBe(false);
    expect([1, 2, 3, 4].map(exhibitionGroup)).toEqual(['permanent', 'temporary', 'temporary', null]);
  });
});
