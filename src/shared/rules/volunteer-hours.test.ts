import { describe, expect, it } from 'vitest';
import { parseMuseumMinute } from './museum-time';
import {
  DEFAULT_HOURS_RULES as R,
  countedMinutes,
  hoursText,
  minutesBetween,
  placeCheckIn,
  placeCheckOut,
  sessionWindow,
  timesOverlap,
} from './volunteer-hours';

const at = (m: string) => parseMuseumMinute(`2030-03-05 ${m}`)!;
const w = sessionWindow('2030-03-05', '10:00', '11:00');

describe('volunteer hours (records-design §10)', () => {
  it('places a check-in inside [start − early, end]', () => {
    expect(placeCheckIn(at('09:29'), w, R)).toBe(at('09:30'));
    expect(placeCheckIn(at('09:30'), w, R)).toBe(at('09:30'));
    expect(placeCheckIn(at('10:20'), w, R)).toBe(at('10:20'));
    expect(placeCheckIn(at('11:20'), w, R)).toBe(at('11:00'));
  });

  it('places a check-out inside [in, end + late]', () => {
    expect(placeCheckOut(at('09:00'), at('10:00'), w, R)).toBe(at('10:00'));
    expect(placeCheckOut(at('11:30'), at('10:00'), w, R)).toBe(at('11:30'));
    expect(placeCheckOut(at('11:31'), at('10:00'), w, R)).toBe(at('11:30'));
  });

  it('counts whole units, rounded down, capped, never negative', () => {
    expect(countedMinutes(at('10:00'), at('10:29'), R)).toBe(0);
    expect(countedMinutes(at('10:00'), at('10:30'), R)).toBe(30);
    expect(countedMinutes(at('10:00'), at('11:59'), R)).toBe(90);
    expect(countedMinutes(at('10:00'), at('09:00'), R)).toBe(0);
    expect(countedMinutes(at('00:00'), at('23:59'), R)).toBe(480);
    expect(countedMinutes(at('10:00'), at('10:59'), { ...R, unitMinutes: 15 })).toBe(45);
  });

  it('reads times of day and overlaps', () => {
    expect(minutesBetween('09:00', '10:45')).toBe(105);
    expect(minutesBetween('10:00', '10:00')).toBeNull();
    expect(
      timesOverlap({ startTime: '10:00', endTime: '10:30' }, { startTime: '10:15', endTime: '10:45' }),
    ).toBe(true);
    expect(
      timesOverlap({ startTime: '10:00', endTime: '10:30' }, { startTime: '10:30', endTime: '11:00' }),
    ).toBe(false);
    expect(hoursText(90)).toBe('1.5');
    expect(hoursText(120)).toBe('2');
  });
});
