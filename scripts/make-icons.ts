/**
 * Draws the app icons (a museum facade on the theme colour) as PNGs without any image
 * library, so they can be regenerated anywhere: `npx tsx scripts/make-icons.ts`.
 * The maskable icon keeps its drawing inside the 80 % safe zone.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';

const BG = [0x7a, 0x2e, 0x1d];
const FG = [0xf7, 0xf3, 0xee];

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** Is (x, y) in unit coordinates (0..1 of the drawing box) part of the facade? */
function facade(x: number, y: number): boolean {
  if (y >= 0.1 && y <= 0.32 && Math.abs(x - 0.5) <= (y - 0.1) * (0.5 / 0.22)) return true; // pediment
  if (y > 0.36 && y < 0.8)
    for (const cx of [0.16, 0.38, 0.62, 0.84]) if (Math.abs(x - cx) < 0.055) return true;
  return y >= 0.84 && y <= 0.92 && x >= 0.04 && x <= 0.96; // base
}

function icon(size: number, inset: number, rounded: boolean): Buffer {
  const rows: Buffer[] = [];
  const r = size * 0.2;
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      const dx = Math.max(r - x, 0, x - (size - 1 - r));
      const dy = Math.max(r - y, 0, y - (size - 1 - r));
      const outside = rounded && dx * dx + dy * dy > r * r;
      const ux = (x - size * inset) / (size * (1 - 2 * inset));
      const uy = (y - size * inset) / (size * (1 - 2 * inset));
      const fg = ux >= 0 && ux <= 1 && uy >= 0 && uy <= 1 && facade(ux, uy);
      const c = fg ? FG : BG;
      row.set([c[0]!, c[1]!, c[2]!, outside ? 0 : 255], 1 + x * 4);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

fs.mkdirSync('public/icons', { recursive: true });
fs.writeFileSync('public/icons/icon-192.png', icon(192, 0.18, true));
fs.writeFileSync('public/icons/icon-512.png', icon(512, 0.18, true));
fs.writeFileSync('public/icons/icon-maskable-512.png', icon(512, 0.22, false));
console.log('图标已生成：public/icons/');
