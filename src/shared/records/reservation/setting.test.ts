import { describe, expect, it } from 'vitest';
import { appointSettingTimes, isOpenDay, reservationSettingsOf } from './setting';
import { ageBandOf } from './stats';

describe('reservation settings', () => {
  it("read research §7.1's defaults where nothing is saved", () => {
    expect(reservationSettingsOf(undefined)).toMatchObject({
      openTime: '09:00',
      lastEntryTime: '16:00',
      closedWeekdays: [1],
      advanceDays: 7,
      releaseTime: '17:00',
      maxPersonsPerOrder: 5,
      maxMinorsPerOrder: 3,
      minorAge: 14,
      onePerIdPerDay: true,
      cancelDeadline: '15:00',
      noShowLimit: 3,
      noShowWindowDays: 0,
      blockDays: 30,
      cancelCountsAsNoShow: false,
      teamMin: 10,
      teamMax: 50,
      teamAdultMinorRatio: 10,
      teamNeedsApproval: true,
    });
  });

  it('keep what is saved, an empty closed-days text meaning open every day', () => {
    const s = reservationSettingsOf({ closedWeekdays: '', advanceDays: 3, onePerIdPerDay: false });
    expect(s.closedWeekdays).toEqual([]);
    expect(s.advanceDays).toBe(3);
    expect(s.onePerIdPerDay).toBe(false);
  });

  it('open a special day on a closed weekday and close a special day on an open one', () => {
    const s = reservationSettingsOf({
      closedWeekdays: '1',
      specialDates: [
        { date: '2026-10-05', open: true, note: '国庆' },
        { date: '2026-10-07', open: false, note: '检修' },
      ],
    });
    expect(isOpenDay(s, '2026-10-05', 1)).toBe(true);
    expect(isOpenDay(s, '2026-10-12', 1)).toBe(false);
    expect(isOpenDay(s, '2026-10-07', 3)).toBe(false);
    expect(isOpenDay(s, '2026-10-08', 4)).toBe(true);
  });
});

describe('slot templates', () => {
  const rule = appointSettingTimes.rules![0]!;
  const tpl = (o: Record<string, unknown>) => ({
    name: '上午场',
    startTime: '09:00',
    endTime: '11:00',
    weekdays: '2,3',
    enabled: true,
    ...o,
  });
  const peer = (o: Record<string, unknown>) =>
    ({ id: 9, createTime: 0, createBy: null, updateTime: 0, updateBy: null, ...tpl(o) }) as never;

  it('may not overlap an enabled one on a shared weekday', () => {
    expect(rule.check(tpl({}), [peer({ name: '早场', startTime: '10:00', endTime: '12:00' })])?.message).toBe(
      '与时段“早场”（10:00–12:00）在同一星期重叠',
    );
  });

  it('may touch, share no weekday, be disabled, or fall in other dates', () => {
    expect(rule.check(tpl({}), [peer({ startTime: '11:00', endTime: '12:00' })])).toBeNull();
    expect(rule.check(tpl({}), [peer({ weekdays: '4' })])).toBeNull();
    expect(rule.check(tpl({}), [peer({ enabled: false })])).toBeNull();
    expect(
      rule.check(tpl({ validFrom: '2026-06-01', validTo: '2026-09-30' }), [
        peer({ validFrom: '2026-10-01' }),
      ]),
    ).toBeNull();
  });
});

describe('age bands', () => {
  it('put minors apart and seniors at 60', () => {
    expect([8, 13, 14, 17, 18, 34, 35, 59, 60].map(ageBandOf)).toEqual([
      '未满14岁',
      '未满14岁',
      '14–17岁',
      '14–17岁',
      '18–34岁',
      '18–34岁',
      '35–59岁',
      '35–59岁',
      '60岁及以上',
    ]);
  });
});
