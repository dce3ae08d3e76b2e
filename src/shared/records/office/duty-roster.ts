import { defineRecord, f, type FieldProblem, type PeerRule, type Row, type Words } from '../define';
import { phoneProblem } from '../validators';

/**
 * 值班表, the duty roster (research/records-design.md §8): who is on duty on a day, of which kind
 * (行政 / 安保 / 节假日), on which shift. Everyone reads it (/home/watch-list, week and month
 * views; today's duty on the workbench); the office edits and imports it
 * (/oa/watch-list-management). The spec shows no calls; ours follow the address book's:
 * /singleMuseum/bs/bsDutyRoster/list, detail, save, update, delete (GET), export.
 *
 * Its own rules: one row per (date, kind, shift) — a unique index backs it — and nobody on two
 * shifts whose hours overlap, whatever their kinds (a person cannot keep the security night
 * shift and the administrative full day at once).
 */

/**
 * The hours of each shift, in minutes from 00:00 of its duty date (a night shift ends at 08:30
 * the next morning). A shift the office adds to the dictionary later has no hours here and is
 * taken as a whole day and night, the safe reading for a clash check.
 */
export const SHIFT_HOURS: Readonly<Record<string, { start: number; end: number; text: string }>> = {
  '1': { start: 8 * 60 + 30, end: 17 * 60 + 30, text: '08:30–17:30' },
  '2': { start: 17 * 60 + 30, end: 32 * 60 + 30, text: '17:30–次日 08:30' },
  '3': { start: 8 * 60 + 30, end: 32 * 60 + 30, text: '08:30–次日 08:30' },
};
const WHOLE_DAY = { start: 0, end: 33 * 60 };

const DAY_MIN = 24 * 60;

/** Days since 1970-01-01 of 'yyyy-MM-dd' (UTC arithmetic: only differences matter). */
function dayNumber(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) / 86_400_000;
}

/** The minutes a duty row covers, on one time line across days. */
export function shiftSpan(row: Readonly<Record<string, unknown>>): { start: number; end: number } {
  const h = SHIFT_HOURS[String(row.shift)] ?? WHOLE_DAY;
  const base = dayNumber(String(row.dutyDate)) * DAY_MIN;
  return { start: base + h.start, end: base + h.end };
}

/** Everyone a row puts on duty: the leader and the staff. */
export function peopleOf(row: Readonly<Record<string, unknown>>): number[] {
  const staff = Array.isArray(row.staffIds) ? (row.staffIds as number[]) : [];
  return [...new Set([...(typeof row.leaderId === 'number' ? [row.leaderId] : []), ...staff])];
}

/** The day before and after: a night shift reaches into the next morning. */
function neighbourDays(date: string): string[] {
  const n = dayNumber(date);
  return [n - 1, n, n + 1].map((d) => new Date(d * 86_400_000).toISOString().slice(0, 10));
}

/**
 * Nobody on two overlapping shifts. Shifts that only touch (a night shift ending at 08:30 and
 * the next day shift starting then) do not overlap: that is a hand-over.
 */
export function overlapProblem(
  row: Record<string, unknown>,
  peers: readonly Row[],
  words: Words,
): FieldProblem | null {
  const mine = shiftSpan(row);
  const leader = row.leaderId;
  const people = peopleOf(row);
  for (const other of peers) {
    const theirs = shiftSpan(other);
    if (!(mine.start < theirs.end && theirs.start < mine.end)) continue;
    const clash = peopleOf(other).find((p) => people.includes(p));
    if (clash === undefined) continue;
    const where = `${String(other.dutyDate)} ${words('dutyType', other.dutyType)} ${words('shift', other.shift)}`;
    return {
      field: clash === leader ? 'leaderId' : 'staffIds',
      message: `${words('leaderId', clash)}已排在 ${where}，与本班次时间重叠`,
    };
  }
  return null;
}

export const noOverlappingShifts: PeerRule = {
  name: 'noOverlappingShifts',
  peers: (row) => ({ dutyDate: neighbourDays(String(row.dutyDate)) }),
  check: overlapProblem,
};

export const dutyRoster = defineRecord({
  name: 'dutyRoster',
  title: '值班表',
  shape: 'catalog',
  table: 'duty_roster',
  base: '/bs/bsDutyRoster',
  calls: {
    list: 'GET list',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
    export: 'GET export',
  },
  fields: {
    dutyDate: f.date('值班日期', { required: true, list: true, filter: 'range', width: 120 }),
    dutyType: f.dict('值班类型', 'duty_type', { required: true, list: true, filter: 'eq', width: 110 }),
    shift: f.dict('班次', 'duty_shift', { required: true, list: true, filter: 'eq', width: 90 }),
    leaderId: f.user('带班领导', { required: true, list: true, width: 110 }),
    staffIds: f.users('值班人员', { required: true, max: 20, list: true, filter: 'contains' }),
    dutyPhone: f.text('值班电话', {
      required: true,
      max: 30,
      validate: phoneProblem,
      list: true,
      width: 140,
      placeholder: '如 010-12345678 或 13812345678',
    }),
    remark: f.textarea('备注', { max: 200 }),
  },
  access: { read: 'home.workbench', write: 'oa.watchList' },
  order: [
    ['dutyDate', 'asc'],
    ['shift', 'asc'],
    ['dutyType', 'asc'],
  ],
  unique: [{ fields: ['dutyDate', 'dutyType', 'shift'], message: '这一天的该值班类型和班次已有排班' }],
  rules: [noOverlappingShifts],
  importable: true,
  describe: (r) => `${String(r.dutyDate)} 值班`,
});
