/**
 * The order of a listing (issue 3: "Folders come first, with sort by name, size or time").
 * The app sorts on the device, so a cached folder re-sorts offline and a change of order
 * needs no new request.
 */
export type SortBy = 'name' | 'size' | 'time';
export type SortOrder = 'asc' | 'desc';

export interface Sortable {
  isDir: 0 | 1;
  fileName: string;
  extendName: string;
  fileSize: number;
  uploadTime: string;
  deleteTime?: string | null;
}

// Chinese names sort by pinyin and numbers by value ("第2册" before "第10册"), as people expect.
const collator = new Intl.Collator('zh-Hans-CN', { numeric: true, sensitivity: 'base' });

function fullName(e: Sortable) {
  return e.extendName ? `${e.fileName}.${e.extendName}` : e.fileName;
}

/** Compares two entries: folders first whatever the order, then the chosen key, then the name. */
export function compareEntries(a: Sortable, b: Sortable, by: SortBy, order: SortOrder): number {
  if (a.isDir !== b.isDir) return b.isDir - a.isDir;
  const dir = order === 'asc' ? 1 : -1;
  let c = 0;
  if (by === 'size') c = a.fileSize - b.fileSize;
  // 'yyyy-MM-dd HH:mm:ss' strings order as the times they name.
  else if (by === 'time') c = (a.deleteTime ?? a.uploadTime).localeCompare(b.deleteTime ?? b.uploadTime);
  if (c !== 0) return c * dir;
  const byName = collator.compare(fullName(a), fullName(b));
  return by === 'name' ? byName * dir : byName;
}

/** A sorted copy. */
export function sortEntries<T extends Sortable>(list: readonly T[], by: SortBy, order: SortOrder): T[] {
  return [...list].sort((a, b) => compareEntries(a, b, by, order));
}
