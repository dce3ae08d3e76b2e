import { parseMuseumMinute } from './museum-time';

/**
 * Volunteer service hours (research/records-design.md §3.3, §10): pure arithmetic shared by the
 * server (which alone decides) and the phone (which shows what it expects). Times are epoch ms;
 * a session's times are museum-local 'yyyy-MM-dd' + 'HH:mm'. Hours are kept as whole minutes
 * (exact, portable integers); 0.5 h is 30 minutes.
 */

export interface HoursRules {
  /** The counting unit in minutes (settings `hoursUnit`, 30 = 0.5 h). */
  unitMinutes: number;
  /** The most one day counts, in minutes (settings `maxHoursPerDay` × 60). */
  maxMinutes: number;
  /** How long before the start a check-in counts (settings `earlyMinutes`). */
  earlyMinutes: number;
  /** How long after the end a check-out is still taken (settings `lateMinutes`). */
  lateMinutes: number;
}

export const DEFAULT_HOURS_RULES: HoursRules = {
  unitMinutes: 30,
  maxMinutes: 8 * 60,
  earlyMinutes: 30,
  lateMinutes: 30,
};

const MINUTE = 60_000;

/** A session's start and end as epoch ms. */
export function sessionWindow(
  date: string,
  startTime: string,
  endTime: string,
): { start: number; end: number } {
  return { start: parseMuseumMinute(`${date} ${startTime}`)!, end: parseMuseumMinute(`${date} ${endTime}`)! };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);

/** The check-in time the server records: the phone's time corrected, inside [start − early, end]. */
export function placeCheckIn(claimed: number, w: { start: number; end: number }, r: HoursRules): number {
  return clamp(claimed, w.start - r.earlyMinutes * MINUTE, w.end);
}

/** The check-out time: the phone's time corrected, inside [in, end + late]. */
export function placeCheckOut(
  claimed: number,
  checkIn: number,
  w: { start: number; end: number },
  r: HoursRules,
): number {
  return clamp(claimed, checkIn, w.end + r.lateMinutes * MINUTE);
}

/** Minutes that count: whole units only (rounded down), at most the day's cap. Never negative. */
export function countedMinutes(from: number, to: number, r: HoursRules): number {
  const minutes = Math.max(0, Math.floor((to - from) / MINUTE));
  return Math.min(Math.floor(minutes / r.unitMinutes) * r.unitMinutes, r.maxMinutes);
}

/** Minutes between two 'HH:mm' of one day (a manual entry), or null when end is not after start. */
export function minutesBetween(startTime: string, endTime: string): number | null {
  const m = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  const d = m(endTime) - m(startTime);
  return Number.isFinite(d) && d > 0 ? d : null;
}

/** Minutes as people read hours: 90 → '1.5'. */
export function hoursText(minutes: number): string {
  const h = minutes / 60;
  return Number.isInteger(h) ? String(h) : h.toFixed(1);
}

/** Whether two sessions of one day overlap (touching ends do not). */
export function timesOverlap(
  a: { startTime: string; endTime: string },
  b: { startTime: string; endTime: string },
) {
  return a.startTime < b.endTime && b.startTime < a.endTime;
}

/** Flags for review (§10); they never refuse a check-in on their own. */
export const SKEW_FLAG_MS = 10 * MINUTE;
export const LATE_SYNC_FLAG_MS = 24 * 3600_000;
export const SHARED_DEVICE_FLAG_MS = 2 * MINUTE;
