import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { scene, VARIANTS } from './photo-util';
import { exifTakenAt, xmpTags } from '../../src/server/modules/photo/image-meta';
import {
  HASHES_PER_IMAGE,
  bestDistance,
  dctHash,
  distance,
  fromHex,
  hashImage,
  popcount32,
  toHex,
} from '../../src/server/modules/photo/phash';
import { createPhotoIndex } from '../../src/server/modules/photo/photo-index';

const opts = { limitInputPixels: 1e8 };

describe('the perceptual hash', () => {
  it('counts bits and round-trips through hex', () => {
    expect(popcount32(0)).toBe(0);
    expect(popcount32(0xffffffff)).toBe(32);
    expect(popcount32(0x80000001)).toBe(2);
    expect(distance([0xffffffff, 0], [0, 0xffffffff])).toBe(64);
    const h: [number, number] = [0xdeadbeef, 0x01234567];
    expect(fromHex(toHex(h))).toEqual(h);
  });

  it('gives a flat picture a stable hash and a gradient a different one', () => {
    const flat = new Uint8Array(32 * 32).fill(128);
    const ramp = Uint8Array.from({ length: 32 * 32 }, (_, i) => (i % 32) * 8);
    expect(distance(dctHash(flat), dctHash(flat))).toBe(0);
    expect(distance(dctHash(flat), dctHash(ramp))).toBeGreaterThan(0);
  });

  it('keeps near-duplicates within a few bits and distinct scenes far apart', async () => {
    const a = await scene(1);
    const b = await scene(2);
    const stored = await hashImage(a, { windows: true, ...opts });
    expect(stored.hashes).toHaveLength(HASHES_PER_IMAGE);
    expect([stored.width, stored.height]).toEqual([640, 480]);
    for (const make of Object.values(VARIANTS)) {
      const q = (await hashImage(await make(a), { windows: false, ...opts })).hashes[0]!;
      expect(bestDistance(q, stored.hashes)).toBeLessThanOrEqual(6);
    }
    const other = (await hashImage(b, { windows: false, ...opts })).hashes[0]!;
    expect(bestDistance(other, stored.hashes)).toBeGreaterThan(12);
  });

  it('without the crop windows, a 10 % corner crop drifts far (why the windows exist)', async () => {
    const a = await scene(3);
    const whole = (await hashImage(a, { windows: false, ...opts })).hashes[0]!;
    const q = (await hashImage(await VARIANTS.croppedCorner(a), { windows: false, ...opts })).hashes[0]!;
    const windows = (await hashImage(a, { windows: true, ...opts })).hashes;
    expect(distance(q, whole)).toBeGreaterThan(bestDistance(q, windows) + 6);
  });

  it('reads EXIF date taken and XMP keywords, and ignores junk', async () => {
    const img = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
      .withExif({ IFD2: { DateTimeOriginal: '2023:01:02 03:04:05' } })
      .jpeg()
      .toBuffer();
    const meta = await sharp(img).metadata();
    expect(exifTakenAt(meta.exif)).toBe(Date.UTC(2023, 0, 1, 19, 4, 5));
    expect(exifTakenAt(Buffer.from('Exif\0\0garbage garbage'))).toBeNull();
    expect(exifTakenAt(undefined)).toBeNull();
    const xmp = Buffer.from(
      '<dc:subject><rdf:Bag><rdf:li>甲</rdf:li><rdf:li> 甲 </rdf:li><rdf:li>a &amp; b</rdf:li></rdf:Bag></dc:subject>',
    );
    expect(xmpTags(xmp)).toEqual(['甲', 'a & b']);
    expect(xmpTags(Buffer.from('<x/>'))).toEqual([]);
  });
});

describe('the in-memory index', () => {
  it('answers the nearest contents within the distance, best first, and replaces a content', () => {
    const index = createPhotoIndex();
    const hex = (hi: number, lo: number) => toHex([hi >>> 0, lo >>> 0]);
    index.put({ md5: 'a', hashes: hex(0, 0) + hex(0xff, 0) });
    index.put({ md5: 'b', hashes: hex(0, 0b111) });
    for (let i = 0; i < 3000; i++) index.put({ md5: `x${i}`, hashes: hex(0xffffffff, 0xffff0000 + i) });
    expect(index.size).toBe(3002);
    expect(index.nearest([0xff, 0], 4, 10)).toEqual([{ md5: 'a', distance: 0 }]);
    expect(index.nearest([0, 1], 4, 10)).toEqual([
      { md5: 'a', distance: 1 },
      { md5: 'b', distance: 2 },
    ]);
    index.put({ md5: 'b', hashes: hex(0, 1) });
    expect(index.size).toBe(3002);
    expect(index.nearest([0, 1], 4, 1)).toEqual([{ md5: 'b', distance: 0 }]);
  });
});
