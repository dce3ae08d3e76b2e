import { TONGJI_MAX_DAYS, type TongjiDays, type TongjiTop } from '../../../shared/api/content-stats';
import { DAY_MS, addDays, parseMuseumDate } from '../../../shared/rules/museum-time';

/*
 * The pure part of 访问统计 (tongji-page.tsx): ranges, buckets and labels, unit-tested in
 * tests/app/content-tongji.test.ts. Days are museum days ('yyyy-MM-dd').
 */

/** The quick ranges offered: the last n museum days, today included. */
export const PRESET_DAYS = [7, 30, 90, 365] as const;

export interface DayRange {
  from: string;
  to: string;
}

/** The last `days` museum days ending `today`. */
export function presetRange(days: number, today: string): DayRange {
  return { from: addDays(today, -(days - 1)), to: today };
}

/** Days in a range, both ends included. */
export function spanDays(r: DayRange): number {
  return Math.round((parseMuseumDate(r.to)! - parseMuseumDate(r.from)!) / DAY_MS) + 1;
}

/** Why a chosen range cannot be asked (the server's words), or null. */
export function rangeProblem(r: DayRange): string | null {
  const n = spanDays(r);
  if (n < 1) return '开始日期不能晚于结束日期';
  if (n > TONGJI_MAX_DAYS) return `统计范围最长 ${TONGJI_MAX_DAYS} 天，请缩短日期范围`;
  return null;
}

/** 'yyyy-MM' as a bar's short label ('1月'); the chart's title says the years (`monthSpan`). */
export function monthLabels(months: readonly string[]): string[] {
  return months.map((m) => `${Number(m.slice(5, 7))}月`);
}

/** The months' span for a title: '2025年12月–2026年11月'. */
export function monthSpan(months: readonly string[]): string {
  const say = (m: string) => `${m.slice(0, 4)}年${Number(m.slice(5, 7))}月`;
  return months.length ? `${say(months[0]!)}–${say(months.at(-1)!)}` : '';
}

/** One point of the trend chart: its label and sums. */
export interface Bucket {
  label: string;
  views: number;
  plays: number;
}

/**
 * The per-day answer as points a chart can carry: each day up to a month ('MM-dd'); weeks of
 * seven days from the first day up to half a year (labelled by their first day); months beyond ('yyyy-MM').
 */
export function trendBuckets(d: Pick<TongjiDays, 'days' | 'views' | 'plays'>): {
  unit: 'day' | 'week' | 'month';
  buckets: Bucket[];
} {
  const n = d.days.length;
  const unit = n <= 31 ? 'day' : n <= 186 ? 'week' : 'month';
  const buckets: Bucket[] = [];
  const keyOf = (i: number) =>
    unit === 'day'
      ? d.days[i]!.slice(5)
      : unit === 'week'
        ? d.days[i - (i % 7)]!.slice(5)
        : d.days[i]!.slice(0, 7);
  d.days.forEach((_, i) => {
    const label = keyOf(i);
    let b = buckets.at(-1);
    if (!b || b.label !== label) buckets.push((b = { label, views: 0, plays: 0 }));
    b.views += d.views[i] ?? 0;
    b.plays += d.plays[i] ?? 0;
  });
  return { unit, buckets };
}

/**
 * The top rows as chart bars: 《title》 with its record ('《江南织造》 展览'); a row without a
 * title is named by its record and number; deleted rows say so. Labels are unique (a chart keys
 * its bars by them), so two rows of one title get their numbers.
 */
export function topBars(items: TongjiTop['items']): { label: string; value: number }[] {
  const base = items.map((x) => {
    const name = x.title ? `《${x.title}》 ${x.recordTitle}` : `${x.recordTitle} #${x.id}`;
    return `${name}${x.deleted ? '（已删除）' : ''}`;
  });
  return items.map((x, i) => ({
    label: base.indexOf(base[i]!) === base.lastIndexOf(base[i]!) ? base[i]! : `${base[i]} #${x.id}`,
    value: x.views,
  }));
}
