import { describe, expect, it } from 'vitest';
import {
  dateRange,
  deadlineState,
  idParam,
  moveTargets,
  progressPercent,
  isBlankHtml,
  planMonths,
  planStatus,
} from './project-rules';

describe('deadlineState', () => {
  it('is overdue only when open and before today', () => {
    expect(deadlineState('2026-11-21', 1, '2026-11-22')).toBe('overdue');
    expect(deadlineState('2026-11-21', 2, '2026-11-22')).toBe('done');
    expect(deadlineState('2026-11-22', 1, '2026-11-22')).toBe('today');
    expect(deadlineState('2026-12-01', 1, '2026-11-22')).toBe('later');
    expect(deadlineState(null, 1, '2026-11-22')).toBe('none');
  });
  it('compares across months and years as dates', () => {
    expect(deadlineState('2025-12-31', 1, '2026-01-01')).toBe('overdue');
    expect(deadlineState('2026-10-09', 1, '2026-09-10')).toBe('later');
  });
});

describe('progressPercent', () => {
  it('rounds and guards empty projects', () => {
    expect(progressPercent(0, 0)).toBe(0);
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(2, 3)).toBe(67);
    expect(progressPercent(5, 4)).toBe(100);
  });
});

describe('idParam', () => {
  it('accepts positive integers as number or text', () => {
    expect(idParam(12)).toBe(12);
    expect(idParam('12')).toBe(12);
  });
  it('refuses everything else', () => {
    for (const bad of [0, -1, 1.5, '', '1e3', '12a', ' 12', null, undefined, {}, '99999999999999999999'])
      expect(idParam(bad)).toBeNull();
  });
});

describe('dateRange', () => {
  it('shows either side or the fallback', () => {
    expect(dateRange('2026-01-01', '2026-02-01', '未设日期')).toBe('2026-01-01 ~ 2026-02-01');
    expect(dateRange('2026-01-01', null, '未设日期')).toBe('2026-01-01 起');
    expect(dateRange(null, '2026-02-01', '未设日期')).toBe('至 2026-02-01');
    expect(dateRange(null, null, '未设日期')).toBe('未设日期');
  });
});

describe('moveTargets', () => {
  it('offers every board but the current one, in order', () => {
    const blocks = [{ blockId: 1 }, { blockId: 2 }, { blockId: 3 }];
    expect(moveTargets(blocks, 2).map((b) => b.blockId)).toEqual([1, 3]);
  });
});

describe('isBlankHtml', () => {
  it('is blank for an empty editor, empty paragraphs and spaces', () => {
    expect(isBlankHtml('')).toBe(true);
    expect(isBlankHtml('<p></p>')).toBe(true);
    expect(isBlankHtml('<p> &nbsp; </p><p><br></p>')).toBe(true);
  });
  it('keeps text, formatted text and an image alone', () => {
    expect(isBlankHtml('<p><strong>好</strong></p>')).toBe(false);
    expect(isBlankHtml('<p>0</p>')).toBe(false);
    expect(isBlankHtml('<p><img src="/api/attach/image/1"></p>')).toBe(false);
  });
});

describe('planStatus', () => {
  it('is upcoming before the start, running through the end day, ended after', () => {
    expect(planStatus('2026-12-01', '2027-02-28', '2026-11-22')).toBe('upcoming');
    expect(planStatus('2026-12-01', '2027-02-28', '2026-12-01')).toBe('running');
    expect(planStatus('2026-12-01', '2027-02-28', '2027-02-28')).toBe('running');
    expect(planStatus('2026-12-01', '2027-02-28', '2027-03-01')).toBe('ended');
  });
  it('has no end without an end date, and no schedule without a start', () => {
    expect(planStatus('2026-01-01', null, '2030-01-01')).toBe('running');
    expect(planStatus(null, '2026-12-31', '2026-11-22')).toBe('undated');
  });
});

describe('planMonths', () => {
  const p = (name: string, startDate: string | null, endDate: string | null = null) => ({
    name,
    startDate,
    endDate,
  });
  it('groups by opening month in date order, undated last', () => {
    const months = planMonths([
      p('乙', '2027-01-10'),
      p('无期', null, '2027-01-01'),
      p('甲', '2026-12-20', '2027-03-01'),
      p('丙', '2026-12-05', '2026-12-30'),
    ]);
    expect(months.map((m) => [m.month, m.projects.map((x) => x.name)])).toEqual([
      ['2026-12', ['丙', '甲']],
      ['2027-01', ['乙']],
      ['', ['无期']],
    ]);
  });
  it('is empty for no projects', () => {
    expect(planMonths([])).toEqual([]);
  });
});
