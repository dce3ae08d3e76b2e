import { afterEach, expect, test, vi } from 'vitest';
import { parseMuseumDate } from '../../src/shared/rules/museum-time';
import { clearOfDayEnd } from './reservation-util';

// The reservation suites' guard against a run that crosses the museum's midnight: it must not
// wait at other hours (every run would slow down) and must wait past midnight near it.
const midnight = parseMuseumDate('2026-12-07')!; // 2026-12-06 16:00 UTC

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

test('far from the museum’s midnight it returns at once', async () => {
  vi.useFakeTimers();
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  let done = false;
  void clearOfDayEnd(midnight - 3 * 3600_000).then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  expect(done).toBe(true);
  expect(warn).not.toHaveBeenCalled();
});

test('in the day’s last minutes it waits until a few minutes into the next day, and says so', async () => {
  vi.useFakeTimers();
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  let done = false;
  void clearOfDayEnd(midnight - 90_000).then(() => (done = true));
  await vi.advanceTimersByTimeAsync(90_000);
  expect(done).toBe(false); // exactly midnight: today's last entry is gone
  await vi.advanceTimersByTimeAsync(5 * 60_000);
  expect(done).toBe(false); // five minutes back is still yesterday
  await vi.advanceTimersByTimeAsync(65_000);
  expect(done).toBe(true);
  expect(warn).toHaveBeenCalledWith(expect.stringContaining('离博物馆的午夜太近'));
});

test('in the day’s first minutes it waits until five minutes back is today', async () => {
  vi.useFakeTimers();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  let done = false;
  void clearOfDayEnd(midnight + 3 * 60_000).then(() => (done = true));
  await vi.advanceTimersByTimeAsync(2 * 60_000);
  expect(done).toBe(false);
  await vi.advanceTimersByTimeAsync(65_000);
  expect(done).toBe(true);
});
