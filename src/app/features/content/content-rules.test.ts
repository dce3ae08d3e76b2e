import { describe, expect, it } from 'vitest';
import type { RecordRow } from '../../../shared/records/api';
import {
  addItem,
  carouselState,
  hallGuide,
  moveItem,
  phaseValue,
  spSaveBody,
  windowText,
} from './content-rules';

const H = 3600_000;
const NOW = Date.UTC(2026, 11, 1, 4); // 2026-12-01 12:00 museum time

describe('carouselState', () => {
  it('is 展示中 inside the window, 未到 before it, 已过 after it, 未发布 for drafts', () => {
    expect(carouselState({ status: 1 }, NOW)).toBe(1);
    expect(carouselState({ status: 1, startTime: NOW - H, endTime: NOW + H }, NOW)).toBe(1);
    expect(carouselState({ status: 1, startTime: NOW }, NOW)).toBe(1);
    expect(carouselState({ status: 1, startTime: NOW + 1 }, NOW)).toBe(2);
    expect(carouselState({ status: 1, endTime: NOW }, NOW)).toBe(3);
    expect(carouselState({ status: 0, endTime: NOW - H }, NOW)).toBe(3);
    expect(carouselState({ status: 0, startTime: NOW + H }, NOW)).toBe(0);
    expect(carouselState({ status: 2, startTime: null, endTime: null }, NOW)).toBe(0);
  });
});

describe('windowText', () => {
  it('reads both ends in museum time, and says what an open end means', () => {
    expect(windowText({ startTime: NOW, endTime: NOW + 24 * H })).toBe(
      '2026-12-01 12:00 至 2026-12-02 12:00',
    );
    expect(windowText({ startTime: null, endTime: null })).toBe('发布即展示 至 下架为止');
  });
});

describe('phaseValue', () => {
  it('reads the museum day: 未开幕, 展出中 through the closing day, 已闭幕 after', () => {
    expect(phaseValue({ startDate: '2026-12-02' }, NOW)).toBe(1);
    expect(phaseValue({ startDate: '2026-12-01', endDate: '2026-12-01' }, NOW)).toBe(2);
    expect(phaseValue({ startDate: '2020-01-01', endDate: '' }, NOW)).toBe(2);
    expect(phaseValue({ startDate: '2026-01-01', endDate: '2026-11-30' }, NOW)).toBe(3);
  });
});

describe('relation edits', () => {
  const a = { subTable: 'AudioVideo', subId: 1, note: '', title: '铸造', status: 1 };
  const b = { subTable: 'bsCulturalcreative', subId: 1, note: '礼盒', title: '书签', status: 0 };
  it('adds an item once, moves within the ends and sends the order', () => {
    const list = addItem(addItem(addItem([], a), b), { ...a, title: 'x' });
    expect(list).toEqual([a, b]);
    expect(moveItem(list, 1, -1)).toEqual([b, a]);
    expect(moveItem(list, 0, -1)).toEqual([a, b]);
    expect(moveItem(list, 1, 1)).toEqual([a, b]);
    expect(spSaveBody(7, [b, a])).toEqual({
      id: 7,
      items: [
        { subTable: 'bsCulturalcreative', subId: 1, note: '礼盒' },
        { subTable: 'AudioVideo', subId: 1, note: '' },
      ],
    });
  });
});

describe('hallGuide', () => {
  const row = (id: number, hallId: number, status: number) =>
    ({ id, hallId, status, createTime: 0, updateTime: 0 }) as RecordRow;
  it('prefers a published showroom of the hall, then a draft, else none', () => {
    const rows = [row(1, 5, 0), row(2, 5, 1), row(3, 6, 2)];
    expect(hallGuide(5, rows)).toEqual({ state: 'published', showroom: rows[1] });
    expect(hallGuide(6, rows)).toEqual({ state: 'draft', showroom: rows[2] });
    expect(hallGuide(7, rows)).toEqual({ state: 'none', showroom: null });
  });
});
