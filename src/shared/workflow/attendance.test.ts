import { describe, expect, it } from 'vitest';
import {
  asRange,
  attendanceKindOf,
  currentMonth,
  durationHundredths,
  splitByMonth,
  totalsByPerson,
  type CountedRequest,
  type RangeValue,
} from './attendance';

const range = (start: string, end: string, duration: number): RangeValue => ({ start, end, duration });

describe('attendanceKindOf', () => {
  it.each<[string, string, Parameters<typeof attendanceKindOf>[1], string | null]>([
    ['name 请假', '请假', {}, 'leave'],
    ['name 出差', '出差', {}, 'travel'],
    ['name 加班', '加班', {}, 'overtime'],
    ['other names never', '报销', {}, null],
    ['explicit kind wins over the name', '调休申请', { attendanceKind: 'overtime' }, 'overtime'],
    ['none opts a 请假 out', '请假', { attendanceKind: 'none' }, null],
  ])('%s', (_, name, def, want) => expect(attendanceKindOf(name, def)).toBe(want));
});

describe('durationHundredths', () => {
  it.each<[number, 0 | 1 | undefined, number]>([
    [1, 1, 100],
    [2.5, 1, 250],
    [8, 0, 100], // 8 hours are one working day
    [4, 0, 50],
    [3, 0, 38], // 0.375 days, rounded to hundredths
    [1, undefined, 100], // no unit: days
    [0, 1, 0],
    [-2, 1, 0],
  ])('%s in unit %s → %s', (d, unit, want) => expect(durationHundredths(d, unit)).toBe(want));
});

describe('splitByMonth', () => {
  const split = (r: ReturnType<typeof range>, unit: 0 | 1 = 1) => Object.fromEntries(splitByMonth(r, unit));
  it.each<[string, ReturnType<typeof range>, 0 | 1, Record<string, number>]>([
    ['inside one month', range('2026-05-04', '2026-05-06', 3), 1, { '2026-05': 300 }],
    ['two days each side', range('2026-01-30', '2026-02-02', 4), 1, { '2026-01': 200, '2026-02': 200 }],
    // Duration less than the calendar days (a weekend inside): shared in proportion.
    ['proportional', range('2026-01-30', '2026-02-02', 3), 1, { '2026-01': 150, '2026-02': 150 }],
    // 1 of 3 days in March: 0.333… → 0.33, April takes the remainder 0.67.
    [
      'remainder to the last month',
      range('2026-03-31', '2026-04-02', 1),
      1,
      { '2026-03': 33, '2026-04': 67 },
    ],
    ['across the year end', range('2026-12-31', '2027-01-01', 2), 1, { '2026-12': 100, '2027-01': 100 }],
    [
      'three months',
      range('2026-01-31', '2026-03-01', 30),
      1,
      { '2026-01': 100, '2026-02': 2800, '2026-03': 100 },
    ],
    ['hours, with times', range('2026-06-10 18:00', '2026-06-10 22:00', 4), 0, { '2026-06': 50 }],
    ['leap day', range('2028-02-29', '2028-03-01', 2), 1, { '2028-02': 100, '2028-03': 100 }],
    ['zero duration counts nothing', range('2026-05-01', '2026-05-01', 0), 1, {}],
  ])('%s', (_, r, unit, want) => expect(split(r, unit)).toEqual(want));

  it('splits by half days when the ends are 上午/下午', () => {
    const half = (
      start: string,
      startHalf: 'am' | 'pm',
      end: string,
      endHalf: 'am' | 'pm',
      duration: number,
    ) => split({ start, end, startHalf, endHalf, duration });
    expect(half('2026-03-31', 'pm', '2026-04-01', 'am', 1)).toEqual({ '2026-03': 50, '2026-04': 50 });
    expect(half('2026-03-31', 'am', '2026-04-01', 'am', 1.5)).toEqual({ '2026-03': 100, '2026-04': 50 });
    expect(half('2026-03-30', 'pm', '2026-04-02', 'am', 3)).toEqual({ '2026-03': 150, '2026-04': 150 });
    expect(half('2026-05-06', 'pm', '2026-05-06', 'pm', 0.5)).toEqual({ '2026-05': 50 });
  });

  it('the months always add up to the request', () => {
    for (const [s, e, d] of [
      ['2026-01-15', '2026-03-20', 47.33],
      ['2026-07-31', '2026-08-01', 0.01],
      ['2026-02-27', '2026-03-02', 1.11],
    ] as const) {
      const parts = [...splitByMonth(range(s, e, d), 1).values()];
      expect(parts.reduce((a, b) => a + b, 0)).toBe(Math.round(d * 100));
    }
  });
});

describe('asRange', () => {
  it('accepts stored ranges and refuses anything else', () => {
    expect(asRange(range('2026-05-01', '2026-05-02', 2))).toEqual(range('2026-05-01', '2026-05-02', 2));
    expect(asRange(range('2026-05-01 09:00', '2026-05-01 12:00', 3))).not.toBeNull();
    expect(asRange(null)).toBeNull();
    expect(asRange('2026-05-01')).toBeNull();
    expect(asRange({ start: '2026-02-30', end: '2026-03-01', duration: 1 })).toBeNull();
    expect(asRange({ start: '2026-05-01', end: '2026-05-02', duration: '2' })).toBeNull();
    // Halves are kept when they are halves, dropped otherwise.
    expect(asRange({ ...range('2026-05-01', '2026-05-01', 0.5), startHalf: 'pm', endHalf: 'pm' })).toEqual({
      ...range('2026-05-01', '2026-05-01', 0.5),
      startHalf: 'pm',
      endHalf: 'pm',
    });
    expect(asRange({ ...range('2026-05-01', '2026-05-02', 2), startHalf: 'noon' })).toEqual(
      range('2026-05-01', '2026-05-02', 2),
    );
  });
});

describe('totalsByPerson', () => {
  const req = (
    userId: number,
    kind: CountedRequest['kind'],
    r: ReturnType<typeof range>,
    unit: 0 | 1 = 1,
  ) => ({
    userId,
    kind,
    range: r,
    unit,
  });
  const requests: CountedRequest[] = [
    req(1, 'leave', range('2026-01-30', '2026-02-02', 4)),
    req(1, 'leave', range('2026-02-10', '2026-02-10', 1)),
    req(1, 'overtime', range('2026-02-14 09:00', '2026-02-14 13:00', 4), 0),
    req(2, 'travel', range('2026-02-20', '2026-02-22', 3)),
    req(3, 'travel', range('2026-03-01', '2026-03-02', 2)),
  ];
  it('sums each person’s kinds in the month and counts the requests touching it', () => {
    const feb = totalsByPerson(requests, '2026-02');
    expect(Object.fromEntries(feb)).toEqual({
      1: { leave: 300, travel: 0, overtime: 50, count: 3 },
      2: { leave: 0, travel: 300, overtime: 0, count: 1 },
    });
    expect(Object.fromEntries(totalsByPerson(requests, '2026-01'))).toEqual({
      1: { leave: 200, travel: 0, overtime: 0, count: 1 },
    });
    expect(totalsByPerson(requests, '2026-04').size).toBe(0);
  });
});

describe('currentMonth', () => {
  it('is the museum month (UTC+8)', () => {
    expect(currentMonth(Date.UTC(2026, 0, 31, 16, 30))).toBe('2026-02');
    expect(currentMonth(Date.UTC(2026, 0, 31, 15, 59))).toBe('2026-01');
  });
});
