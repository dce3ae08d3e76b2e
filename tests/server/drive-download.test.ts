import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { NOT_FOUND, W, driveUser, failed, readZip as unzip, type DriveUser } from './drive-util';

/*
 * filetransfer/downloadfile: a file streamed with HTTP Range and a Content-Disposition that
 * keeps Chinese names; a folder, or several items, as a zip streamed on the fly.
 */

let s: TestServer;
let me: DriveUser;
let other: DriveUser;
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

beforeAll(async () => {
  s = await startServer();
  me = await driveUser(s, 'staff02');
  other = await driveUser(s, 'staff10');
});
afterAll(() => s.close());

async function download(query: string, headers: Record<string, string> = {}, token = me.token) {
  const res = await fetch(`${s.url}${W}/filetransfer/downloadfile?${query}`, {
    headers: { token, ...headers },
  });
  return { status: res.status, headers: res.headers, buf: Buffer.from(await res.arrayBuffer()) };
}

describe('downloading a file', () => {
  it('sends the bytes as an attachment that keeps the Chinese name, with nosniff', async () => {
    const id = await me.put('/', '藏品 清单(终).bin', BYTES);
    const res = await download(`userFileId=${id}`);
    expect(res.status).toBe(200);
    expect(res.buf.equals(BYTES)).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="__ __(_).bin"; filename*=UTF-8''${encodeURIComponent('藏品 清单').replace(/%20/g, '%20')}%28${encodeURIComponent('终')}%29.bin`,
    );
  });

  it('never serves an HTML file for the browser to render', async () => {
    const id = await me.put('/', 'page.html', '<script>alert(1)</script>');
    const res = await download(`userFileId=${id}`);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('answers ranges with 206 and Content-Range, and 416 past the end', async () => {
    const id = await me.idOf('/', '藏品 清单(终).bin');
    const part = await download(`userFileId=${id}`, { range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect(part.headers.get('content-length')).toBe('10');
    expect(part.buf.equals(BYTES.subarray(10, 20))).toBe(true);

    const tail = await download(`userFileId=${id}`, { range: 'bytes=-5' });
    expect(tail.status).toBe(206);
    expect(tail.buf.equals(BYTES.subarray(995))).toBe(true);
    const open = await download(`userFileId=${id}`, { range: 'bytes=990-' });
    expect(open.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect(open.buf.equals(BYTES.subarray(990))).toBe(true);
    const clipped = await download(`userFileId=${id}`, { range: 'bytes=998-5000' });
    expect(clipped.headers.get('content-range')).toBe('bytes 998-999/1000');

    const past = await download(`userFileId=${id}`, { range: 'bytes=1000-' });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */1000');

    const multi = await download(`userFileId=${id}`, { range: 'bytes=0-1,5-6' });
    expect(multi.status).toBe(200);
    expect(multi.buf.length).toBe(1000);
  });

  it('honours If-Range: a stale validator gets the whole file', async () => {
    const id = await me.idOf('/', '藏品 清单(终).bin');
    const full = await download(`userFileId=${id}`);
    const etag = full.headers.get('etag')!;
    expect((await download(`userFileId=${id}`, { range: 'bytes=0-0', 'if-range': etag })).status).toBe(206);
    expect((await download(`userFileId=${id}`, { range: 'bytes=0-0', 'if-range': '"other"' })).status).toBe(
      200,
    );
  });

  it('accepts the token cookie (download links cannot set headers)', async () => {
    const id = await me.idOf('/', '藏品 清单(终).bin');
    const res = await fetch(`${s.url}${W}/filetransfer/downloadfile?userFileId=${id}`, {
      headers: { cookie: `token=${me.token}` },
    });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(BYTES)).toBe(true);
  });

  it('refuses another person’s file, a binned file and a missing session', async () => {
    const theirs = await other.put('/', 'private.txt', 'secret');
    const res = await download(`userFileId=${theirs}`);
    expect(JSON.parse(res.buf.toString())).toEqual(NOT_FOUND);
    const id = await me.put('/', 'binned.txt', 'b');
    await me.post('/file/deletefile', { userFileId: id });
    expect(JSON.parse((await download(`userFileId=${id}`)).buf.toString())).toEqual(NOT_FOUND);
    const anon = await fetch(`${s.url}${W}/filetransfer/downloadfile?userFileId=${id}`);
    expect(anon.status).toBe(999);
    expect(JSON.parse((await download('')).buf.toString())).toEqual(failed(1010, '请选择要下载的文件'));
    expect((await download('userFileIds=1,,2')).status).toBe(400);
  });
});

describe('downloading folders and several items as a zip', () => {
  it('streams a folder with its tree, logical names, UTF-8 flag set, empty folders kept', async () => {
    await me.put('/展品/', '说明.txt', '青铜器');
    await me.put('/展品/图片/', 'a.jpg', BYTES);
    await me.mkdir('/展品/', '空目录');
    const binned = await me.put('/展品/', '已删除.txt', 'x');
    await me.post('/file/deletefile', { userFileId: binned });
    const id = await me.idOf('/', '展品');
    const res = await download(`userFileId=${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('展品.zip')}`,
    );
    const items = await unzip(res.buf);
    expect(items.map((i) => i.name).sort()).toEqual([
      '展品/',
      '展品/图片/',
      '展品/图片/a.jpg',
      '展品/空目录/',
      '展品/说明.txt',
    ]);
    expect(items.every((i) => i.utf8)).toBe(true);
    expect(items.find((i) => i.name === '展品/说明.txt')!.data.toString()).toBe('青铜器');
    expect(items.find((i) => i.name === '展品/图片/a.jpg')!.data.equals(BYTES)).toBe(true);
  });

  it('zips several items into one, named after the first', async () => {
    const a = await me.idOf('/', '展品');
    const b = await me.idOf('/', 'page.html');
    const res = await download(`userFileIds=${b},${a}`);
    expect(res.headers.get('content-disposition')).toContain(encodeURIComponent('page.html等2个文件.zip'));
    const names = (await unzip(res.buf)).map((i) => i.name);
    expect(names).toContain('page.html');
    expect(names).toContain('展品/说明.txt');
  });

  it('refuses the whole zip when one id is not the caller’s', async () => {
    const theirs = await other.idOf('/', 'private.txt');
    const mine = await me.idOf('/', 'page.html');
    const res = await download(`userFileIds=${mine},${theirs}`);
    expect(JSON.parse(res.buf.toString())).toEqual(NOT_FOUND);
  });
});
