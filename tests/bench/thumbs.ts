/**
 * List thumbnails (issue 5): what a page of image rows costs with thumbnails against showing
 * the originals, measured in the same run on the same server.
 *
 * - cold: the first `isMin=1` request of each of PHOTOS camera-sized JPEGs (sharp makes and
 *   caches the WebP), against serving the original once;
 * - warm: the cached thumbnail (what every later listing pays), against the original;
 * - revalidation: a repeat with If-None-Match (the browser's cache check), a 304;
 * - bytes: thumbnail against original, the transfer a tablet saves per row.
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { startServer } from '../server/harness';
import { driveUser } from '../server/drive-util';

const PHOTOS = 20;
const W = 4000;
const H = 3000;

/**
 * A photo-like JPEG: a few hundred overlapping shapes with fine grain. Plain noise would average
 * to flat grey in a thumbnail and flatter the byte counts.
 */
async function photo(seed: number) {
  let x = seed * 7919 + 1;
  const rnd = () => (x = (x * 16807) % 2147483647) / 2147483647;
  const shapes = Array.from({ length: 400 }, () => {
    const [cx, cy, r] = [rnd() * W, rnd() * H, 20 + rnd() * 400];
    const fill = `rgb(${(rnd() * 255) | 0},${(rnd() * 255) | 0},${(rnd() * 255) | 0})`;
    return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}" fill-opacity="0.6"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#8a7"/>${shapes}</svg>`;
  return sharp(Buffer.from(svg))
    .composite([
      {
        input: await sharp({
          create: {
            width: W,
            height: H,
            channels: 4,
            background: { r: 0, g: 0, b: 0, alpha: 0 },
            noise: { type: 'gaussian', mean: 128, sigma: 20 },
          },
        })
          .png()
          .toBuffer(),
        blend: 'soft-light',
      },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}

const s = await startServer({ RATE_LIMIT_PER_MINUTE: '100000000' });
try {
  const u = await driveUser(s, 'staff03');
  const ids: number[] = [];
  let originalBytes = 0;
  for (let i = 0; i < PHOTOS; i++) {
    const bytes = await photo(i);
    originalBytes += bytes.length;
    ids.push(await u.put('/', `相片${i}.jpg`, bytes));
  }
  const get = async (id: number, min: boolean, etag?: string) => {
    const res = await fetch(
      `${s.url}/wangpan/filetransfer/preview?userFileId=${id}${min ? '&isMin=1' : ''}`,
      {
        headers: { token: u.token, ...(etag ? { 'if-none-match': etag } : {}) },
      },
    );
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, bytes: body.length, etag: res.headers.get('etag') ?? undefined };
  };
  const time = async (fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };

  // Originals once, to warm the OS file cache like the thumbnails' sources will be.
  let original = 0;
  for (const id of ids) original += await time(() => get(id, false));
  original = 0;
  for (const id of ids) original += await time(() => get(id, false));

  let cold = 0;
  for (const id of ids) cold += await time(() => get(id, true));
  let warm = 0;
  let thumbBytes = 0;
  const etags: (string | undefined)[] = [];
  for (const id of ids)
    warm += await time(async () => {
      const r = await get(id, true);
      thumbBytes += r.bytes;
      etags.push(r.etag);
    });
  let revalidate = 0;
  let notModified = 0;
  for (const [i, id] of ids.entries())
    revalidate += await time(async () => {
      if ((await get(id, true, etags[i])).status === 304) notModified++;
    });

  const per = (ms: number) => `${(ms / PHOTOS).toFixed(1).padStart(7)} ms`;
  const ratio = (a: number) => `×${(a / original).toFixed(2)} of the original`;
  console.log(
    `\nThumbnails (${PHOTOS} JPEGs of ${W}×${H}, ${(originalBytes / PHOTOS / 1024 / 1024).toFixed(1)} MB each)`,
  );
  console.log(`reference: original preview      ${per(original)}`);
  console.log(`thumbnail, first (made, cached)  ${per(cold)}   ${ratio(cold)}`);
  console.log(`thumbnail, cached                ${per(warm)}   ${ratio(warm)}`);
  console.log(
    `thumbnail, revalidated (304)     ${per(revalidate)}   ${ratio(revalidate)}   (${notModified}/${PHOTOS} answered 304)`,
  );
  console.log(
    `bytes per row: ${(thumbBytes / PHOTOS / 1024).toFixed(1)} KB against ${(originalBytes / PHOTOS / 1024).toFixed(0)} KB   ×${(thumbBytes / originalBytes).toFixed(4)}`,
  );
} finally {
  await s.close();
}
