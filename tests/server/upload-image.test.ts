import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageSize } from '../../src/server/storage/image-size';
import { startServer, type TestServer } from './harness';
import { driveUser } from './drive-util';
import { paramsOf, uploadAll } from './upload-util';

/** A PNG header (signature and IHDR) of w × h, padded to `size` bytes. */
function png(w: number, h: number, size: number) {
  const b = Buffer.alloc(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  return b;
}

/** A JPEG with an APP1 segment before its SOF0. */
function jpeg(w: number, h: number) {
  const app1 = Buffer.from([0xff, 0xe1, 0x00, 0x06, 1, 2, 3, 4]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 8, h >> 8, h & 255, w >> 8, w & 255, 3]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app1, sof, Buffer.alloc(20)]);
}

describe('imageSize', () => {
  it('reads PNG, GIF and JPEG headers; answers null otherwise', () => {
    expect(imageSize(png(640, 480, 40))).toEqual({ width: 640, height: 480 });
    const gif = Buffer.alloc(16);
    gif.write('GIF89a', 0, 'latin1');
    gif.writeUInt16LE(32, 6);
    gif.writeUInt16LE(16, 8);
    expect(imageSize(gif)).toEqual({ width: 32, height: 16 });
    expect(imageSize(jpeg(1200, 800))).toEqual({ width: 1200, height: 800 });
    expect(imageSize(Buffer.from('not an image at all, just some text'))).toBeNull();
  });
});

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('uploaded images', () => {
  it('record width and height', async () => {
    const u = await driveUser(s, 'staff06');
    const file = png(3000, 2000, 2 * 64 * 1024 + 10);
    const r = await uploadAll(s, u.token, file, paramsOf(file, '文物.png'));
    expect(r.data.done).toBe(true);
    const row = (await u.rows('/')).find((x) => x.fileName === '文物');
    expect(row).toMatchObject({ imageWidth: 3000, imageHeight: 2000 });
  });
});
