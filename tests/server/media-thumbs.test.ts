import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThumbs } from '../../src/server/modules/drive/thumbs';
import { createLocalBlobStore } from '../../src/server/storage/blob-store';
import { driveServiceOf, startServer, type TestServer } from './harness';
import { NOT_FOUND, W, driveUser, failed, type DriveUser } from './drive-util';
import { bmp24, picture, probe } from './media-util';

/*
 * Thumbnails (`filetransfer/preview?isMin=1`) and video posters (`filetransfer/poster`): small
 * WebP images made once per content and cached on disk, posters kept per owner, every input
 * bounded, other people's ids answered like missing ones.
 */

let s: TestServer;
let me: DriveUser;
let other: DriveUser;
let keeper: DriveUser; // 典藏管理员: manages 其他资源
let plain: DriveUser; // no role: the personal drive only

beforeAll(async () => {
  s = await startServer();
  const svc = driveServiceOf(s);
  me = await driveUser(s, 'staff03', svc);
  other = await driveUser(s, 'staff05', svc);
  keeper = await driveUser(s, 'staff04', svc);
  plain = await driveUser(s, 'staff02', svc);
});
afterAll(() => s.close());

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
/** The thumbnail's name on the server's shelf (DATA_DIR/thumbs, or the bucket's thumbs/). */
const cacheName = (content: Buffer) => {
  const m = md5(content);
  return `${m.slice(0, 2)}/${m}.v1.webp`;
};

async function thumb(
  u: DriveUser,
  id: number,
  query: Record<string, string | number> = {},
  headers: Record<string, string> = {},
) {
  const q = new URLSearchParams({ userFileId: String(id), isMin: '1' });
  for (const [k, v] of Object.entries(query)) q.set(k, String(v));
  const res = await fetch(`${s.url}${W}/filetransfer/preview?${q}`, {
    headers: { token: u.token, ...headers },
  });
  const buf = Buffer.from(await res.arrayBuffer());
  let json: any = null;
  if (res.headers.get('content-type')?.startsWith('application/json')) json = JSON.parse(buf.toString());
  return { status: res.status, headers: res.headers, buf, json };
}

