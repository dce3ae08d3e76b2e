import { describe, expect, it } from 'vitest';
import { chartColor, donutPaths, labelEvery, niceTicks } from '../../src/app/components/light-charts';

/** The workbench's SVG charts (src/app/components/light-charts.tsx): their arithmetic. */
describe('light charts', () => {
  it('axis ticks are round steps from 0 to at least the largest value', () => {
    expect(niceTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(23)).toEqual([0, 10, 20, 30]);
    expect(niceTicks(180)).toEqual([0, 50, 100, 150, 200]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    // Counts: never a step below 1, even for a chart of ones.
    expect(niceTicks(1)).toEqual([0, 1]);
    // No data yet: an empty axis from 0 to 4, as the charts showed before.
    expect(niceTicks(0)).toEqual([0, 1, 2, 3, 4]);
    for (const max of [3, 17, 99, 101, 999, 12_345]) {
      const ticks = niceTicks(max);
      expect(ticks[0]).toBe(0);
      expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeLessThanOrEqual(6);
    }
  });

  it('x labels thin out so that they never overlap', () => {
    expect(labelEvery(12, 400)).toBe(2);
    expect(labelEvery(12, 600)).toBe(1);
    expect(labelEvery(31, 400)).toBe(4);
    expect(labelEvery(5, 0)).toBeGreaterThanOrEqual(5);
  });

  it('theme colours become the theme variables', () => {
    expect(chartColor('teal.6')).toBe('var(--mantine-color-teal-6)');
    expect(chartColor('blue')).toBe('var(--mantine-color-blue-filled)');
  });

  it('donut slices follow each other round the ring; an empty slice draws nothing; one slice is a whole ring', () => {
    const paths = donutPaths(
      [
        { name: '陶瓷', value: 3, color: 'teal.6' },
        { name: '书画', value: 0, color: 'blue.6' },
        { name: '青铜', value: 1, color: 'orange.6' },
      ],
      150,
      24,
    );
    expect(paths.map((p) => p.name)).toEqual(['陶瓷', '青铜']);
    // 陶瓷 is three quarters: a large arc, from the top (75, 1) to the left (1, 75).
    expect(paths[0]!.d).toMatch(/^M75,1A74,74 0 1 1 1,75/);
    // 青铜 starts where 陶瓷 ended.
    expect(paths[1]!.d).toMatch(/^M1,75A74,74 0 0 1 /);
    const whole = donutPaths([{ name: '全部', value: 5, color: 'teal.6' }], 100, 20);
    expect(whole[0]!.d.match(/a/g)).toHaveLength(4);
    expect(donutPaths([{ name: '无', value: 0, color: 'teal.6' }], 100, 20)).toEqual([]);
  });
});
