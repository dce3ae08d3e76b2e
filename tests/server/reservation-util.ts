/** Helpers shared by the reservation API tests (not a test file itself). */

/**
 * Reservation settings for tests whose slots run all day: open every day, same-day booking
 * until 23:58, the rest of research/records-design.md §7.1's defaults. Times are the real
 * clock's, so today's all-day ticket is bookable and inside its arrival window whenever a suite
 * runs, except in the last two minutes of a museum day (23:58–24:00 Asia/Shanghai).
 */
export const ALL_DAY_SETTINGS = {
  openTime: '00:00',
  lastEntryTime: '23:58',
  closeTime: '23:59',
  closedWeekdays: '',
  sameDayCutoffMinutes: 0,
  onePerIdPerDay: true,
  teamNeedsApproval: true,
} as const;