async function postPoster(
  u: DriveUser,
  id: number,
  body: Buffer | string | undefined,
  type: string | null = 'image/jpeg',
  query: Record<string, string | number> = {},
) {
  const q = new URLSearchParams({ userFileId: String(id) });
  for (const [k, v] of Object.entries(query)) q.set(k, String(v));
  const headers: Record<string, string> = { token: u.token };
  if (type) headers['content-type'] = type;
  const res = await fetch(`${s.url}${W}/filetransfer/poster?${q}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : body ? new Uint8Array(body) : undefined,
  });
  return { status: res.status, body: JSON.parse(await res.text()) as any };
}

/** The colour of the pixel at the centre of an image. */
async function centre(img: Buffer) {
  const { data, info } = await sharp(img).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * 3;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}
const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 24);

const solid = (w: number, h: number, rgb: [number, number, number], fmt: 'png' | 'jpeg' | 'webp' = 'png') =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .toFormat(fmt)
    .toBuffer();

const NO_THUMB = { success: false, code: 404, message: '暂无缩略图', data: null };

describe('image thumbnails', () => {
  it('makes a small WebP of a photo, fit inside 256 px, private with an ETag', async () => {
    const photo = await picture(2000, 1500);
    const id = await me.put('/', '青铜器全景.jpg', photo);
    const r = await thumb(me, id);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/webp');
    expect(r.headers.get('cache-control')).toMatch(/^private/);
    expect(r.headers.get('etag')).toBe(`"t1-${md5(photo)}"`);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await probe(r.buf)).toEqual({ width: 256, height: 192, format: 'webp' });
    expect(r.buf.length).toBeLessThan(30 * 1024);
    expect(Number(r.headers.get('content-length'))).toBe(r.buf.length);
  });

  it('is made once and then read from the cache; a revalidation answers 304 without a body', async () => {
    const photo = await picture(800, 600, 'png');
    const id = await me.put('/', '缓存测试.png', photo);
    const first = await thumb(me, id);
    expect(first.status).toBe(200);
    expect(await s.storage.thumbs.has(cacheName(photo))).toBe(true);
    // Replace the cached bytes: a second request that regenerated would not answer them.
    const marker = await solid(10, 10, [1, 2, 3], 'webp');
    await s.storage.thumbs.put(cacheName(photo), marker);
    const second = await thumb(me, id);
    expect(second.buf.equals(marker)).toBe(true);
    const again = await thumb(me, id, {}, { 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.buf.length).toBe(0);
  });

  it('keeps one cache entry per content, shared by everyone who has it', async () => {
    const photo = await picture(640, 480, 'jpeg');
    const mine = await thumb(me, await me.put('/', '同一张.jpg', photo));
    const theirs = await thumb(other, await other.put('/', '别人的同一张.jpg', photo));
    expect(theirs.buf.equals(mine.buf)).toBe(true);
    const m = md5(photo);
    expect(await s.storage.thumbs.namesStartingWith(`${m.slice(0, 2)}/${m}`)).toEqual([cacheName(photo)]);
  });

  it('reads PNG, WebP, BMP and the first frame of an animated GIF', async () => {
    const png = await thumb(me, await me.put('/', '红.png', await solid(600, 300, [220, 20, 20])));
    expect(await probe(png.buf)).toEqual({ width: 256, height: 128, format: 'webp' });
    expect(near(await centre(png.buf), [220, 20, 20])).toBe(true);

    const webp = await thumb(me, await me.put('/', '绿.webp', await solid(300, 600, [20, 200, 20], 'webp')));
    expect(await probe(webp.buf)).toEqual({ width: 128, height: 256, format: 'webp' });

    const bmp = await thumb(me, await me.put('/', '扫描件.bmp', bmp24(513, 300, [30, 60, 200])));
    expect(bmp.status).toBe(200);
    expect((await probe(bmp.buf)).width).toBe(256);
    expect(near(await centre(bmp.buf), [30, 60, 200])).toBe(true);

    const frames = [await solid(64, 64, [255, 0, 0]), await solid(64, 64, [0, 0, 255])];
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    const g = await thumb(me, await me.put('/', '动图.gif', gif));
    expect(g.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(g.buf).metadata()).pages).toBeUndefined(); // one frame, not an animation
    expect(near(await centre(g.buf), [255, 0, 0])).toBe(true);
  });

  it('does not enlarge a small image', async () => {
    const r = await thumb(me, await me.put('/', '小图标.png', await solid(40, 30, [9, 9, 9])));
    expect(await probe(r.buf)).toEqual({ width: 40, height: 30, format: 'webp' });
  });

  it('rasterises SVG: scripts become pixels, and no other file is read', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" onload="alert(1)">
      <script>alert(2)</script><rect width="100" height="50" fill="#00c000"/></svg>`;
    const r = await thumb(me, await me.put('/', '标志.svg', svg));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/webp');
    // Rasterised near the box, not at its 100 px drawing size.
    expect(await probe(r.buf)).toEqual({ width: 256, height: 128, format: 'webp' });
    expect(near(await centre(r.buf), [0, 192, 0])).toBe(true);
    // The content decides, not the name: the same drawing saved as .png gets the same thumbnail.
    const renamed = await thumb(other, await other.put('/', '其实是矢量图.png', svg));
    expect(renamed.headers.get('etag')).toBe(r.headers.get('etag'));

    // A red PNG on this machine, named by an absolute path and a file: URL.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svg-ref-'));
    const red = path.join(dir, 'red.png');
    fs.writeFileSync(red, await solid(100, 100, [255, 0, 0]));
    const sneaky = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">
      <rect width="100" height="100" fill="#ffffff"/>
      <image x="0" y="0" width="100" height="100" href="file://${red}"/>
      <image x="0" y="0" width="100" height="100" xlink:href="${red}"/></svg>`;
    const s2 = await thumb(me, await me.put('/', '外链.svg', sneaky));
    fs.rmSync(dir, { recursive: true, force: true });
    // (librsvg given the SVG as a file would draw the neighbour: the thumbnailer never does.)
    expect(s2.status).toBe(200);
    expect(near(await centre(s2.buf), [255, 255, 255])).toBe(true);
  });

  it('answers a broken image with 404 暂无缩略图, and remembers it', async () => {
    const junk = Buffer.from('this is not a picture at all, only text pretending to be one');
    const id = await me.put('/', '损坏.jpg', junk);
    const r = await thumb(me, id);
    expect(r.status).toBe(404);
    expect(r.json).toEqual(NO_THUMB);
    const m = md5(junk);
    expect(await s.storage.thumbs.has(`${m.slice(0, 2)}/${m}.v1.bad`)).toBe(true);
    expect((await thumb(me, id)).status).toBe(404);

    // A JPEG cut off after its header, and a PNG that is only a header.
    const cut = (await picture(400, 300, 'jpeg')).subarray(0, 200);
    expect((await thumb(me, await me.put('/', '半截.jpg', cut))).status).toBe(404);
    const head = Buffer.from('89504e470d0a1a0a0000000d4948445200000c8000000960080200000000', 'hex');
    expect((await thumb(me, await me.put('/', '只有头.png', head))).status).toBe(404);
  });

  it('refuses an image past the pixel limit quickly, and keeps serving', async () => {
    // A real PNG of 15,000 × 15,000 one-bit pixels: 225 MP (under sharp's own default limit,
    // over ours), about 30 KB compressed.
    const w = 15000;
    const h = 15000;
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(w, 0);
    ihdr.writeUInt32BE(h, 4);
    ihdr[8] = 1; // bit depth
    ihdr[9] = 0; // greyscale
    const chunk = (type: string, data: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([len, body, crc]);
    };
    const rows = Buffer.alloc((1 + w / 8) * h);
    const bomb = Buffer.concat([
      Buffer.from('89504e470d0a1a0a', 'hex'),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(rows)),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const started = Date.now();
    const r = await thumb(me, await me.put('/', '巨幅.png', bomb));
    expect(r.status).toBe(404);
    expect(Date.now() - started).toBeLessThan(5000);
    const fine = await thumb(me, await me.put('/', '之后.png', await solid(300, 300, [5, 5, 5])));
    expect(fine.status).toBe(200);
  });

  it('has no thumbnail for audio or text (404, never their bytes), and refuses folders as previews do', async () => {
    const mp3 = await thumb(me, await me.put('/', '讲解.mp3', Buffer.alloc(3000, 1)));
    expect(mp3.status).toBe(404);
    expect(mp3.json).toEqual(NO_THUMB);
    expect((await thumb(me, await me.put('/', '说明.txt', '文字'))).json).toEqual(NO_THUMB);
    const dir = await me.mkdir('/', '缩略图文件夹');
    expect((await thumb(me, dir)).json).toMatchObject({
      success: false,
      message: '文件夹不能预览，请打开后查看',
    });
  });

  it("answers another person's image, and a binned one, like a missing file", async () => {
    const id = await me.put('/', '私藏.png', await solid(50, 50, [7, 7, 7]));
    const theirs = await thumb(other, id);
    expect(theirs.status).toBe(200);
    expect(theirs.json).toEqual(NOT_FOUND);
    expect(theirs.json).toEqual((await thumb(other, 99999999)).json);
    const binned = await me.put('/', '已删除.png', await solid(50, 50, [8, 8, 8]));
    expect((await me.post('/file/deletefile', { userFileId: binned })).body.success).toBe(true);
    expect((await thumb(me, binned)).json).toEqual(NOT_FOUND);
  });

  it('serves library thumbnails to every member of staff', async () => {
    const id = await keeper.put('/', '馆藏总览.png', await solid(500, 500, [100, 50, 0]), 'res');
    const r = await thumb(plain, id, { fileType: 9 });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/webp');
    expect((await thumb(plain, id)).json).toEqual(NOT_FOUND); // not in their own drive
  });

  it('removes the cached thumbnail when the content leaves the drive', async () => {
    const photo = await picture(300, 200, 'png');
    const id = await me.put('/', '将被删除.png', photo);
    await thumb(me, id);
    expect(await s.storage.thumbs.has(cacheName(photo))).toBe(true);
    expect((await me.post('/file/deletefile', { userFileId: id, deleteMode: 2 })).body.success).toBe(true);
    expect(await s.storage.thumbs.has(cacheName(photo))).toBe(false);
  });
});

describe('thumbnail cache (the module over a real local blob store)', () => {
  it('makes a thumbnail once for concurrent requests, with no temporary file left', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thumbs-'));
    const store = createLocalBlobStore(path.join(dir, 'blobs'));
    const made: string[] = [];
    const thumbs = createThumbs({
      dir: path.join(dir, 'thumbs'),
      store,
      onMade: (e) => made.push(e.md5),
    });
    const { md5: key } = await store.put(await picture(1200, 900));
    const all = await Promise.all(Array.from({ length: 6 }, () => thumbs.image(key)));
    expect(made).toEqual([key]);
    expect(new Set(all.map((t) => t!.data.toString('base64'))).size).toBe(1);
    await thumbs.image(key);
    expect(made).toEqual([key]);
    expect(fs.readdirSync(path.join(dir, 'thumbs', 'tmp'))).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('video posters', () => {
  const video = (n: number) => Buffer.alloc(4000, n); // bytes only: the server never decodes video

  it('has none until the owner stores one; then isMin answers it', async () => {
    const id = await me.put('/', '修复纪录片.mp4', video(1));
    expect((await thumb(me, id)).json).toEqual(NO_THUMB);
    const frame = await solid(1280, 720, [200, 150, 0], 'jpeg');
    expect((await postPoster(me, id, frame)).body).toEqual({
      success: true,
      code: 0,
      message: '成功',
      data: {},
    });
    const r = await thumb(me, id);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/webp');
    expect(await probe(r.buf)).toEqual({ width: 256, height: 144, format: 'webp' });
    expect(near(await centre(r.buf), [200, 150, 0])).toBe(true);
    expect((await thumb(me, id, {}, { 'if-none-match': r.headers.get('etag')! })).status).toBe(304);
    // A new poster replaces it, with a new validator.
    await postPoster(me, id, await solid(640, 360, [0, 100, 200], 'png'), 'image/png');
    const next = await thumb(me, id);
    expect(next.headers.get('etag')).not.toBe(r.headers.get('etag'));
    expect(near(await centre(next.buf), [0, 100, 200])).toBe(true);
  });

  it('keys posters by owner: the same content elsewhere does not show mine', async () => {
    const content = video(2);
    const mine = await me.put('/', '开幕式.mp4', content);
    const theirs = await other.put('/', '开幕式.mp4', content);
    await postPoster(me, mine, await solid(320, 180, [255, 0, 0], 'webp'), 'image/webp');
    expect((await thumb(other, theirs)).json).toEqual(NO_THUMB);
    await postPoster(other, theirs, await solid(320, 180, [0, 0, 255], 'jpeg'));
    expect(near(await centre((await thumb(me, mine)).buf), [255, 0, 0])).toBe(true);
    expect(near(await centre((await thumb(other, theirs)).buf), [0, 0, 255])).toBe(true);
    // A copy in my own drive shares my poster (same owner, same content).
    expect((await me.post('/file/copyfile', { userFileId: mine, filePath: '/' })).body.success).toBe(true);
    const copy = (await me.rows('/')).find((x) => x.fileName === '开幕式(1)');
    expect(near(await centre((await thumb(me, copy.userFileId)).buf), [255, 0, 0])).toBe(true);
  });

  it("refuses another person's video like a missing one, and leaves the poster alone", async () => {
    const id = await me.put('/', '私人视频.mp4', video(3));
    await postPoster(me, id, await solid(320, 180, [0, 255, 0], 'jpeg'));
    const stolen = await postPoster(other, id, await solid(320, 180, [9, 9, 9], 'jpeg'));
    expect(stolen.body).toEqual(NOT_FOUND);
    expect(stolen.body).toEqual((await postPoster(other, 99999999, await solid(8, 8, [9, 9, 9]))).body);
    expect(near(await centre((await thumb(me, id)).buf), [0, 255, 0])).toBe(true);
  });

  it('refuses bad bodies with a reason', async () => {
    const id = await me.put('/', '坏封面.mp4', video(4));
    const bad = failed(1010, '封面图片格式不正确，请使用 JPEG、PNG 或 WebP 图片');
    expect((await postPoster(me, id, 'not an image', 'image/png')).body).toEqual(bad);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>';
    expect((await postPoster(me, id, svg, 'image/svg+xml')).body).toEqual(bad);
    expect((await postPoster(me, id, svg, 'image/png')).body).toEqual(bad);
    const gif = await solid(20, 20, [1, 1, 1], 'png').then((p) => sharp(p).gif().toBuffer());
    expect((await postPoster(me, id, gif, 'image/gif')).body).toEqual(bad);
    expect(
      (await postPoster(me, id, await solid(20, 20, [1, 1, 1]), 'application/octet-stream')).body,
    ).toEqual(bad);
    expect((await postPoster(me, id, '{"a":1}', 'application/json')).body).toEqual(bad);
    const jpeg = await solid(20, 20, [1, 1, 1], 'jpeg');
    expect((await postPoster(me, id, jpeg.subarray(0, 40))).body).toEqual(bad);
    expect((await postPoster(me, id, undefined, null)).body).toEqual(failed(1010, '请选择封面图片'));
    expect((await postPoster(me, id, Buffer.alloc(0))).body).toEqual(failed(1010, '请选择封面图片'));
    expect((await thumb(me, id)).json).toEqual(NO_THUMB);
  });

  it('refuses a poster larger than 512 KB', async () => {
    const id = await me.put('/', '大封面.mp4', video(5));
    const big = Buffer.concat([await solid(64, 64, [1, 1, 1], 'jpeg'), Buffer.alloc(600 * 1024, 7)]);
    const r = await postPoster(me, id, big);
    expect(r.body).toEqual(failed(1010, '封面图片过大，不能超过 512 KB'));
    expect((await thumb(me, id)).json).toEqual(NO_THUMB);
  });

  it('is only for videos', async () => {
    const frame = await solid(64, 36, [1, 1, 1], 'jpeg');
    const img = await me.put('/', '不是视频.png', await solid(10, 10, [1, 1, 1]));
    const notVideo = failed(1010, '只有视频文件可以设置封面');
    expect((await postPoster(me, img, frame)).body).toEqual(notVideo);
    expect((await postPoster(me, await me.put('/', '音乐.mp3', 'x'), frame)).body).toEqual(notVideo);
    expect((await postPoster(me, await me.mkdir('/', '视频文件夹'), frame)).body).toEqual(notVideo);
    for (const ext of ['m4v', 'webm', 'mov']) {
      expect((await postPoster(me, await me.put('/', `片段.${ext}`, video(6)), frame)).body.success).toBe(
        true,
      );
    }
  });

  it('in a library: only its managers set posters, everyone sees them, apart from personal ones', async () => {
    const content = video(8);
    const id = await keeper.put('/', '馆藏影像.mp4', content, 'res');
    const frame = await solid(320, 180, [250, 250, 0], 'jpeg');
    expect((await postPoster(plain, id, frame, 'image/jpeg', { fileType: 9 })).body).toEqual(
      failed(1005, '无权限管理其他资源，请联系管理员开通'),
    );
    expect((await postPoster(keeper, id, frame, 'image/jpeg', { fileType: 9 })).body.success).toBe(true);
    const seen = await thumb(plain, id, { fileType: 9 });
    expect(near(await centre(seen.buf), [250, 250, 0])).toBe(true);
    // The keeper's own copy of the same content has no poster from the library.
    const personal = await keeper.put('/', '馆藏影像.mp4', content);
    expect((await thumb(keeper, personal)).json).toEqual(NO_THUMB);
  });
});

/** CRC-32 (IEEE), for hand-built PNG chunks. */
function crc32(b: Buffer): number {
  let c = ~0;
  for (const byte of b) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}
