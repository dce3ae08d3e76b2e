import type { AddressBookEntry, DirectoryDept } from '../../../shared/api/directory';
import { subtreeIds } from '../../../shared/rules/directory';
import { tDirectory } from '../../lib/i18n/directory';

export interface EntryGroup {
  key: number;
  title: string;
  rows: AddressBookEntry[];
}

/**
 * The shown rows under department headings, in department order, rows without a department
 * last. A person in several departments is shown once, under the first of them that lies in
 * the chosen department (or under their first one when all are shown): never twice.
 */
export function groupByDept(
  rows: readonly AddressBookEntry[],
  departments: readonly DirectoryDept[],
  selected: number | null,
): EntryGroup[] {
  const within = selected === null ? null : subtreeIds(departments, selected);
  const byDept = new Map<number, AddressBookEntry[]>();
  for (const r of rows) {
    const key = (within ? r.deptIds.find((id) => within.has(id)) : r.deptIds[0]) ?? 0;
    byDept.set(key, [...(byDept.get(key) ?? []), r]);
  }
  const groups: EntryGroup[] = [];
  for (const d of departments) {
    const list = byDept.get(d.id);
    if (list) groups.push({ key: d.id, title: d.name, rows: list });
  }
  const none = byDept.get(0);
  if (none) groups.push({ key: 0, title: tDirectory.noDept, rows: none });
  return groups;
}

/** The departments worth offering as filters: those with anyone in them, and the chosen one. */
export function visibleDepts(departments: readonly DirectoryDept[], selected: number | null) {
  return departments.filter((d) => d.count > 0 || d.id === selected);
}
