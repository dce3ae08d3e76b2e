import { useMemo } from 'react';
import type { RecordPage, RecordRow } from '../../../shared/records/api';
import { SHIFT_HOURS, dutyRoster } from '../../../shared/records/office/duty-roster';
import { addDays } from '../../../shared/rules/museum-time';
import { useAllRows, useDictionaries } from '../../lib/records';

/**
 * The duty roster as its views read it: the rows of a span of days (kept on the device, so the
 * week and today's duty open offline), grouped by day, each with its words (type, shift and its
 * hours, people by name).
 */

export interface DutyEntry {
  id: number;
  date: string;
  typeLabel: string;
  shiftLabel: string;
  hours: string;
  leader: string;
  staff: string[];
  phone: string;
  remark: string;
  /** The signed-in person is on it. */
  mine: boolean;
  row: RecordRow;
}

/** 0 Monday … 6 Sunday. */
export function weekday(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

export const mondayOf = (date: string) => addDays(date, -weekday(date));

/** The days of the month of `date` laid out in whole weeks, Monday first. */
export function monthGrid(date: string): string[] {
  const first = `${date.slice(0, 7)}-01`;
  const start = mondayOf(first);
  const days: string[] = [];
  for (let d = start; ; d = addDays(d, 1)) {
    days.push(d);
    if (days.length % 7 === 0 && addDays(d, 1).slice(0, 7) !== date.slice(0, 7)) break;
  }
  return days;
}

export function entriesOf(
  page: RecordPage | undefined,
  label: (key: string, value: unknown) => string,
  userId: number | undefined,
): Map<string, DutyEntry[]> {
  const byDay = new Map<string, DutyEntry[]>();
  for (const row of page?.list ?? []) {
    const date = String(row.dutyDate);
    const name = (id: unknown) => page!.names.users[String(id)] ?? `#${String(id)}`;
    const staffIds = (row.staffIds as number[]) ?? [];
    const entry: DutyEntry = {
      id: row.id,
      date,
      typeLabel: label('duty_type', row.dutyType),
      shiftLabel: label('duty_shift', row.shift),
      hours: SHIFT_HOURS[String(row.shift)]?.text ?? '',
      leader: name(row.leaderId),
      staff: staffIds.map(name),
      phone: String(row.dutyPhone ?? ''),
      remark: String(row.remark ?? ''),
      mine: userId !== undefined && (row.leaderId === userId || staffIds.includes(userId)),
      row,
    };
    byDay.set(date, [...(byDay.get(date) ?? []), entry]);
  }
  return byDay;
}

/** The roster between two days, by day. */
export function useDuty(from: string, to: string, userId: number | undefined) {
  const query = useMemo(() => ({ dutyDateFrom: from, dutyDateTo: to }), [from, to]);
  const view = useAllRows(dutyRoster, query);
  const dicts = useDictionaries(['duty_type', 'duty_shift']);
  const byDay = useMemo(
    () => entriesOf(view.data, dicts.labelOf, userId),
    [view.data, dicts.labelOf, userId],
  );
  return { view, byDay };
}
