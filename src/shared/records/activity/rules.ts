import { formatMuseumMinute, museumDate } from '../../rules/museum-time';

/**
 * Social education activities' own rules (README "Social education activities (issue 24)"),
 * pure so each is unit-tested alone: when a sign-up, a check-in and a cancel are allowed, and the
 * monthly statistic (activities and participants per month, 12 months) built from rows.
 */

/** Published: the state the public sees (0 草稿 · 1 已发布 · 2 已下架); sign-ups follow `open`. */
export const ACTIVITY_PUBLISHED = 1;
/** A sign-up's states: 0 已报名 · 1 已签到 · 2 缺席 · 3 已取消. */
export const SIGN_BOOKED = 0;
export const SIGN_PRESENT = 1;
export const SIGN_ABSENT = 2;
export const SIGN_CANCELLED = 3;
/** The most people one sign-up brings when the activity names no limit (a family). */
export const DEFAULT_MAX_PERSONS = 5;
/** Check-in opens this long before the activity starts (people queue at the door). */
export const CHECK_IN_EARLY_MS = 60 * 60_000;

/** What of an activity the sign-up rules read. */
export interface ActivityWindow {
  /** 开放报名: the capacity row's switch (发布 turns it on, 下架 off, the form either way). */
  open: boolean;
  startTime: number;
  endTime: number;
  signupStart?: number | null;
  signupEnd?: number | null;
  total: number;
  used: number;
  maxPersons?: number | null;
}

/** When sign-up closes: its own end, or the activity's start when none is set. */
export const signupClosesAt = (a: ActivityWindow) => a.signupEnd ?? a.startTime;

/**
 * Why `persons` people may not sign up for `a` at `now`, or null. The places are checked here
 * for a clear message; the booking's conditional UPDATE is what guarantees them under a race.
 */
export function signUpProblem(a: ActivityWindow, persons: number, now: number): string | null {
  if (!a.open) return '该活动未开放报名';
  if (a.signupStart && now < a.signupStart)
    return `报名尚未开始，请于 ${formatMuseumMinute(a.signupStart)} 后报名`;
  if (now >= signupClosesAt(a)) return `报名已于 ${formatMuseumMinute(signupClosesAt(a))} 截止`;
  const max = a.maxPersons ?? DEFAULT_MAX_PERSONS;
  if (persons > max) return `每次报名最多 ${max} 人`;
  const left = a.total - a.used;
  if (left <= 0) return '名额已满，不能再报名';
  if (persons > left) return `名额不足，仅剩 ${left} 个名额`;
  return null;
}

/** Why a sign-up may not be checked in (签到) now: from an hour before the start to the end. */
export function checkInProblem(a: Pick<ActivityWindow, 'startTime' | 'endTime'>, now: number): string | null {
  if (now < a.startTime - CHECK_IN_EARLY_MS)
    return `签到于活动开始前 1 小时开放（${formatMuseumMinute(a.startTime - CHECK_IN_EARLY_MS)}）`;
  if (now > a.endTime) return '活动已结束，不能再签到';
  return null;
}

/** Why a sign-up may not be marked 缺席 now: only once the activity has started. */
export function absentProblem(a: Pick<ActivityWindow, 'startTime'>, now: number): string | null {
  return now < a.startTime ? '活动开始后才能标记缺席' : null;
}

/**
 * Why a sign-up may not be cancelled now: until the activity starts, or until sign-up closes
 * when it stays open after the start (a long workshop), while a place given back can still be
 * taken by someone else.
 */
export function cancelProblem(
  a: Pick<ActivityWindow, 'startTime' | 'signupEnd'>,
  now: number,
): string | null {
  const until = Math.max(a.startTime, a.signupEnd ?? 0);
  return now >= until ? '活动已开始，不能再取消报名' : null;
}

// ---------------------------------------------------------------------------------------------
// The monthly statistic

/** 'yyyy-MM' */
export const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The `n` months ending with `last` ('yyyy-MM'), oldest first. */
export function monthsEnding(last: string, n = 12): string[] {
  const [y, m] = last.split('-').map(Number) as [number, number];
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const k = y * 12 + (m - 1) - i;
    out.push(`${Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}`);
  }
  return out;
}

/** The museum month ('yyyy-MM') of a moment. */
export const museumMonth = (ms: number) => museumDate(ms).slice(0, 7);

/** One activity as the statistic reads it. */
export interface StatActivity {
  id: number;
  startTime: number;
  /** 实际参与人数 of its 活动资料, when one is filed. */
  recorded: number | null;
  /** People signed up (not cancelled) and people checked in. */
  signed: number;
  present: number;
}

/** The answer of `GET /activity/statistic` (shared/api/activity.ts). */
export interface MonthlyStat {
  months: string[];
  /** Activities held (published or taken down; drafts never) starting in each month. */
  activities: number[];
  /** People who took part: the filed 实际参与人数, else the people checked in. */
  participants: number[];
  /** People signed up (not cancelled). */
  signUps: number[];
  totals: { activities: number; participants: number; signUps: number };
}

/** Participants of one activity: its filed figure wins; without one, those checked in. */
export const participantsOf = (a: StatActivity) => a.recorded ?? a.present;

/** Sums activities into the months (activities outside them are left out). */
export function monthlyStat(months: readonly string[], rows: readonly StatActivity[]): MonthlyStat {
  const at = new Map(months.map((m, i) => [m, i]));
  const activities = months.map(() => 0);
  const participants = months.map(() => 0);
  const signUps = months.map(() => 0);
  for (const r of rows) {
    const i = at.get(museumMonth(r.startTime));
    if (i === undefined) continue;
    activities[i]! += 1;
    participants[i]! += participantsOf(r);
    signUps[i]! += r.signed;
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    months: [...months],
    activities,
    participants,
    signUps,
    totals: { activities: sum(activities), participants: sum(participants), signUps: sum(signUps) },
  };
}
