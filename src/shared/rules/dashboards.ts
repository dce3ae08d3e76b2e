/**
 * Pure shaping of the dashboards' numbers (README "Dashboards and the workbench"): the buckets
 * a chart draws (30 days, 12 months), a pie's top groups with 其他, and which months an
 * exhibition was open. The server fills them from SQL sums; the tests check them alone.
 */

/** The `n` museum days ending with `end` ('yyyy-MM-dd'), oldest first. */
export function dayLabels(end: string, n: number): string[] {
  const [y, m, d] = end.split('-').map(Number) as [number, number, number];
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const t = new Date(Date.UTC(y, m - 1, d - i));
    out.push(t.toISOString().slice(0, 10));
  }
  return out;
}

/** The `n` months ('yyyy-MM') ending with the month of `end` ('yyyy-MM-dd' or 'yyyy-MM'), oldest first. */
export function monthLabels(end: string, n: number): string[] {
  const y = Number(end.slice(0, 4));
  const m = Number(end.slice(5, 7));
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const t = new Date(Date.UTC(y, m - 1 - i, 1));
    out.push(t.toISOString().slice(0, 7));
  }
  return out;
}

/** The last day ('yyyy-MM-dd') of a month 'yyyy-MM'. */
export function monthEnd(month: string): string {
  const t = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0));
  return t.toISOString().slice(0, 10);
}

/** 1 预约入馆 · 2 团队入馆 · 3 现场/闸机 · 4 手工补录 (records-design §9). */
export const TOUR_SOURCES = [
  { value: 1, label: '预约入馆' },
  { value: 2, label: '团队入馆' },
  { value: 3, label: '现场/闸机' },
  { value: 4, label: '手工补录' },
] as const;
/** The sources a person may type in (admissions write 1 and 2, and 3 for a desk walk-in). */
export const TOUR_TYPED_SOURCES = [3, 4] as const;

export interface TourSum {
  /** A day 'yyyy-MM-dd'. */
  date: string;
  source: number;
  count: number;
  minors: number;
  teams: number;
}

export interface TourSeries {
  labels: string[];
  /** 预约入馆: individual bookings admitted. */
  reserved: number[];
  /** 团队入馆: persons of teams admitted. */
  team: number[];
  /** 现场/闸机: walk-ins (desk bookings admitted, gate counter readings). */
  walkIn: number[];
  /** 手工补录. */
  manual: number[];
  total: number[];
  minors: number[];
  teams: number[];
}

/** Sums of tour rows into buckets: by day (`key` the date) or by month (`key` its first 7 characters). */
export function tourSeries(rows: readonly TourSum[], labels: string[], by: 'day' | 'month'): TourSeries {
  const at = new Map(labels.map((l, i) => [l, i]));
  const zeros = () => labels.map(() => 0);
  const s: TourSeries = {
    labels,
    reserved: zeros(),
    team: zeros(),
    walkIn: zeros(),
    manual: zeros(),
    total: zeros(),
    minors: zeros(),
    teams: zeros(),
  };
  const series = { 1: s.reserved, 2: s.team, 3: s.walkIn, 4: s.manual } as Record<number, number[]>;
  for (const r of rows) {
    const i = at.get(by === 'day' ? r.date : r.date.slice(0, 7));
    const line = series[r.source];
    if (i === undefined || !line) continue;
    line[i]! += r.count;
    s.total[i]! += r.count;
    s.minors[i]! += r.minors;
    s.teams[i]! += r.teams;
  }
  return s;
}

/**
 * A pie's slices: the `top` largest groups (ties by label), and 其他 holding the rest plus any
 * group already called 其他 (the census's own 其他 category), which never takes one of the `top`
 * places. Empty groups are left out; the input is not changed.
 */
export function topWithOther(
  items: readonly { label: string; value: number }[],
  top = 9,
  other = '其他',
): { label: string; value: number }[] {
  const own = items.filter((i) => i.label === other).reduce((a, i) => a + i.value, 0);
  const sorted = items
    .filter((i) => i.value > 0 && i.label !== other)
    .map((i) => ({ label: i.label, value: i.value }))
    .sort((a, b) => b.value - a.value || a.label.localeCompare(b.label, 'zh'));
  // Ten real groups fit as they are: a 其他 of one group would hide its name for nothing.
  if (sorted.length <= top + 1 && own <= 0) return sorted;
  const head = sorted.slice(0, top);
  const rest = own + sorted.slice(top).reduce((a, i) => a + i.value, 0);
  return rest > 0 ? [...head, { label: other, value: rest }] : head;
}

/**
 * Whether an exhibition running `start`…`end` (end '' or null: permanent) was open for at
 * least a day of `month` ('yyyy-MM').
 */
export function openInMonth(start: string, end: string | null | undefined, month: string): boolean {
  if (!start) return false;
  if (start > monthEnd(month)) return false;
  return !end || end >= `${month}-01`;
}

/** 基本陈列 (type 1) or 临时展览 (2 临时展览, 3 引进/巡回展); 4 线上展 is not open in the building. */
export function exhibitionGroup(type: number): 'permanent' | 'temporary' | null {
  if (type === 1) return 'permanent';
  if (type === 2 || type === 3) return 'temporary';
  return null;
}
