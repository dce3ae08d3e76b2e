/**
 * Width and height of an image from its first bytes (PNG, GIF, BMP, WebP, JPEG), without a
 * decoder. Answers null for anything else or a header it cannot read. JPEG dimensions sit in
 * the first SOF segment, which follows EXIF and other segments; HEAD_BYTES covers common files.
 */
export const HEAD_BYTES = 256 * 1024;

export function imageSize(b: Buffer): { width: number; height: number } | null {
  const ok = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : null);
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('latin1', 12, 16) === 'IHDR') {
    return ok(b.readUInt32BE(16), b.readUInt32BE(20));
  }
  if (b.length >= 10 && b.toString('latin1', 0, 4) === 'GIF8')
    return ok(b.readUInt16LE(6), b.readUInt16LE(8));
  if (b.length >= 26 && b.toString('latin1', 0, 2) === 'BM') {
    return ok(Math.abs(b.readInt32LE(18)), Math.abs(b.readInt32LE(22)));
  }
  if (b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    const kind = b.toString('latin1', 12, 16);
    if (kind === 'VP8X') return ok(1 + b.readUIntLE(24, 3), 1 + b.readUIntLE(27, 3));
    if (kind === 'VP8L') {
      const bits = b.readUInt32LE(21);
      return ok(1 + (bits & 0x3fff), 1 + ((bits >> 14) & 0x3fff));
    }
    if (kind === 'VP8 ') return ok(b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
    return null;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1]!;
      if (marker === 0xff) {
        i++;
        continue;
      }
      const len = b.readUInt16BE(i + 2);
      // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return ok(b.readUInt16BE(i + 7), b.readUInt16BE(i + 5));
      }
      i += 2 + len;
    }
  }
  return null;
}
