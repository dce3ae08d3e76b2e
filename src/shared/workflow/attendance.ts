import type { FormField, WorkflowDefinition } from './definition';
import { UNIT } from './definition';
import { halfDaySlots, isHalf, type RangeValue } from './duration';
import { toHundredths } from './conditions';
import { DAY_MS, museumDate, museumDayIndex, parseMuseumDate } from '../rules/museum-time';

/**
 * Attendance (考勤, issue 8): approved leave, travel and overtime days, derived from approved
 * requests. Pure, so the server's tables and the tests share one rule.
 *
 * - Which template counts: the definition's `attendanceKind` when set ('none' never counts);
 *   otherwise the template's name: 请假 leave, 出差 travel, 加班 overtime. Other templates never count.
 * - How much: the form's first date-range field's `duration`, in the field's unit. Hours become
 *   days at WORK_HOURS_PER_DAY (8, a working day; the condition rules' 24 h day compares lengths
 *   of time, this one counts working time).
 * - Which month: a request whose dates span several months is split by its parts in each: half
 *   days (上午/下午, shared/workflow/duration.ts) for a range in days, museum days for one in
 *   hours. Each month gets the share of the duration that its parts are of the whole; the last
 *   month takes the rounding remainder, so the months always add up to the request.
 * - Only passed requests (status 6) count; the caller filters, refused, cancelled and running
 *   requests never reach these functions.
 *
 * Amounts are kept in hundredths of a day (integers), so sums never drift.
 */

export const ATTENDANCE_KINDS = ['leave', 'travel', 'overtime'] as const;
export type AttendanceKind = (typeof ATTENDANCE_KINDS)[number];
/** A working day: 8 hours of a duration in hours make one attendance day. */
export const WORK_HOURS_PER_DAY = 8;
/** Seeded and conventional template names, for definitions without `attendanceKind`. */
export const KIND_BY_NAME: Readonly<Record<string, AttendanceKind>> = {
  请假: 'leave',
  出差: 'travel',
  加班: 'overtime',
};
/** The request status that counts (spec §4: 6 passed). */
export const PASSED = 6;

/** 'yyyy-MM', a month in museum time. */
export const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function attendanceKindOf(
  templateName: string,
  definition: Pick<WorkflowDefinition, 'attendanceKind'>,
): AttendanceKind | null {
  const k = definition.attendanceKind;
  if (k === 'none') return null;
  return k ?? KIND_BY_NAME[templateName] ?? null;
}

/** The field whose duration counts: the form's first date range. */
export function durationField(fields: readonly FormField[]): FormField | undefined {
  return fields.find((f) => f.type === 'dateRange');
}

export type { RangeValue };

/** A stored date-range value, or null when it is not one (an old or foreign form). */
export function asRange(v: unknown): RangeValue | null {
  if (typeof v !== 'object' || v === null) return null;
  const r = v as Partial<Record<keyof RangeValue, unknown>>;
  if (typeof r.start !== 'string' || typeof r.end !== 'string' || typeof r.duration !== 'number') return null;
  if (parseMuseumDate(r.start.slice(0, 10)) === null || parseMuseumDate(r.end.slice(0, 10)) === null)
    return null;
  return {
    start: r.start,
    end: r.end,
    ...(isHalf(r.startHalf) && { startHalf: r.startHalf }),
    ...(isHalf(r.endHalf) && { endHalf: r.endHalf }),
    duration: r.duration,
  };
}

/** The duration in hundredths of a day (unit 0 hours at 8 h a day, 1 days). */
export function durationHundredths(duration: number, unit: 0 | 1 | undefined): number {
  const h = toHundredths(duration) ?? 0;
  if (h <= 0) return 0;
  return (unit ?? UNIT.days) === UNIT.hours ? Math.round(h / WORK_HOURS_PER_DAY) : h;
}

/**
 * A request's days by month ('yyyy-MM' → hundredths), split by the parts of its range in each
 * month: half days for a range in days (03-31 下午 → 04-01 上午 gives each month 0.5), museum
 * days for one in hours. An end before the start (not accepted by the form rule) counts on the
 * start's month.
 */
export function splitByMonth(range: RangeValue, unit: 0 | 1 | undefined): Map<string, number> {
  const total = durationHundredths(range.duration, unit);
  const out = new Map<string, number>();
  if (total === 0) return out;
  // Parts: half-day slots (2 a day) for days, whole days for hours.
  const perDay = (unit ?? UNIT.days) === UNIT.days ? 2 : 1;
  const slots =
    perDay === 2
      ? halfDaySlots({ ...range, start: range.start.slice(0, 10), end: range.end.slice(0, 10) })
      : null;
  const startDay = museumDayIndex(parseMuseumDate(range.start.slice(0, 10))!);
  const first = slots?.first ?? startDay * perDay;
  const last =
    slots?.last ??
    Math.max(first, museumDayIndex(parseMuseumDate(range.end.slice(0, 10))!) * perDay + perDay - 1);
  const parts = new Map<string, number>();
  for (let p = first; p <= last; p++) {
    const month = museumDate(Math.floor(p / perDay) * DAY_MS).slice(0, 7);
    parts.set(month, (parts.get(month) ?? 0) + 1);
  }
  const span = last - first + 1;
  let given = 0;
  const months = [...parts.keys()];
  months.forEach((m, i) => {
    const share = i === months.length - 1 ? total - given : Math.round((total * parts.get(m)!) / span);
    given += share;
    out.set(m, share);
  });
  return out;
}

/** Totals of one person or department in hundredths of a day, and how many requests. */
export interface Totals {
  leave: number;
  travel: number;
  overtime: number;
  count: number;
}
export const zeroTotals = (): Totals => ({ leave: 0, travel: 0, overtime: 0, count: 0 });

export interface CountedRequest {
  userId: number;
  kind: AttendanceKind;
  range: RangeValue;
  unit: 0 | 1 | undefined;
}

/** The hundredths a request counts in one month (0 when it does not touch it). */
export function daysInMonth(r: Pick<CountedRequest, 'range' | 'unit'>, month: string): number {
  return splitByMonth(r.range, r.unit).get(month) ?? 0;
}

/** Each person's totals in one month. A request that does not touch the month adds nothing. */
export function totalsByPerson(requests: readonly CountedRequest[], month: string): Map<number, Totals> {
  const out = new Map<number, Totals>();
  for (const r of requests) {
    const n = daysInMonth(r, month);
    if (n === 0) continue;
    const t = out.get(r.userId) ?? zeroTotals();
    t[r.kind] += n;
    t.count += 1;
    out.set(r.userId, t);
  }
  return out;
}

/** Adds `b` into `a` (a department's people). */
export function addTotals(a: Totals, b: Totals): Totals {
  a.leave += b.leave;
  a.travel += b.travel;
  a.overtime += b.overtime;
  a.count += b.count;
  return a;
}

/** Hundredths of a day as the tables show them: 1.5, 2, 0.25. */
export function toDays(hundredths: number): number {
  return hundredths / 100;
}

/** The current month in museum time. */
export function currentMonth(now = Date.now()): string {
  return museumDate(now).slice(0, 7);
}
