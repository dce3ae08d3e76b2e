import { museumDayIndex, parseMuseumTime } from './museum-time';

/**
 * The spec's date display for lists (office.md §9 "Date display"): 昨天, 今天, 明天, then 本周X or
 * 下周X within this or next week (weeks start on Monday, as Chinese calendars do), otherwise a
 * long date. The time of day follows. Both times are museum time, so a tablet set to another
 * zone still says 今天 for today in the museum.
 */
const WEEKDAYS = ['日', '一', '二', '三', '四', '五', '六'];
/** Days since the epoch in museum time, and the weekday (0 Sunday; 1970-01-01 was a Thursday). */
function museumDay(ms: number) {
  const day = museumDayIndex(ms);
  return { day, weekday: (day + 4) % 7 };
}

/** Monday-first week number of a museum day. */
const weekOf = (day: number) => Math.floor((day + 3) / 7);

export function friendlyDate(museumTime: string, nowMs: number): string {
  const ms = parseMuseumTime(museumTime);
  if (ms === null) return museumTime;
  const time = museumTime.slice(11, 16);
  const { day, weekday } = museumDay(ms);
  const today = museumDay(nowMs).day;
  const diff = day - today;
  if (diff === 0) return `今天 ${time}`;
  if (diff === -1) return `昨天 ${time}`;
  if (diff === 1) return `明天 ${time}`;
  const weeks = weekOf(day) - weekOf(today);
  if (weeks === 0) return `本周${WEEKDAYS[weekday]} ${time}`;
  if (weeks === 1) return `下周${WEEKDAYS[weekday]} ${time}`;
  const [y, mo, d] = museumTime.slice(0, 10).split('-').map(Number) as [number, number, number];
  return `${y}年${mo}月${d}日 ${time}`;
}
