import type { ILyricsTag } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import { isMusic, lrcTime, lyricsFromLrc, lyricsFromTags } from './music';

const synced = (format: number, lines: [number, string][]): ILyricsTag => ({
  contentType: 1,
  timeStampFormat: format,
  syncText: lines.map(([timestamp, text]) => ({ timestamp, text })),
});

describe('lyrics', () => {
  it('writes LRC times as [mm:ss.xx], minutes past an hour included', () => {
    expect(lrcTime(0)).toBe('[00:00.00]');
    expect(lrcTime(1234)).toBe('[00:01.23]');
    expect(lrcTime(59_999)).toBe('[01:00.00]');
    expect(lrcTime(3_725_500)).toBe('[62:05.50]');
  });

  it('prefers synchronised lyrics, in milliseconds or MPEG frames', () => {
    const plain = { contentType: 1, timeStampFormat: 0, text: '无时间的歌词', syncText: [] };
    expect(
      lyricsFromTags([
        plain,
        synced(2, [
          [1500, '一'],
          [3000, '二'],
        ]),
      ]),
    ).toBe('[00:01.50]一\n[00:03.00]二');
    // Frame 100 of MPEG-1 Layer III at 44.1 kHz: 100 × 1152 / 44100 s = 2.61 s.
    const frames = synced(1, [[100, '帧']]);
    expect(lyricsFromTags([frames], { sampleRate: 44100, codec: 'MPEG 1 Layer 3' })).toBe('[00:02.61]帧');
    // MPEG-2 Layer III frames are half as long.
    expect(lyricsFromTags([frames], { sampleRate: 22050, codec: 'MPEG 2 Layer 3' })).toBe('[00:02.61]帧');
    // Without a sample rate, frames cannot be timed: the plain text is used instead.
    expect(lyricsFromTags([frames, plain])).toBe('无时间的歌词');
  });

  it('keeps unsynchronised text as it is, with \\n line ends; nothing is null', () => {
    const t = { contentType: 1, timeStampFormat: 0, text: '[00:01.00]甲\r\n[00:02.00]乙\r\n', syncText: [] };
    expect(lyricsFromTags([t])).toBe('[00:01.00]甲\n[00:02.00]乙');
    expect(lyricsFromTags([])).toBeNull();
    expect(lyricsFromTags(undefined)).toBeNull();
    expect(lyricsFromTags([{ ...t, text: '  \n ' }])).toBeNull();
  });

  it('reads .lrc text without its byte-order mark', () => {
    expect(lyricsFromLrc('\uFEFF[00:01.00]你好\r\n')).toBe('[00:01.00]你好');
    expect(lyricsFromLrc('')).toBeNull();
  });

  it('knows the spec’s audio types, in any case', () => {
    for (const e of ['mp3', 'FLAC', 'm4a', 'aac', 'wav', 'ogg', 'wma', 'ape']) expect(isMusic(e)).toBe(true);
    expect(isMusic('mp4')).toBe(false);
  });
});
