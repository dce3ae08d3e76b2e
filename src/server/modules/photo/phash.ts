import type { Sharp } from 'sharp';
import { loadSharp } from '../../lazy';

/*
 * Perceptual image hashes (README "Image search"). A DCT pHash: the picture in grey, shrunk to
 * 32 × 32 (aspect ignored), its 2-D DCT, and the 8 × 8 lowest frequencies but the DC term
 * compared with their median: 64 bits that stay put under resizing and JPEG recompression.
 *
 * A crop moves the frame, and one global hash drifts by 10–20 bits at a 10 % crop. So a stored
 * image keeps ten hashes: the whole picture, five 90 % × 90 % windows (centre and the four
 * corners) and four windows that cut 10 % off one side; a query is hashed whole and compared
 * with all ten, the best counting. A photo cropped by up to ~10 % on any sides then lands near
 * one of the windows (measured in phash.test.ts and written in the README).
 */

/** Bits per hash. */
export const HASH_BITS = 64;
/** Hashes kept per stored image: the whole picture, then the windows of WINDOWS. */
export const HASHES_PER_IMAGE = 1 + 9;
/**
 * The crop windows, as [left, top, width, height] fractions of the picture: 10 % off every
 * side at once (centre), off two sides (the four corners), and off one side (four).
 */
const WINDOWS: readonly (readonly [number, number, number, number])[] = [
  [0.05, 0.05, 0.9, 0.9],
  [0, 0, 0.9, 0.9],
  [0.1, 0, 0.9, 0.9],
  [0, 0.1, 0.9, 0.9],
  [0.1, 0.1, 0.9, 0.9],
  [0, 0, 0.9, 1],
  [0.1, 0, 0.9, 1],
  [0, 0, 1, 0.9],
  [0, 0.1, 1, 0.9],
];
const N = 32;
const LOW = 8;

/** cos((2x + 1) u π / 2N), precomputed. */
const COS = (() => {
  const t = new Float64Array(N * N);
  for (let u = 0; u < N; u++)
    for (let x = 0; x < N; x++) t[u * N + x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * N));
  return t;
})();

/** 64 bits from 32 × 32 grey pixels, as two unsigned 32-bit halves [hi, lo]. */
export function dctHash(px: Uint8Array | Float64Array): [number, number] {
  // Rows first, only the LOW frequencies needed, then columns.
  const rows = new Float64Array(N * LOW);
  for (let y = 0; y < N; y++)
    for (let u = 0; u < LOW; u++) {
      let s = 0;
      for (let x = 0; x < N; x++) s += px[y * N + x]! * COS[u * N + x]!;
      rows[y * LOW + u] = s;
    }
  const coef = new Float64Array(LOW * LOW);
  for (let v = 0; v < LOW; v++)
    for (let u = 0; u < LOW; u++) {
      let s = 0;
      for (let y = 0; y < N; y++) s += rows[y * LOW + u]! * COS[v * N + y]!;
      coef[v * LOW + u] = s;
    }
  // The median of the 63 AC terms (the DC term only says how bright the picture is).
  const ac = Array.from(coef.subarray(1)).sort((a, b) => a - b);
  const median = ac[31]!;
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < 64; i++) {
    const bit = i === 0 ? 0 : coef[i]! > median ? 1 : 0;
    if (i < 32) hi = (hi | (bit << (31 - i))) >>> 0;
    else lo = (lo | (bit << (63 - i))) >>> 0;
  }
  return [hi, lo];
}

/** Number of set bits in a 32-bit value. */
export function popcount32(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Bits that differ between two hashes. */
export function distance(a: readonly [number, number], b: readonly [number, number]): number {
  return popcount32((a[0] ^ b[0]) >>> 0) + popcount32((a[1] ^ b[1]) >>> 0);
}

/** 16 hex digits. */
export function toHex(h: readonly [number, number]): string {
  return h[0].toString(16).padStart(8, '0') + h[1].toString(16).padStart(8, '0');
}
export function fromHex(s: string): [number, number] {
  return [parseInt(s.slice(0, 8), 16) >>> 0, parseInt(s.slice(8, 16), 16) >>> 0];
}

async function grey32(img: Sharp): Promise<Uint8Array> {
  const { data } = await img
    .greyscale()
    .resize(N, N, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data.buffer, data.byteOffset, N * N);
}

/** What decoding an image once gives: its hashes and size. */
export interface ImageHashes {
  /** HASHES_PER_IMAGE hashes for a stored image, or one for a query. */
  hashes: [number, number][];
  width: number;
  height: number;
  /** The raw EXIF and XMP blocks, for the date taken and the keywords (image-meta.ts). */
  exif?: Buffer;
  xmp?: Buffer;
}

/**
 * Hashes an image. The picture is decoded once (upright by its EXIF orientation) and shrunk to
 * at most 512 px before the windows are cut, so a 100 MP scan costs about what a photo does.
 * `windows` false gives the single whole-picture hash a query needs.
 */
export async function hashImage(
  input: Buffer | string,
  opts: { windows: boolean; limitInputPixels: number; timeoutSeconds?: number },
): Promise<ImageHashes> {
  const sharp = await loadSharp();
  const base = sharp(input, { limitInputPixels: opts.limitInputPixels, failOn: 'error' });
  const meta = await base.metadata();
  const { data, info } = await base
    .rotate()
    .resize(512, 512, { fit: 'inside', withoutEnlargement: true })
    .greyscale()
    .raw()
    .timeout({ seconds: opts.timeoutSeconds ?? 20 })
    .toBuffer({ resolveWithObject: true });
  const small = () =>
    sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const hashes: [number, number][] = [dctHash(await grey32(small()))];
  if (opts.windows) {
    for (const [fx, fy, fw, fh] of WINDOWS) {
      const w = Math.max(1, Math.round(info.width * fw));
      const h = Math.max(1, Math.round(info.height * fh));
      const left = Math.min(info.width - w, Math.round(info.width * fx));
      const top = Math.min(info.height - h, Math.round(info.height * fy));
      hashes.push(dctHash(await grey32(small().extract({ left, top, width: w, height: h }))));
    }
  }
  const swap = (meta.orientation ?? 1) >= 5;
  return {
    hashes,
    width: (swap ? meta.height : meta.width) ?? info.width,
    height: (swap ? meta.width : meta.height) ?? info.height,
    exif: meta.exif,
    xmp: meta.xmp,
  };
}

/** The best (smallest) distance between a query hash and any of an image's hashes. */
export function bestDistance(
  q: readonly [number, number],
  stored: readonly (readonly [number, number])[],
): number {
  let best = HASH_BITS;
  for (const s of stored) best = Math.min(best, distance(q, s));
  return best;
}
