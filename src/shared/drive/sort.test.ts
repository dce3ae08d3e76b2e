import { describe, expect, it } from 'vitest';
import { sortEntries, type Sortable } from './sort';

const e = (fileName: string, isDir: 0 | 1, fileSize = 0, uploadTime = '2026-01-01 00:00:00'): Sortable => ({
  fileName,
  extendName: isDir ? '' : 'txt',
  isDir,
  fileSize,
  uploadTime,
});

describe('sortEntries', () => {
  const list = [
    e('第10册', 0, 30, '2026-01-03 00:00:00'),
    e('b', 1),
    e('第2册', 0, 10, '2026-01-01 00:00:00'),
    e('a', 1),
    e('第1册', 0, 20, '2026-01-02 00:00:00'),
  ];
  const names = (l: Sortable[]) => l.map((x) => x.fileName);

  it('puts folders first in both orders', () => {
    expect(names(sortEntries(list, 'name', 'asc'))).toEqual(['a', 'b', '第1册', '第2册', '第10册']);
    expect(names(sortEntries(list, 'name', 'desc'))).toEqual(['b', 'a', '第10册', '第2册', '第1册']);
  });

  it('sorts by size and time, ties by name', () => {
    expect(names(sortEntries(list, 'size', 'asc'))).toEqual(['a', 'b', '第2册', '第1册', '第10册']);
    expect(names(sortEntries(list, 'time', 'desc'))).toEqual(['a', 'b', '第10册', '第1册', '第2册']);
  });
});
