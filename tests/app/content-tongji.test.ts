import { describe, expect, it } from 'vitest';
import {
  monthLabels,
  monthSpan,
  presetRange,
  rangeProblem,
  spanDays,
  topBars,
  trendBuckets,
} from '../../src/app/features/content-tongji/tongji-logic';
import { addDays } from '../../src/shared/rules/museum-time';

/**
 * 访问统计's pure logic (features/content-tongji/tongji-logic.ts): the quick ranges end today and
 * include it, the range check says what the server would, the trend groups days into weeks or
 * months when a range is long, months carry their year where it changes, and the top rows'
 * labels are unique and say their kind.
 */

/** A per-day answer of `n` days from `from`, day i viewed i + 1 times and played once. */
function daysOf(from: string, n: number) {
  const days = Array.from({ length: n }, (_, i) => addDays(from, i));
  return { days, views: days.map((_, i) => i + 1), plays: days.map(() => 1) };
}

describe('ranges', () => {
  it('makes the last n museum days, today included', () => {
    expect(presetRange(7, '2026-03-01')).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    expect(presetRange(30, '2026-01-15')).toEqual({ from: '2025-12-17', to: '2026-01-15' });
    expect(spanDays(presetRange(365, '2026-01-15'))).toBe(365);
    expect(spanDays({ from: '2026-03-01', to: '2026-03-01' })).toBe(1);
  });

  it('refuses a backwards range and one longer than 366 days, in the server words', () => {
    expect(rangeProblem({ from: '2026-03-02', to: '2026-03-01' })).toBe('开始日期不能晚于结束日期');
    expect(rangeProblem({ from: '2024-01-01', to: '2024-12-31' })).toBeNull(); // 366 days, a leap year
    expect(rangeProblem({ from: '2025-01-01', to: '2026-01-02' })).toBe(
      '统计范围最长 366 天，请缩短日期范围',
    );
  });
});

describe('the trend', () => {
  it('shows each day of up to a month', () => {
    const { unit, buckets } = trendBuckets(daysOf('2026-02-27', 3));
    expect(unit).toBe('day');
    expect(buckets).toEqual([
      { label: '02-27', views: 1, plays: 1 },
      { label: '02-28', views: 2, plays: 1 },
      { label: '03-01', views: 3, plays: 1 },
    ]);
    expect(trendBuckets(daysOf('2026-01-01', 31)).buckets).toHaveLength(31);
  });

  it('groups weeks from the first day beyond a month, and months beyond half a year, losing nothing', () => {
    const d = daysOf('2026-01-01', 60);
    const weeks = trendBuckets(d);
    expect(weeks.unit).toBe('week');
    expect(weeks.buckets).toHaveLength(9);
    expect(weeks.buckets[0]).toEqual({ label: '01-01', views: 1 + 2 + 3 + 4 + 5 + 6 + 7, plays: 7 });
    expect(weeks.buckets.at(-1)).toEqual({ label: '02-26', views: 57 + 58 + 59 + 60, plays: 4 });
    const year = trendBuckets(daysOf('2025-03-10', 365));
    expect(year.unit).toBe('month');
    expect(year.buckets.map((b) => b.label)).toHaveLength(13);
    expect(year.buckets[0]!.label).toBe('2025-03');
    const sum = (xs: { views: number }[]) => xs.reduce((a, b) => a + b.views, 0);
    expect(sum(year.buckets)).toBe((365 * 366) / 2);
    expect(sum(weeks.buckets)).toBe((60 * 61) / 2);
  });

  it('labels months short and says their span in the title', () => {
    const months = ['2025-11', '2025-12', '2026-01', '2026-02'];
    expect(monthLabels(months)).toEqual(['11月', '12月', '1月', '2月']);
    expect(monthSpan(months)).toBe('2025年11月–2026年2月');
  });
});

describe('the top rows', () => {
  const item = (id: number, title: string, deleted = false) => ({
    record: 'bsExhibition',
    recordTitle: '展览',
    id,
    title,
    views: 10 - id,
    plays: 0,
    deleted,
  });

  it('names a row by its title and kind, says when it was deleted, and keeps labels unique', () => {
    expect(
      topBars([item(1, '江南织造'), item(2, ''), item(3, '青铜时代', true), item(4, '江南织造')]),
    ).toEqual([
      { label: '《江南织造》 展览 #1', value: 9 },
      { label: '展览 #2', value: 8 },
      { label: '《青铜时代》 展览（已删除）', value: 7 },
      { label: '《江南织造》 展览 #4', value: 6 },
    ]);
  });
});
