import { describe, expect, it } from 'vitest';
import { filterDirectory, matchesKeyword, subtreeIds } from './directory';

const row = (name: string, extra: Partial<Parameters<typeof matchesKeyword>[0]> = {}) => ({
  name,
  position: '',
  mobile: '',
  officePhone: '',
  deptIds: [] as number[],
  ...extra,
});

describe('matchesKeyword', () => {
  it('finds names and positions, ignoring case and the spaces around', () => {
    expect(matchesKeyword(row('王芳'), ' 王 '.trim())).toBe(true);
    expect(matchesKeyword(row('Anna Li'), 'anna')).toBe(true);
    expect(matchesKeyword(row('李明', { position: '办公室主任' }), '主任')).toBe(true);
    expect(matchesKeyword(row('李明'), '王')).toBe(false);
  });
  it('finds phone digits whatever the separators, but not digits in words', () => {
    const r = row('值班室', { mobile: '13800000002', officePhone: '010-1234 5678' });
    expect(matchesKeyword(r, '138-0000-0002')).toBe(true);
    expect(matchesKeyword(r, '12345678')).toBe(true);
    expect(matchesKeyword(r, '+86')).toBe(false);
    expect(matchesKeyword(r, '-')).toBe(false);
    expect(matchesKeyword(r, '9999')).toBe(false);
  });
});

describe('filterDirectory', () => {
  const depts = [
    { id: 1, parentId: null },
    { id: 3, parentId: 2 },
    { id: 2, parentId: 1 },
    { id: 4, parentId: null },
  ];
  it('takes a department with everything below it, in any order of the list', () => {
    expect([...subtreeIds(depts, 1)].sort()).toEqual([1, 2, 3]);
    const rows = [row('甲', { deptIds: [3] }), row('乙', { deptIds: [4] }), row('丙', { deptIds: [4, 2] })];
    expect(filterDirectory(rows, depts, { deptId: 1 }).map((r) => r.name)).toEqual(['甲', '丙']);
    expect(filterDirectory(rows, depts, { deptId: 4, keyword: '丙' }).map((r) => r.name)).toEqual(['丙']);
    expect(filterDirectory(rows, depts, {}).map((r) => r.name)).toEqual(['甲', '乙', '丙']);
  });
});
