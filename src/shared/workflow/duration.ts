import { UNIT } from './definition';
import { DATE_RE, MINUTE_RE, museumDayIndex, parseMuseumDate, parseMuseumMinute } from '../rules/museum-time';

/**
 * The length of a date-range field (请假时间, 出差时间, 加班时间), one rule for the start form,
 * the server and attendance (issue 17 §5). The server computes it from the ends and refuses a
 * client that says otherwise; it never stores a length it did not compute.
 *
 * - **Days** (unit 1): each end is a museum day and a half of it, 上午 (`am`) or 下午 (`pm`). A
 *   range counts half-day slots from the start's half to the end's half, both included:
 *   03-02 上午 → 03-04 下午 is 3 days, 03-02 上午 → 03-02 上午 is 0.5, 03-02 下午 → 03-03 上午
 *   is 1. Without halves (requests made before they existed) a range runs from the start's
 *   morning to the end's afternoon: whole days, as it always did. Calendar days: weekends and
 *   holidays count, as museums (open at weekends) run their own duty rosters.
 * - **Hours** (unit 0): 'yyyy-MM-dd HH:mm' ends; the minutes between them, in hours with 2
 *   decimals.
 * All in museum time (UTC+8), whatever zone the tablet or the server is in.
 */

export type Half = 'am' | 'pm';
export const HALVES: readonly Half[] = ['am', 'pm'];
export const HALF_TEXT: Readonly<Record<Half, string>> = { am: '上午', pm: '下午' };

/** At most this many days in one range (a slip of the year, 2062 for 2026, is refused). */
export const RANGE_MAX_DAYS = 366;

/** A range as a form holds it; halves only for a range in days. */
export interface RangeEnds {
  start: string;
  end: string;
  startHalf?: Half;
  endHalf?: Half;
}

/** A stored range: its ends and the duration the server computed, in the field's unit. */
export interface RangeValue extends RangeEnds {
  duration: number;
}

export const isHalf = (v: unknown): v is Half => v === 'am' || v === 'pm';

/** The half-day slots a range in days covers, first and last (2 per museum day), or null. */
export function halfDaySlots(r: RangeEnds): { first: number; last: number } | null {
  const a = DATE_RE.test(r.start) ? parseMuseumDate(r.start) : null;
  const b = DATE_RE.test(r.end) ? parseMuseumDate(r.end) : null;
  if (a === null || b === null) return null;
  const first = 2 * museumDayIndex(a) + (r.startHalf === 'pm' ? 1 : 0);
  const last = 2 * museumDayIndex(b) + (r.endHalf === 'am' ? 0 : 1);
  return last < first ? null : { first, last };
}

/**
 * The duration of a range in the field's unit (days in halves, or hours with 2 decimals); null
 * while an end is missing or not a real date (time), or the end is before the start.
 */
export function rangeDuration(r: RangeEnds, unit: 0 | 1 | undefined): number | null {
  if (unit === UNIT.hours) {
    const a = MINUTE_RE.test(r.start) ? parseMuseumMinute(r.start) : null;
    const b = MINUTE_RE.test(r.end) ? parseMuseumMinute(r.end) : null;
    if (a === null || b === null || b < a) return null;
    return Math.round(((b - a) / 3_600_000) * 100) / 100;
  }
  const slots = halfDaySlots(r);
  return slots ? (slots.last - slots.first + 1) / 2 : null;
}

/** The longest duration a range may have, in the field's unit. */
export function rangeMax(unit: 0 | 1 | undefined): number {
  return unit === UNIT.hours ? RANGE_MAX_DAYS * 24 : RANGE_MAX_DAYS;
}

/**
 * A range as people read it: `2026-03-02 至 2026-03-04`, with the halves when either end is
 * not a whole day (`2026-03-02 下午 至 2026-03-03 上午`).
 */
export function rangeText(r: RangeEnds): string {
  const halves = r.startHalf === 'pm' || r.endHalf === 'am';
  if (!halves) return `${r.start} 至 ${r.end}`;
  return `${r.start} ${HALF_TEXT[r.startHalf ?? 'am']} 至 ${r.end} ${HALF_TEXT[r.endHalf ?? 'pm']}`;
}

/** A duration with its unit: 2.5天, 3.25小时. */
export function durationText(duration: number, unit: 0 | 1 | undefined): string {
  return `${duration}${unit === UNIT.hours ? '小时' : '天'}`;
}
