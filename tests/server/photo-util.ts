import sharp from 'sharp';

/*
 * Seeded test pictures for image search (tests/server/photo-search*.test.ts, the hash's unit
 * test, the benchmark and the e2e spec): photo-like scenes drawn with sharp from an SVG of
 * overlapping shapes on a gradient, with grain, and their near-duplicates.
 */

/** A small deterministic generator (mulberry32). */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A photo-like JPEG of `width` × `height`, different for every seed. */
export async function scene(seed: number, width = 640, height = 480): Promise<Buffer> {
  const r = rng(seed);
  const c = () => `rgb(${Math.floor(r() * 256)},${Math.floor(r() * 256)},${Math.floor(r() * 256)})`;
  const shapes: string[] = [];
  for (let i = 0; i < 14; i++) {
    const x = r() * width;
    const y = r() * height;
    const s = (0.08 + r() * 0.3) * width;
    shapes.push(
      r() < 0.5
        ? `<ellipse cx="${x}" cy="${y}" rx="${s}" ry="${s * (0.4 + r())}" fill="${c()}" opacity="${0.5 + r() / 2}"/>`
        : `<rect x="${x - s / 2}" y="${y - s / 2}" width="${s}" height="${s * (0.4 + r())}" fill="${c()}" opacity="${0.5 + r() / 2}" transform="rotate(${r() * 90} ${x} ${y})"/>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="${r()}" y2="1"><stop offset="0" stop-color="${c()}"/><stop offset="1" stop-color="${c()}"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${shapes.join('')}</svg>`;
  // Grain, as a camera sensor adds: a little noise over the whole picture.
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(r() * 24);
  const base = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  for (let i = 0; i < base.length; i++)
    base[i] = Math.min(255, base[i]! + noise[i]! - 12 < 0 ? 0 : base[i]! + noise[i]! - 12);
  return sharp(base, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The near-duplicates a keeper's photo of a museum image may be. */
export const VARIANTS = {
  /** Resized to half. */
  resized: async (b: Buffer) => {
    const m = await sharp(b).metadata();
    return sharp(b)
      .resize(Math.round(m.width! / 2))
      .jpeg({ quality: 85 })
      .toBuffer();
  },
  /** Recompressed at JPEG quality 30. */
  recompressed: (b: Buffer) => sharp(b).jpeg({ quality: 30 }).toBuffer(),
  /** 10 % cut off, 5 % on every side. */
  croppedCentre: async (b: Buffer) => crop(b, 0.05, 0.05, 0.9, 0.9),
  /** 10 % cut off the left and the top. */
  croppedCorner: async (b: Buffer) => crop(b, 0.1, 0.1, 0.9, 0.9),
  /** 10 % cut off the right side only. */
  croppedSide: async (b: Buffer) => crop(b, 0, 0, 0.9, 1),
  /** Resized to 70 %, 10 % cut off the bottom, recompressed at 50: all at once. */
  combined: async (b: Buffer) => {
    const m = await sharp(b).metadata();
    const small = await sharp(b)
      .resize(Math.round(m.width! * 0.7))
      .toBuffer();
    return crop(small, 0, 0, 1, 0.9, 50);
  },
} as const;

async function crop(b: Buffer, fx: number, fy: number, fw: number, fh: number, quality = 85) {
  const m = await sharp(b).metadata();
  const W = m.width!;
  const H = m.height!;
  return sharp(b)
    .extract({
      left: Math.round(W * fx),
      top: Math.round(H * fy),
      width: Math.round(W * fw),
      height: Math.round(H * fh),
    })
    .jpeg({ quality })
    .toBuffer();
}
