import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveServiceOf, startServer, type TestServer } from './harness';
import { W, driveUser, type DriveUser } from './drive-util';

/**
 * filetransfer/preview (issue 5, server slice): images, audio and video inline with Range;
 * text as UTF-8 whatever it was written in; HTML, XML and SVG never active on our origin;
 * other people's ids answered like missing ones.
 */

let s: TestServer;
let me: DriveUser;
let other: DriveUser;

beforeAll(async () => {
  s = await startServer();
  const svc = driveServiceOf(s);
  me = await driveUser(s, 'staff03', svc);
  other = await driveUser(s, 'staff05', svc);
});
afterAll(() => s.close());

async function preview(id: number, headers: Record<string, string> = {}, token = me.token) {
  const res = await fetch(`${s.url}${W}/filetransfer/preview?userFileId=${id}`, {
    headers: { token, ...headers },
  });
  return { status: res.status, headers: res.headers, buf: Buffer.from(await res.arrayBuffer()) };
}

describe('preview', () => {
  it('serves an image inline with its type, nosniff and a sandbox CSP', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR4nGP8z8DwnwEIGBkZGRgYAAAkBgMBh0ePWgAAAABJRU5ErkJggg==',
      'base64',
    );
    const id = await me.put('/', '青铜鼎.png', png);
    const r = await preview(id);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('content-disposition')).toMatch(/^inline; /);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toContain('sandbox');
    expect(r.buf.equals(png)).toBe(true);
  });

  it('answers Range for video: 206 with true lengths, a suffix range, 416 past the end', async () => {
    const bytes = Buffer.alloc(5000, 7);
    const id = await me.put('/', '修复过程.mp4', bytes);
    const whole = await preview(id);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const part = await preview(id, { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-199/5000');
    expect(part.buf.length).toBe(100);
    const open = await preview(id, { range: 'bytes=4990-' });
    expect(open.headers.get('content-range')).toBe('bytes 4990-4999/5000');
    const suffix = await preview(id, { range: 'bytes=-10' });
    expect(suffix.headers.get('content-range')).toBe('bytes 4990-4999/5000');
    const past = await preview(id, { range: 'bytes=5000-' });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */5000');
  });

  it('sends GBK text as UTF-8, and UTF-8 as it is', async () => {
    // "藏品说明：青花瓷" in GBK.
    const gbk = Buffer.from('b2d8c6b7cbb5c3f7a3bac7e0bba8b4c9', 'hex');
    const g = await preview(await me.put('/', '说明-gbk.txt', gbk));
    expect(g.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(g.buf.toString('utf8')).toBe('藏品说明：青花瓷');
    const u = await preview(await me.put('/', '说明-utf8.md', '# 展览\n青花瓷'));
    expect(u.buf.toString('utf8')).toBe('# 展览\n青花瓷');
  });

  it('never serves HTML, XML or SVG as active content', async () => {
    const html = await preview(await me.put('/', 'page.html', '<script>alert(1)</script>'));
    expect(html.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(html.headers.get('content-security-policy')).toContain('sandbox');
    expect(html.buf.toString()).toBe('<script>alert(1)</script>');
    const xml = await preview(await me.put('/', 'data.xml', '<?xml version="1.0"?><a/>'));
    expect(xml.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const svg = await preview(
      await me.put('/', 'logo.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'),
    );
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    expect(svg.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses folders, unsupported kinds and oversized text with a Chinese reason', async () => {
    const dir = await me.mkdir('/', '预览文件夹');
    expect((await me.get(`/filetransfer/preview`, { userFileId: dir })).body).toMatchObject({
      success: false,
      message: '文件夹不能预览，请打开后查看',
    });
    const zip = await me.put('/', 'a.zip', 'PK');
    expect((await me.get(`/filetransfer/preview`, { userFileId: zip })).body).toMatchObject({
      success: false,
      message: '该文件暂不支持在线查看，请下载后查看',
    });
    const big = await me.put('/', 'big.log', Buffer.alloc(5 * 1024 * 1024 + 1, 0x61));
    expect((await me.get(`/filetransfer/preview`, { userFileId: big })).body).toMatchObject({
      success: false,
      message: '文件过大，无法在线查看，请下载后查看',
    });
  });

  it("answers another person's id exactly like a missing one", async () => {
    const id = await me.put('/', '私人.txt', 'secret');
    const theirs = await other.get(`/filetransfer/preview`, { userFileId: id });
    const missing = await other.get(`/filetransfer/preview`, { userFileId: 99999999 });
    expect(theirs.body).toEqual(missing.body);
    expect(theirs.body.success).toBe(false);
  });
});

describe('file/update (saving edited text)', () => {
  const save = (u: DriveUser, userFileId: number, fileContent: string) =>
    u.post('/file/update', { userFileId, fileContent });
  const text = async (u: DriveUser, id: number) => (await preview(id, {}, u.token)).buf.toString('utf8');
  const blobs = async () => (await s.db.selectFrom('blob').select('md5').execute()).map((b) => b.md5);

  it('saves, reports the new size, and leaves copies and other people untouched (copy on write)', async () => {
    const id = await me.put('/', '展签.txt', '旧文字');
    const twin = await me.put('/', '展签副本.txt', '旧文字');
    const theirs = await other.put('/', '他人展签.txt', '旧文字');
    const r = await save(me, id, '新的展签文字');
    expect(r.body).toMatchObject({ success: true, data: { fileSize: Buffer.byteLength('新的展签文字') } });
    expect(await text(me, id)).toBe('新的展签文字');
    expect(await text(me, twin)).toBe('旧文字');
    expect(await text(other, theirs)).toBe('旧文字');
    const row = (await me.rows('/')).find((x) => x.userFileId === id);
    expect(row.fileSize).toBe(Buffer.byteLength('新的展签文字'));
  });

  it('frees the old content when nothing else uses it', async () => {
    const id = await me.put('/', '草稿.md', `独一无二的草稿 ${Date.now()}`);
    const oldMd5 = (await s.db.selectFrom('blob').select('md5').orderBy('id', 'desc').executeTakeFirst())!
      .md5;
    expect(await blobs()).toContain(oldMd5);
    expect((await save(me, id, '# 定稿')).body.success).toBe(true);
    expect(await blobs()).not.toContain(oldMd5);
  });

  it('refuses an unchanged save, a file that is not text, a folder and another person’s file', async () => {
    const id = await me.put('/', '不变.txt', '同样的内容');
    expect((await save(me, id, '同样的内容')).body).toMatchObject({
      success: false,
      message: '文件内容未修改，无需保存',
    });
    const img = await me.put('/', '图.png', 'not really a png');
    expect((await save(me, img, 'x')).body).toMatchObject({ success: false, message: '该文件不能在线编辑' });
    const dir = await me.mkdir('/', '不能保存的文件夹');
    expect((await save(me, dir, 'x')).body.success).toBe(false);
    const mine = await me.put('/', '我的.txt', '我的');
    const stolen = await save(other, mine, '改掉');
    expect(stolen.body).toEqual((await save(other, 99999999, '改掉')).body);
    expect(await text(me, mine)).toBe('我的');
  });

  it('charges growth to the quota and lets a file shrink when full', async () => {
    const id = await me.put('/', '配额.txt', 'a'.repeat(1000));
    const used = (await me.get('/filetransfer/getstorage')).body.data.storageSize as number;
    const admin = await s.login('admin');
    const set = await s.call('POST', '/wangpan/admin/setstorage', {
      token: admin,
      body: { userId: me.userId, totalStorageSize: used + 100 },
    });
    expect(set.body.success).toBe(true);
    const grow = await save(me, id, 'a'.repeat(2000));
    expect(grow.body.success).toBe(false);
    expect(grow.body.message).toMatch(/^存储空间不足/);
    expect(await text(me, id)).toBe('a'.repeat(1000));
    expect((await save(me, id, 'a'.repeat(10))).body.success).toBe(true);
    await s.call('POST', '/wangpan/admin/setstorage', {
      token: admin,
      body: { userId: me.userId, totalStorageSize: 10 * 1024 ** 3 },
    });
  });
});
