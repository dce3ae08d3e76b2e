import { describe, expect, it } from 'vitest';
import { BmpError, decodeBmp } from './bmp';

/** A BMP with a 40-byte header (or `headerSize`), `extra` after it (palette or masks), then rows. */
function bmp(o: {
  width: number;
  height: number;
  bpp: number;
  compression?: number;
  extra?: number[];
  rows: number[][];
  headerSize?: number;
}) {
  const headerSize = o.headerSize ?? 40;
  const stride = Math.floor((o.bpp * o.width + 31) / 32) * 4;
  const offset = 14 + headerSize + (o.extra?.length ?? 0);
  const b = Buffer.alloc(offset + stride * Math.abs(o.height));
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(offset, 10);
  b.writeUInt32LE(headerSize, 14);
  b.writeInt32LE(o.width, 18);
  b.writeInt32LE(o.height, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(o.bpp, 28);
  b.writeUInt32LE(o.compression ?? 0, 30);
  // Palette images say how many colours they list (0 would mean all 2^bpp).
  if (o.bpp <= 8) b.writeUInt32LE((o.extra?.length ?? 0) / 4, 46);
  Buffer.from(o.extra ?? []).copy(b, 14 + headerSize);
  o.rows.forEach((row, i) => Buffer.from(row).copy(b, offset + i * stride));
  return b;
}
const px = (img: ReturnType<typeof decodeBmp>, x: number, y: number) => {
  const i = (y * img.width + x) * img.channels;
  return [...img.data.subarray(i, i + img.channels)];
};

describe('decodeBmp', () => {
  it('reads 24-bit bottom-up rows (BGR) into top-down RGB', () => {
    // Stored bottom row first: the bottom row is blue, the top one red.
    const img = decodeBmp(
      bmp({
        width: 1,
        height: 2,
        bpp: 24,
        rows: [
          [255, 0, 0],
          [0, 0, 255],
        ],
      }),
      100,
    );
    expect(img).toMatchObject({ width: 1, height: 2, channels: 3 });
    expect(px(img, 0, 0)).toEqual([255, 0, 0]);
    expect(px(img, 0, 1)).toEqual([0, 0, 255]);
  });

  it('reads top-down images (negative height)', () => {
    const img = decodeBmp(
      bmp({
        width: 1,
        height: -2,
        bpp: 24,
        rows: [
          [255, 0, 0],
          [0, 0, 255],
        ],
      }),
      100,
    );
    expect(px(img, 0, 0)).toEqual([0, 0, 255]);
  });

  it('reads 8-bit and 1-bit palettes', () => {
    const palette = [0, 0, 0, 0, 0, 255, 0, 0]; // 0 black, 1 green (B, G, R, X)
    const eight = decodeBmp(bmp({ width: 2, height: 1, bpp: 8, extra: palette, rows: [[1, 0]] }), 100);
    expect(px(eight, 0, 0)).toEqual([0, 255, 0]);
    expect(px(eight, 1, 0)).toEqual([0, 0, 0]);
    const one = decodeBmp(
      bmp({ width: 9, height: 1, bpp: 1, extra: palette, rows: [[0b10100000, 0b10000000]] }),
      100,
    );
    expect([0, 1, 2, 8].map((x) => px(one, x, 0)[1])).toEqual([255, 0, 255, 255]);
  });

  it('reads 16-bit 5-5-5 and 32-bit bit fields with alpha', () => {
    const sixteen = decodeBmp(bmp({ width: 1, height: 1, bpp: 16, rows: [[0x00, 0x7c]] }), 100);
    expect(px(sixteen, 0, 0)).toEqual([255, 0, 0]);
    const le = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255, n >>> 24];
    const masks = [...le(0x00ff0000), ...le(0x0000ff00), ...le(0x000000ff), ...le(0xff000000)];
    const withAlpha = bmp({
      width: 1,
      height: 1,
      bpp: 32,
      compression: 6,
      extra: masks,
      rows: [[10, 20, 30, 128]],
    });
    const img = decodeBmp(withAlpha, 100);
    expect(img.channels).toBe(4);
    expect(px(img, 0, 0)).toEqual([30, 20, 10, 128]);
  });

  it('refuses compressed, truncated, oversized and foreign input', () => {
    const rle = bmp({ width: 1, height: 1, bpp: 8, compression: 1, extra: [0, 0, 0, 0], rows: [[0]] });
    expect(() => decodeBmp(rle, 100)).toThrow(BmpError);
    const full = bmp({ width: 4, height: 4, bpp: 24, rows: [] });
    expect(() => decodeBmp(full.subarray(0, full.length - 1), 100)).toThrow('truncated');
    expect(() => decodeBmp(full, 15)).toThrow('too large');
    expect(() => decodeBmp(Buffer.from('GIF89a and more bytes here....'), 100)).toThrow(BmpError);
  });
});
