import { describe, expect, it } from 'vitest';
import { previewUrl, windowState } from './rules';

describe('windowState', () => {
  const now = Date.UTC(2026, 10, 26, 12);
  const hour = 3600_000;
  it('says 展示中 for a published row inside its window, either end open', () => {
    expect(windowState({ status: 1, startTime: null, endTime: null }, now)).toBe(1);
    expect(windowState({ status: 1, startTime: now - hour, endTime: now + hour }, now)).toBe(1);
    expect(windowState({ status: 1, startTime: now }, now)).toBe(1);
  });
  it('says not yet before the start and over from the end on (the end itself excluded)', () => {
    expect(windowState({ status: 1, startTime: now + 1 }, now)).toBe(2);
    expect(windowState({ status: 1, endTime: now }, now)).toBe(3);
    expect(windowState({ status: 1, startTime: now - 2 * hour, endTime: now - hour }, now)).toBe(3);
  });
  it('says 未发布 for drafts and rows taken down, whatever their window', () => {
    expect(windowState({ status: 0, startTime: now - hour }, now)).toBe(0);
    expect(windowState({ status: 2 }, now)).toBe(0);
  });
});

describe('previewUrl', () => {
  it('opens https addresses only, without credentials', () => {
    expect(previewUrl('https://pano.720yun.com/t/1')).toBe('https://pano.720yun.com/t/1');
    expect(previewUrl(' https://720yun.com/t/1?a=1 ')).toBe('https://720yun.com/t/1?a=1');
    expect(previewUrl('http://720yun.com/t/1')).toBeNull();
    expect(previewUrl('javascript:alert(1)')).toBeNull();
    expect(previewUrl('data:text/html,<script>alert(1)</script>')).toBeNull();
    expect(previewUrl('https://user:pw@720yun.com/')).toBeNull();
    expect(previewUrl('/relative/path')).toBeNull();
    expect(previewUrl('')).toBeNull();
    expect(previewUrl(undefined)).toBeNull();
  });
});
