import { describe, expect, it } from 'vitest';
import { activeLine, parseLrc, plainLyrics } from './lrc';

describe('parseLrc', () => {
  it('reads stamps with 1–3 fraction digits and without a fraction', () => {
    expect(parseLrc('[00:01.5]a\n[00:02.25]b\n[00:03.125]c\n[01:04]d')).toEqual([
      { time: 1.5, text: 'a' },
      { time: 2.25, text: 'b' },
      { time: 3.125, text: 'c' },
      { time: 64, text: 'd' },
    ]);
  });

  it('gives a line with several stamps one entry per stamp, in time order', () => {
    const lines = parseLrc('[00:01.00]一\n[00:02.00][00:05.00]副歌\n[00:03.00]三');
    expect(lines.map((l) => [l.time, l.text])).toEqual([
      [1, '一'],
      [2, '副歌'],
      [3, '三'],
      [5, '副歌'],
    ]);
  });

  it('skips tags, ignores [offset:], and accepts CRLF and blank text', () => {
    const lines = parseLrc(
      '[ti:歌]\r\n[ar:人]\r\n[offset:+500]\r\n[00:00.50]  \r\n[00:01.00]词\r\n无时间的行',
    );
    expect(lines).toEqual([
      { time: 0.5, text: '' },
      { time: 1, text: '词' },
    ]);
  });

  it('answers [] for nothing', () => {
    expect(parseLrc(null)).toEqual([]);
    expect(parseLrc('')).toEqual([]);
    expect(parseLrc('只是文字')).toEqual([]);
  });
});

describe('activeLine', () => {
  const lines = parseLrc('[00:01.00]a\n[00:02.00]b\n[00:02.00]b2\n[00:04.00]c');
  it('is -1 before the first line and the last started line after', () => {
    expect(activeLine(lines, 0)).toBe(-1);
    expect(activeLine(lines, 1)).toBe(0);
    expect(activeLine(lines, 1.99)).toBe(0);
    expect(activeLine(lines, 2)).toBe(2);
    expect(activeLine(lines, 3.5)).toBe(2);
    expect(activeLine(lines, 400)).toBe(3);
    expect(activeLine([], 3)).toBe(-1);
  });
});

describe('plainLyrics', () => {
  it('keeps the text lines and drops tag lines', () => {
    expect(plainLyrics('[ar:人]\n第一句\n 第二句 ')).toEqual(['第一句', '第二句']);
  });
});
