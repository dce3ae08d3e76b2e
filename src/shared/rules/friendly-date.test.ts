import { describe, expect, it } from 'vitest';
import { parseMuseumTime } from './museum-time';
import { friendlyDate } from './friendly-date';

// Wednesday 2026-11-18, 10:00 museum time.
const NOW = parseMuseumTime('2026-11-18 10:00:00')!;

describe('friendlyDate', () => {
  it.each([
    ['2026-11-18 08:05:00', '今天 08:05'],
    ['2026-11-18 23:59:59', '今天 23:59'],
    ['2026-11-17 23:00:00', '昨天 23:00'],
    ['2026-11-19 00:00:00', '明天 00:00'],
    ['2026-11-16 09:00:00', '本周一 09:00'],
    ['2026-11-22 09:00:00', '本周日 09:00'],
    ['2026-11-23 09:00:00', '下周一 09:00'],
    ['2026-11-29 18:30:00', '下周日 18:30'],
    ['2026-11-15 09:00:00', '2026年11月15日 09:00'],
    ['2026-11-30 09:00:00', '2026年11月30日 09:00'],
    ['2025-01-02 07:00:00', '2025年1月2日 07:00'],
  ])('%s → %s', (time, shown) => {
    expect(friendlyDate(time, NOW)).toBe(shown);
  });

  it('counts days in museum time, whatever the device zone', () => {
    // 00:30 museum time on the 19th is still the 18th in UTC: it must read 明天.
    expect(friendlyDate('2026-11-19 00:30:00', NOW)).toBe('明天 00:30');
    // Just after midnight the day before is 昨天.
    expect(friendlyDate('2026-11-18 23:50:00', parseMuseumTime('2026-11-19 00:10:00')!)).toBe('昨天 23:50');
  });

  it('shows text it cannot read as it is', () => {
    expect(friendlyDate('上周', NOW)).toBe('上周');
  });
});
