/**
 * Museum time: Asia/Shanghai, shown and entered as 'yyyy-MM-dd HH:mm(:ss)' whatever zone the
 * server or the tablet runs in. China has had no daylight saving since 1991, so a fixed UTC+8
 * offset is exact for every time this product stores (see server drive/time.ts).
 */
const OFFSET_MS = 8 * 3600_000;
export const DAY_MS = 86_400_000;

/** 'yyyy-MM-dd HH:mm:ss', the spec's endTime format. */
export const END_TIME_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
/** 'yyyy-MM-dd HH:mm', the schedule's times. */
export const MINUTE_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;
/** 'yyyy-MM-dd', the spec's date format (§2 date picker). */
export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** 'yyyy-MM-dd HH:mm:ss' (museum time) → epoch ms, or null when it is not a real time. */
export function parseMuseumTime(text: string): number | null {
  const m = END_TIME_RE.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const utc = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(utc);
  // Date.UTC rolls 02-30 over into March; a real date survives the round trip.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  if (h > 23 || mi > 59 || s > 59) return null;
  return utc - OFFSET_MS;
}

/** Epoch ms → 'yyyy-MM-dd HH:mm:ss' in museum time. */
export function formatMuseumTime(ms: number): string {
  const iso = new Date(ms + OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** 'yyyy-MM-dd HH:mm' → epoch ms, or null when it is not a real minute. */
export function parseMuseumMinute(text: string): number | null {
  return MINUTE_RE.test(text) ? parseMuseumTime(`${text}:00`) : null;
}

/** Epoch ms → 'yyyy-MM-dd HH:mm'. */
export function formatMuseumMinute(ms: number): string {
  return formatMuseumTime(ms).slice(0, 16);
}

/** 'yyyy-MM-dd' → the epoch ms its museum day starts at, or null when it is not a real date. */
export function parseMuseumDate(text: string): number | null {
  return DATE_RE.test(text) ? parseMuseumTime(`${text} 00:00:00`) : null;
}

/** Epoch ms → the number of its museum day since 1970-01-01 (to count days between times). */
export function museumDayIndex(ms: number): number {
  return Math.floor((ms + OFFSET_MS) / DAY_MS);
}

/** Epoch ms → its museum day, 'yyyy-MM-dd'. */
export function museumDate(ms: number): string {
  return formatMuseumTime(ms).slice(0, 10);
}

/** The museum day `n` days after `date` ('yyyy-MM-dd'); `date` must be valid. */
export function addDays(date: string, n: number): string {
  return museumDate(parseMuseumDate(date)! + n * DAY_MS);
}
