/** Helpers shared by the reservation tests (not a test file itself). */
import { DAY_MS, museumDate, parseMuseumDate } from '../../src/shared/rules/museum-time';

/**
 * Reservation settings for tests whose slots run all day: open every day, same-day booking
 * until 23:58, tickets released at 00:00 (so every day up to today + advanceDays is bookable at
 * any hour: with the default 17:00 a suite run after midnight would find its last day not yet
 * released), the rest of research/records-design.md §7.1's defaults. Times are the real clock's,
 * so today's all-day ticket is bookable and inside its arrival window whenever a suite runs,
 * except in the last two minutes of a museum day (23:58–24:00 Asia/Shanghai): the suites that
 * book today wait those out first (clearOfDayEnd).
 */
export const ALL_DAY_SETTINGS = {
  openTime: '00:00',
  lastEntryTime: '23:58',
  closeTime: '23:59',
  closedWeekdays: '',
  releaseTime: '00:00',
  sameDayCutoffMinutes: 0,
  onePerIdPerDay: true,
  teamNeedsApproval: true,
} as const;

/**
 * How close to the museum's midnight a file that books today's tickets waits for the next day:
 * the two minutes after the last entry (23:58) plus a file's running time on a loaded machine.
 * Such a file reads `today` once and books it throughout, so one that starts at 23:57 would
 * find today's last entry past, or today turned into yesterday, halfway through.
 */
const DAY_END_MARGIN_MS = 7 * 60_000;
/**
 * How long after the museum's midnight such a file waits before it starts: the gate's tests
 * admit with device times up to five minutes back (an offline tablet's record), and at 00:03
 * those fall on yesterday, which the gate rightly refuses.
 */
const DAY_START_MARGIN_MS = 6 * 60_000;
/** The longest clearOfDayEnd can wait, for the timeout of the hook that calls it. */
export const DAY_END_WAIT_MS = DAY_END_MARGIN_MS + DAY_START_MARGIN_MS + 60_000;

/**
 * Waits for the museum's next day when this one ends within DAY_END_MARGIN_MS, and until
 * DAY_START_MARGIN_MS into a day that has just begun (16:00 UTC is midnight in Asia/Shanghai),
 * so that a suite run at any hour sees one whole day with a few minutes behind it. At most a
 * quarter of an hour, on a run that happens to start then; a clock injected into the server
 * instead would put a test-only path into every rule that reads the time.
 */
export async function clearOfDayEnd(now = Date.now()): Promise<void> {
  const dayStart = parseMuseumDate(museumDate(now))!;
  const left = dayStart + DAY_MS - now;
  const since = now - dayStart;
  let wait = 0;
  if (left <= DAY_END_MARGIN_MS) wait = left + DAY_START_MARGIN_MS;
  else if (since < DAY_START_MARGIN_MS) wait = DAY_START_MARGIN_MS - since;
  if (!wait) return;
  wait += 5_000;
  console.warn(`预约测试：离博物馆的午夜太近，等 ${Math.ceil(wait / 1000)} 秒再开始`);
  await new Promise((r) => setTimeout(r, wait));
}
