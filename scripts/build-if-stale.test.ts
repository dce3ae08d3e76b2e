import { describe, expect, it } from 'vitest';
import { isWarning, progressLine } from './build-if-stale';

describe('the front-end build says what it is doing', () => {
  it('names the phase, the modules compiled and the time', () => {
    expect(progressLine('start', 0, null, 0.2)).toBe('正在构建前端：准备 · 0 秒');
    expect(progressLine('compile', 3120, null, 7.6)).toBe(
      '正在构建前端：编译源代码，已编译 3,120 个模块 · 8 秒',
    );
    expect(progressLine('compile', 4344, 8689, 9)).toBe(
      '正在构建前端：编译源代码，已编译 4,344 / 约 8,689 个模块（49%） · 9 秒',
    );
    // More modules than last time never claims to be finished before it is.
    expect(progressLine('compile', 9000, 8689, 12)).toContain('（99%）');
    expect(progressLine('worker', 8689, 8689, 15)).toBe(
      '正在构建前端：生成离线缓存（Service Worker） · 15 秒',
    );
    expect(progressLine('done', 8689, null, 19.4)).toBe('前端构建完成，共 8,689 个模块，用时 19 秒');
  });

  it('tells the bundlers’ warnings from their chatter', () => {
    expect(
      isWarning(' WARN  inlineDynamicImports option is deprecated, please use codeSplitting: false instead.'),
    ).toBe(true);
    expect(isWarning('(!) Some chunks are larger than 1500 kB after minification.')).toBe(true);
    expect(isWarning('Warning: something odd')).toBe(true);
    expect(isWarning('✓ 81 modules transformed.')).toBe(false);
    expect(isWarning('dist/assets/drive-page-Cq1x.js  120.55 kB │ gzip: 38.10 kB')).toBe(false);
    expect(isWarning('precache  280 entries (4346.66 KiB)')).toBe(false);
  });
});
