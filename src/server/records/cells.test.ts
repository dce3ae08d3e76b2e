import { describe, expect, it } from 'vitest';
import { f } from '../../shared/records/define';
import { cellDate, cellText, cellTime, cellValue, splitNames, type CellLookups } from './cells';

const people = [
  { id: 1, name: '张国华', phone: '13800000000' },
  { id: 2, name: '王芳', phone: '13800000002' },
  { id: 3, name: '王芳', phone: '13900009999' },
];
const look: CellLookups = {
  dict: () => [
    { label: '白班', value: '1' },
    { label: '夜班', value: '2' },
  ],
  people: (w) => people.filter((p) => p.name === w || p.phone === w),
  depts: (w) => (w === '办公室' ? [{ id: 9, name: '办公室' }] : []),
};

describe('reading xlsx cells', () => {
  it('dates as Excel holds them or as a clerk types them', () => {
    expect(cellDate(new Date(Date.UTC(2027, 5, 1)))).toBe('2027-06-01');
    expect(cellDate(46539)).toBe('2027-06-01');
    expect(cellDate('2027/6/1')).toBe('2027-06-01');
    expect(cellDate('2027.06.01')).toBe('2027-06-01');
    expect(cellDate('2027年6月1日')).toBe('2027-06-01');
    expect(cellDate('六月一日')).toBe('六月一日');
  });
  it('times, rich text and formulas', () => {
    expect(cellTime(0.375)).toBe('09:00');
    expect(cellTime('8:30')).toBe('08:30');
    expect(cellTime(new Date(Date.UTC(1899, 11, 30, 17, 30)))).toBe('17:30');
    expect(cellText({ richText: [{ text: '值' }, { text: '班' }] })).toBe('值班');
    expect(cellText({ formula: 'A1', result: 42 })).toBe('42');
    expect(splitNames('王芳、李明, 陈静；赵磊')).toEqual(['王芳', '李明', '陈静', '赵磊']);
  });
  it('choices by their words or values; people by name, phone or 姓名（手机号）', () => {
    expect(cellValue(f.dict('班次', 'duty_shift'), '夜班', look)).toEqual({ value: '2' });
    expect(cellValue(f.dict('班次', 'duty_shift'), 1, look)).toEqual({ value: '1' });
    expect(cellValue(f.dict('班次', 'duty_shift'), '早班', look)).toEqual({
      problem: '班次“早班”不是可选项（可选：白班、夜班）',
    });
    expect(cellValue(f.user('带班领导'), '张国华', look)).toEqual({ value: 1 });
    expect(cellValue(f.user('带班领导'), '王芳', look)).toEqual({
      problem: '带班领导“王芳”有 2 位同名人员，请写成“姓名（手机号）”',
    });
    expect(cellValue(f.user('带班领导'), '王芳（13900009999）', look)).toEqual({ value: 3 });
    expect(cellValue(f.user('带班领导'), '13800000002', look)).toEqual({ value: 2 });
    expect(cellValue(f.users('值班人员'), '张国华、王芳(13800000002)', look)).toEqual({ value: [1, 2] });
    expect(cellValue(f.users('值班人员'), '张国华、无名氏', look)).toEqual({
      problem: '值班人员“无名氏”不是在职人员的姓名或手机号',
    });
    expect(cellValue(f.dept('部门'), '办公室', look)).toEqual({ value: 9 });
    expect(cellValue(f.text('备注'), null, look)).toEqual({ value: undefined });
  });
});

describe('a refs cell (意向服务组)', () => {
  const groups: Record<string, number[]> = { 讲解组: [3], '咨询 服务组': [7], 重名组: [8, 9] };
  const withRefs: CellLookups = { ...look, refs: (_fd, w) => groups[w] ?? [] };
  const fd = f.refs('意向服务组', 'volunteerGroup', { by: 'name' });
  it('reads names joined by 、 (a name may hold a space), as the export writes them', () => {
    expect(cellValue(fd, '讲解组、咨询 服务组', withRefs)).toEqual({ value: [3, 7] });
    expect(cellValue(fd, '讲解组；讲解组', withRefs)).toEqual({ value: [3, 3] });
  });
  it('names the group it cannot find or cannot tell apart', () => {
    expect(cellValue(fd, '讲解组、摄影组', withRefs)).toEqual({
      problem: '找不到意向服务组“摄影组”，请核对名称',
    });
    expect(cellValue(fd, '重名组', withRefs)).toEqual({
      problem: '意向服务组“重名组”有 2 条同名记录，请导入后在页面上选择',
    });
  });
});
