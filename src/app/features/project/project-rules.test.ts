import { describe, expect, it } from 'vitest';
import {
  dateRange,
  deadlineState,
  idParam,
  moveTargets,
  progressPercent,
  textToCommentHtml,
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

describe('textToCommentHtml', () => {
  it('escapes markup and keeps lines as paragraphs', () => {
    expect(textToCommentHtml('<b>好</b> & 坏\n\n  第二行 ')).toBe(
      '<p>&lt;b&gt;好&lt;/b&gt; &amp; 坏</p><p>第二行</p>',
    );
  });
  it('is empty for blank text, so the server answers 请输入评论内容', () => {
    expect(textToCommentHtml(' \n ')).toBe('');
  });
});
