/**
 * Searching the staff directory. The server filters with these and the app filters its device
 * copy with the very same functions, so a search offline finds what it would find online.
 */

export interface DirectoryRow {
  name: string;
  position: string;
  mobile: string;
  officePhone: string;
  deptIds: number[];
}

export interface DeptLink {
  id: number;
  parentId: number | null;
}

const digits = (s: string) => s.replace(/\D/g, '');

/**
 * A row matches a keyword found in its name or position (case-insensitive), or, when the
 * keyword is a number (spaces, '-' and '+' allowed), found among the digits of its phones:
 * '1380000' and '010-1234' both find their people.
 */
export function matchesKeyword(row: DirectoryRow, keyword: string): boolean {
  const k = keyword.trim().toLowerCase();
  if (!k) return true;
  if (row.name.toLowerCase().includes(k) || row.position.toLowerCase().includes(k)) return true;
  if (!/^[\d\s+-]+$/.test(k)) return false;
  const d = digits(k);
  return d !== '' && (digits(row.mobile).includes(d) || digits(row.officePhone).includes(d));
}

/** A department and everything below it. */
export function subtreeIds(depts: readonly DeptLink[], rootId: number): Set<number> {
  const ids = new Set([rootId]);
  // Parents come before children in the server's order, but a second pass costs nothing and
  // keeps this right for any order.
  for (let grew = true; grew;) {
    grew = false;
    for (const d of depts) {
      if (d.parentId !== null && ids.has(d.parentId) && !ids.has(d.id)) {
        ids.add(d.id);
        grew = true;
      }
    }
  }
  return ids;
}

/** The rows in department `deptId` (or below it) that match `keyword`, in their given order. */
export function filterDirectory<T extends DirectoryRow>(
  rows: readonly T[],
  depts: readonly DeptLink[],
  filter: { keyword?: string; deptId?: number | null },
): T[] {
  const within = filter.deptId ? subtreeIds(depts, filter.deptId) : null;
  return rows.filter(
    (r) => (!within || r.deptIds.some((id) => within.has(id))) && matchesKeyword(r, filter.keyword ?? ''),
  );
}
