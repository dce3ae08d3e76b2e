/**
 * Image search (issue 24, README "Image search"): one picture search over 100,000 images
 * (1,000,000 stored hashes: the whole picture and nine crop windows each), p50 and p95 of the
 * index's scan, against a reference measured in the same run: a bare pass over the same
 * memory (XOR of every word, no popcount, no ranking). Also the other half of a search, hashing
 * the query picture (a 640 × 480 JPEG), and the index's memory. Target: the whole search under a
 * second; in practice tens of milliseconds.
 */
import { performance } from 'node:perf_hooks';
import { PHOTO_MAX_DISTANCE, PHOTO_MAX_HITS } from '../../src/shared/api/photo';
import { HASHES_PER_IMAGE, hashImage, toHex } from '../../src/server/modules/photo/phash';
import { createPhotoIndex } from '../../src/server/modules/photo/photo-index';
import { rng, scene } from '../server/photo-util';

const IMAGES = 100_000;
const RUNS = 100;

function pct(samples: number[], p: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const r = rng(24);
const word = () => Math.floor(r() * 2 ** 32) >>> 0;
const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
const index = createPhotoIndex();
const t0 = performance.now();
const flat = new Uint32Array(IMAGES * HASHES_PER_IMAGE * 2);
for (let i = 0; i < IMAGES; i++) {
  let hex = '';
  for (let h = 0; h < HASHES_PER_IMAGE; h++) {
    const hi = word();
    const lo = word();
    flat[(i * HASHES_PER_IMAGE + h) * 2] = hi;
    flat[(i * HASHES_PER_IMAGE + h) * 2 + 1] = lo;
    hex += toHex([hi, lo]);
  }
  index.put({ md5: i.toString(16).padStart(32, '0'), hashes: hex });
}
const loadMs = performance.now() - t0;
const mem = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - heapBefore;

// One real picture among them, and a query near it.
const photo = await scene(1);
const stored = await hashImage(photo, { windows: true, limitInputPixels: 1e8 });
index.put({ md5: 'f'.repeat(32), hashes: stored.hashes.map(toHex).join('') });

const queries = Array.from({ length: RUNS }, () => [word(), word()] as [number, number]);
let sink = 0;
const bare = () => {
  const q = queries[sink % RUNS]!;
  let x = 0;
  for (let i = 0; i < flat.length; i += 2) x ^= (flat[i]! ^ q[0]) + (flat[i + 1]! ^ q[1]);
  sink += x & 1;
};
const scan = (q: [number, number]) => index.nearest(q, PHOTO_MAX_DISTANCE, PHOTO_MAX_HITS * 8);
for (let i = 0; i < 10; i++) {
  bare();
  scan(queries[i]!);
}
const refs: number[] = [];
const scans: number[] = [];
for (let i = 0; i < RUNS; i++) {
  let a = performance.now();
  bare();
  refs.push(performance.now() - a);
  a = performance.now();
  scan(queries[i]!);
  scans.push(performance.now() - a);
}
const hashes: number[] = [];
let found = '';
for (let i = 0; i < 20; i++) {
  const a = performance.now();
  const q = (await hashImage(photo, { windows: false, limitInputPixels: 1e8 })).hashes[0]!;
  hashes.push(performance.now() - a);
  found = scan(q)[0]?.md5 ?? '';
}
if (found !== 'f'.repeat(32)) throw new Error('the real picture was not found first');

const fmt = (ms: number) => `${ms.toFixed(2)} ms`.padStart(10);
console.log(
  `\n馆务云 image search bench: ${IMAGES.toLocaleString('en')} images, ${(IMAGES * HASHES_PER_IMAGE).toLocaleString('en')} hashes`,
);
console.log(`index filled in ${loadMs.toFixed(0)} ms, about ${(mem / 1024 / 1024).toFixed(1)} MB`);
console.log(
  `reference: bare pass over the same words   p50 ${fmt(pct(refs, 50))}  p95 ${fmt(pct(refs, 95))}`,
);
console.log(
  `index scan (popcount, best of 10, rank)    p50 ${fmt(pct(scans, 50))}  p95 ${fmt(pct(scans, 95))}   ×${(pct(scans, 50) / pct(refs, 50)).toFixed(2)} of reference`,
);
console.log(
  `hashing the query (640 × 480 JPEG)         p50 ${fmt(pct(hashes, 50))}  p95 ${fmt(pct(hashes, 95))}`,
);
console.log(
  `a picture search, hash + scan (p95 sum):   ${fmt(pct(hashes, 95) + pct(scans, 95))}   target < 1000 ms`,
);
