import { describe, expect, it } from 'vitest';
import { parseMuseumMinute } from '../../rules/museum-time';
import {
  absentProblem,
  cancelProblem,
  checkInProblem,
  monthlyStat,
  monthsEnding,
  signUpProblem,
  type ActivityWindow,
} from './rules';

const at = (text: string) => parseMuseumMinute(text)!;
const base: ActivityWindow = {
  open: true,
  startTime: at('2026-12-05 10:00'),
  endTime: at('2026-12-05 12:00'),
  total: 10,
  used: 7,
  maxPersons: 3,
};

describe('sign-up rules', () => {
  it('needs 开放报名, the window, the per-sign-up limit and the places', () => {
    const t = at('2026-12-01 09:00');
    expect(signUpProblem(base, 3, t)).toBeNull();
    expect(signUpProblem({ ...base, open: false }, 1, t)).toBe('该活动未开放报名');
    expect(signUpProblem({ ...base, signupStart: at('2026-12-02 09:00') }, 1, t)).toBe(
      '报名尚未开始，请于 2026-12-02 09:00 后报名',
    );
    expect(signUpProblem(base, 1, base.startTime)).toBe('报名已于 2026-12-05 10:00 截止');
    expect(signUpProblem({ ...base, signupEnd: at('2026-12-05 11:00') }, 1, base.startTime)).toBeNull();
    expect(signUpProblem(base, 4, t)).toBe('每次报名最多 3 人');
    expect(signUpProblem({ ...base, maxPersons: null }, 5, t)).toBe('名额不足，仅剩 3 个名额');
    expect(signUpProblem({ ...base, used: 10 }, 1, t)).toBe('名额已满，不能再报名');
  });

  it('checks in from an hour before the start to the end; 缺席 after the start; cancels before it', () => {
    expect(checkInProblem(base, at('2026-12-05 08:59'))).toContain('签到于活动开始前 1 小时开放');
    expect(checkInProblem(base, at('2026-12-05 09:00'))).toBeNull();
    expect(checkInProblem(base, at('2026-12-05 12:01'))).toBe('活动已结束，不能再签到');
    expect(absentProblem(base, at('2026-12-05 09:59'))).toBe('活动开始后才能标记缺席');
    expect(absentProblem(base, base.startTime)).toBeNull();
    expect(cancelProblem(base, at('2026-12-05 09:59'))).toBeNull();
    expect(cancelProblem(base, base.startTime)).toBe('活动已开始，不能再取消报名');
    expect(cancelProblem({ ...base, signupEnd: at('2026-12-05 11:00') }, base.startTime)).toBeNull();
  });
});

describe('the monthly statistic', () => {
  it('names the 12 months ending with one, across a year', () => {
    expect(monthsEnding('2026-02')).toEqual([
      '2025-03',
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
  });

  it('counts by the museum month of the start; a filed figure wins over check-ins', () => {
    const months = monthsEnding('2026-12');
    const stat = monthlyStat(months, [
      // 2026-11-30 23:30 in Beijing is still November, though it is 15:30 UTC.
      { id: 1, startTime: at('2026-11-30 23:30'), recorded: null, signed: 5, present: 4 },
      { id: 2, startTime: at('2026-12-01 00:10'), recorded: 60, signed: 30, present: 25 },
      { id: 3, startTime: at('2024-01-01 10:00'), recorded: 9, signed: 9, present: 9 },
    ]);
    expect(stat.activities.slice(-2)).toEqual([1, 1]);
    expect(stat.participants.slice(-2)).toEqual([4, 60]);
    expect(stat.signUps.slice(-2)).toEqual([5, 30]);
    expect(stat.totals).toEqual({ activities: 2, participants: 64, signUps: 35 });
  });
});
