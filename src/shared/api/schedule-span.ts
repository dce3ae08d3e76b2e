import { parseMuseumMinute } from '../rules/museum-time';

/*
 * Kept apart from schedule.ts's schemas, without zod: the workbench's 今日日程 card draws items
 * by their span (and what a day shows, `overlaps`), and zod would otherwise load with the workbench (issue 25). schedule.ts
 * re-exports it.
 */

/**
 * The span an item covers, in epoch ms: an all-day item runs from 00:00 of its first day to
 * 23:59 of its last, whatever times came with it. Null when a time is not a real minute.
 */
export function scheduleSpan(v: {
  startTime: string;
  endTime: string;
  allDay: boolean;
}): { start: number; end: number } | null {
  const start = parseMuseumMinute(v.allDay ? `${v.startTime.slice(0, 10)} 00:00` : v.startTime);
  const end = parseMuseumMinute(v.allDay ? `${v.endTime.slice(0, 10)} 23:59` : v.endTime);
  return start === null || end === null ? null : { start, end };
}

/**
 * Whether an item shows in [from, to): it starts before the range ends and ends after the
 * range starts. An item of no length (a reminder at 00:00) shows on the day it is at.
 */
export function overlaps(span: { start: number; end: number }, range: { from: number; to: number }) {
  return span.start < range.to && (span.end > range.from || span.start >= range.from);
}
