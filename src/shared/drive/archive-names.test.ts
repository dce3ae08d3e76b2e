import { describe, expect, it } from 'vitest';
import { driveName } from './archive-names';
import { nameProblem } from './names';

describe('driveName: archive entries always become names the drive accepts', () => {
  it('replaces spoofing characters with _ so the name shows what it is, and says it did', () => {
    expect(driveName('evil\u202etxt.exe', false)).toEqual({ name: 'evil_txt.exe', replaced: true });
    expect(driveName('a\u200bb\ufeff', true)).toEqual({ name: 'a_b_', replaced: true });
    expect(driveName('正常.txt', false)).toEqual({ name: '正常.txt', replaced: false });
  });

  it('renames Windows device names and trailing dots', () => {
    expect(driveName('CON', true).name).toBe('CON_');
    expect(driveName('aux.txt', false).name).toBe('aux_.txt');
    expect(driveName('v1.', true).name).toBe('v1_');
    // A cut to 255 characters that ends on a dot is made safe too.
    const long = driveName(`${'a'.repeat(254)}..b`.padEnd(300, 'x'), true).name;
    expect(long.length).toBeLessThanOrEqual(255);
    expect(nameProblem(long, '文件夹名称')).toBeNull();
  });

  it.each([
    'evil\u202etxt.exe',
    '\u200b',
    ' . ',
    'q<1>|2?.txt',
    'NUL.tar.gz',
    'com1 .txt',
    'a\u0085b',
    'x\u2028y',
    `${'长'.repeat(300)}.txt`,
    `${'a'.repeat(253)}.\u202e`,
  ])('its result passes nameProblem: %j', (raw) => {
    for (const isDir of [true, false]) {
      expect(nameProblem(driveName(raw, isDir).name, isDir ? '文件夹名称' : '文件名称')).toBeNull();
    }
  });
});
