/** Helpers shared by the reservation API tests (not a test file itself). */

/**
 * Reservation settings for tests whose slots run all day: open every day, same-day booking
 * until 23:58, tickets released at 00:00 (so every day up to today + advanceDays is bookable at
 * any hour: with the default 17:00 a suite run after midnight would find its last day not yet
 * released), the rest of research/records-design.md §7.1's defaults. Times are the real clock's,
 * so today's all-day ticket is bookable and inside its arrival window whenever a suite runs,
 * except in the last two minutes of a museum day (23:58–24:00 Asia/Shanghai).
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
