/**
 * A small BMP decoder for thumbnails: libvips (and so sharp) reads no BMP, and BMP is on the
 * spec's image list (§9). It reads the uncompressed forms Windows tools and scanners write —
 * 1, 4 and 8-bit palettes, 16-bit 5-5-5, 24-bit, 32-bit, and 16/32-bit bit fields — top-down
 * or bottom-up, into raw pixels that sharp takes as `raw` input. Compressed BMPs (RLE, embedded
 * JPEG/PNG) are refused; they are rare and a thumbnail is not worth a second decoder.
 */

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

export class BmpError extends Error {}

const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

/** One colour channel under a bit mask, scaled to 0–255. */
function channel(mask: number) {
  if (mask === 0) return null;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  const max = mask >>> shift;
  return (v: number) => Math.round((((v & mask) >>> shift) * 255) / max);
}

/**
 * Decodes `b` (a whole BMP file). Throws BmpError for anything it does not read, and when the
 * image has more than `maxPixels` pixels, before allocating them.
 */
export function decodeBmp(b: Buffer, maxPixels: number): RawImage {
  if (b.length < 26 || b.toString('latin1', 0, 2) !== 'BM') throw new BmpError('not a BMP');
  const dataOffset = b.readUInt32LE(10);
  const headerSize = b.readUInt32LE(14);
  let width: number;
  let rawHeight: number;
  let bpp: number;
  let compression = BI_RGB;
  let colours = 0;
  let paletteEntry = 4;
  if (headerSize === 12) {
    width = b.readUInt16LE(18);
    rawHeight = b.readInt16LE(20);
    bpp = b.readUInt16LE(24);
    paletteEntry = 3;
  } else if (headerSize >= 40 && b.length >= 14 + headerSize) {
    width = b.readInt32LE(18);
    rawHeight = b.readInt32LE(22);
    bpp = b.readUInt16LE(28);
    compression = b.readUInt32LE(30);
    colours = b.readUInt32LE(46);
  } else {
    throw new BmpError('unknown BMP header');
  }
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  if (width <= 0 || height <= 0) throw new BmpError('empty BMP');
  if (width * height > maxPixels) throw new BmpError('BMP too large');

  let masks: [number, number, number, number] | null = null;
  if (compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) {
    if (bpp !== 16 && bpp !== 32) throw new BmpError('bit fields need 16 or 32 bits');
    // Masks sit inside a V4/V5 header, or right after a 40-byte one.
    const at = 54;
    const n = compression === BI_ALPHABITFIELDS || headerSize >= 56 ? 4 : 3;
    if (b.length < at + n * 4) throw new BmpError('truncated BMP');
    masks = [
      b.readUInt32LE(at),
      b.readUInt32LE(at + 4),
      b.readUInt32LE(at + 8),
      n === 4 ? b.readUInt32LE(at + 12) : 0,
    ];
  } else if (compression !== BI_RGB) {
    throw new BmpError('compressed BMP');
  }
  if (bpp === 16 && !masks) masks = [0x7c00, 0x03e0, 0x001f, 0];
  if (bpp === 32 && !masks) masks = [0xff0000, 0x00ff00, 0x0000ff, 0];
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw new BmpError('unsupported bit depth');

  let palette: Buffer | null = null;
  if (bpp <= 8) {
    const count = colours || 1 << bpp;
    const start = 14 + headerSize;
    if (count > 256 || b.length < start + count * paletteEntry) throw new BmpError('bad palette');
    palette = Buffer.alloc(256 * 3);
    for (let i = 0; i < count; i++) {
      const p = start + i * paletteEntry;
      palette[i * 3] = b[p + 2]!;
      palette[i * 3 + 1] = b[p + 1]!;
      palette[i * 3 + 2] = b[p]!;
    }
  }

  const stride = Math.floor((bpp * width + 31) / 32) * 4;
  if (dataOffset + stride * height > b.length) throw new BmpError('truncated BMP');
  const [r, g, bl, a] = (masks ?? [0, 0, 0, 0]).map(channel);
  const channels: 3 | 4 = a ? 4 : 3;
  const out = Buffer.alloc(width * height * channels);

  for (let y = 0; y < height; y++) {
    const row = dataOffset + (topDown ? y : height - 1 - y) * stride;
    let o = y * width * channels;
    for (let x = 0; x < width; x++, o += channels) {
      if (palette) {
        const bit = x * bpp;
        const byte = b[row + (bit >> 3)]!;
        const idx = bpp === 8 ? byte : (byte >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        out[o] = palette[idx * 3]!;
        out[o + 1] = palette[idx * 3 + 1]!;
        out[o + 2] = palette[idx * 3 + 2]!;
      } else if (bpp === 24) {
        const p = row + x * 3;
        out[o] = b[p + 2]!;
        out[o + 1] = b[p + 1]!;
        out[o + 2] = b[p]!;
      } else {
        const v = bpp === 16 ? b.readUInt16LE(row + x * 2) : b.readUInt32LE(row + x * 4);
        out[o] = r ? r(v) : 0;
        out[o + 1] = g ? g(v) : 0;
        out[o + 2] = bl ? bl(v) : 0;
        if (a) out[o + 3] = a(v);
      }
    }
  }
  return { data: out, width, height, channels };
}
