import { describe, expect, it } from 'vitest';
import type { Row } from '../define';
import { noOverlappingShifts, overlapProblem, peopleOf, shiftSpan } from './duty-roster';

const WORDS: Record<string, Record<string, string>> = {
  dutyType: { '1': '行政值班', '2': '安保值班' },
  shift: { '1': '白班', '2': '夜班', '3': '全天' },
  leaderId: { '1': '张国华', '2': '李明', '3': '王芳' },
};
const words = (field: string, v: unknown) => WORDS[field]?.[String(v)] ?? String(v);

let nextId = 1;
const duty = (date: string, shift: string, leaderId: number, staffIds: number[], dutyType = '1') =>
  ({ id: nextId++, dutyDate: date, dutyType, shift, leaderId, staffIds }) as unknown as Row;

describe('shift hours', () => {
  it('places each shift on one time line; a night shift ends the next morning', () => {
    const day = shiftSpan({ dutyDate: '2027-01-01', shift: '1' });
    const night = shiftSpan({ dutyDate: '2027-01-01', shift: '2' });
    const next = shiftSpan({ dutyDate: '2027-01-02', shift: '1' });
    expect(day.end).toBe(night.start);
    expect(night.end).toBe(next.start);
    expect(shiftSpan({ dutyDate: '2027-01-01', shift: '3' })).toEqual({ start: day.start, end: night.end });
  });
  it('takes a shift it does not know as the whole day and night', () => {
    const unknown = shiftSpan({ dutyDate: '2027-01-01', shift: '9' });
    const all = shiftSpan({ dutyDate: '2027-01-01', shift: '3' });
    expect(unknown.start).toBeLessThan(all.start);
    expect(unknown.end).toBeGreaterThan(all.end);
  });
  it('counts the leader and the staff once each', () => {
    expect(peopleOf({ leaderId: 1, staffIds: [2, 1, 3] })).toEqual([1, 2, 3]);
  });
});

describe('overlapProblem', () => {
  it('refuses a person on two overlapping shifts, at the field that holds them', () => {
    const held = [duty('2027-01-01', '1', 1, [3])];
    expect(overlapProblem(duty('2027-01-01', '3', 2, [3], '2'), held, words)).toEqual({
      field: 'staffIds',
      message: '王芳已排在 2027-01-01 行政值班 白班，与本班次时间重叠',
    });
    expect(overlapProblem(duty('2027-01-01', '3', 1, [2], '2'), held, words)?.field).toBe('leaderId');
  });
  it('allows hand-overs and other people', () => {
    const night = [duty('2027-01-01', '2', 1, [3])];
    expect(overlapProblem(duty('2027-01-01', '1', 1, [3]), night, words)).toBeNull();
    expect(overlapProblem(duty('2027-01-02', '1', 1, [3]), night, words)).toBeNull();
    expect(overlapProblem(duty('2027-01-02', '3', 1, [3]), night, words)).toBeNull();
    expect(overlapProblem(duty('2027-01-01', '3', 2, [], '2'), night, words)).toBeNull();
  });
  it('looks at the day before and after only', () => {
    expect(noOverlappingShifts.peers({ dutyDate: '2027-03-01' })).toEqual({
      dutyDate: ['2027-02-28', '2027-03-01', '2027-03-02'],
    });
    expect(noOverlappingShifts.peers({ dutyDate: '2028-01-01' }).dutyDate).toEqual([
      '2027-12-31',
      '2028-01-01',
      '2028-01-02',
    ]);
  });
});
