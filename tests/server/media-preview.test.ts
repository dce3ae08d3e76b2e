import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveServiceOf, startServer, type TestServer } from './harness';
import { NOT_FOUND, W, driveUser, type DriveUser } from './drive-util';

/*
 * filetransfer/preview for players: HTTP Range edge cases with true lengths (audio and video
 * seek with them), validators, and the share parameters, which never open anything until the
 * sharing issue grants it.
 */

let s: TestServer;
let me: DriveUser;
let other: DriveUser;
const SIZE = 5000;
const BYTES = Buffer.from(Array.from({ length: SIZE }, (_, i) => (i * 7) % 256));
let audio: number;
let video: number;

beforeAll(async () => {
  s = await startServer();
  const svc = driveServiceOf(s);
  me = await driveUser(s, 'staff09', svc);
  other = await driveUser(s, 'staff10', svc);
  audio = await me.put('/', '讲解词.mp3', BYTES);
  video = await me.put('/', '布展.mp4', BYTES);
});
afterAll(() => s.close());

async function preview(id: number, headers: Record<string, string> = {}, query = '', token = me.token) {
  const res = await fetch(`${s.url}${W}/filetransfer/preview?userFileId=${id}${query}`, {
    headers: { token, ...headers },
  });
  const buf = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, buf };
}

function expectPart(r: Awaited<ReturnType<typeof preview>>, start: number, end: number) {
  expect(r.status).toBe(206);
  expect(r.headers.get('content-range')).toBe(`bytes ${start}-${end}/${SIZE}`);
  expect(Number(r.headers.get('content-length'))).toBe(end - start + 1);
  expect(r.buf.equals(BYTES.subarray(start, end + 1))).toBe(true);
}

function expectWhole(r: Awaited<ReturnType<typeof preview>>) {
  expect(r.status).toBe(200);
  expect(r.headers.get('content-range')).toBeNull();
  expect(Number(r.headers.get('content-length'))).toBe(SIZE);
  expect(r.buf.equals(BYTES)).toBe(true);
}

describe('Range', () => {
  it('answers one byte for bytes=0-0', async () => {
    expectPart(await preview(audio, { range: 'bytes=0-0' }), 0, 0);
  });

  it('answers the last bytes for a suffix range, all of them when the suffix is longer', async () => {
    expectPart(await preview(audio, { range: 'bytes=-500' }), 4500, 4999);
    expectPart(await preview(video, { range: 'bytes=-6000' }), 0, 4999);
  });

  it('answers to the end for an open range, and clips a last byte past the end', async () => {
    expectPart(await preview(audio, { range: 'bytes=100-' }), 100, 4999);
    expectPart(await preview(video, { range: 'bytes=4990-99999' }), 4990, 4999);
    expectPart(await preview(video, { range: 'bytes=4999-' }), 4999, 4999);
  });

  it('answers 416 with bytes */size for a range past the end, and for bytes=-0', async () => {
    for (const range of ['bytes=5000-', 'bytes=5000-6000', 'bytes=99999999999999999999-', 'bytes=-0']) {
      const r = await preview(video, { range });
      expect(r.status, range).toBe(416);
      expect(r.headers.get('content-range'), range).toBe(`bytes */${SIZE}`);
      expect(r.buf.length, range).toBe(0);
    }
  });

  it('ignores a malformed header and sends the whole file', async () => {
    for (const range of ['bytes=abc', 'items=0-1', 'bytes=5-2', 'bytes=', 'bytes=-', '0-10', 'bytes=1-2-3']) {
      expectWhole(await preview(audio, { range }));
    }
  });

  it('answers several ranges with the whole file (200), as RFC 9110 allows', async () => {
    expectWhole(await preview(audio, { range: 'bytes=0-1,5-6' }));
    expectWhole(await preview(audio, { range: 'bytes=0-99, 200-299' }));
  });

  it('honours If-Range: the range while the ETag matches, the whole file otherwise', async () => {
    const etag = (await preview(video)).headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expectPart(await preview(video, { range: 'bytes=10-19', 'if-range': etag }), 10, 19);
    expectWhole(await preview(video, { range: 'bytes=10-19', 'if-range': '"someotherversion"' }));
    expectWhole(await preview(video, { range: 'bytes=10-19', 'if-range': `W/${etag}` }));
    expectWhole(await preview(video, { range: 'bytes=10-19', 'if-range': new Date().toUTCString() }));
  });

  it('answers 304 to a revalidation of the same content', async () => {
    const first = await preview(audio);
    const again = await preview(audio, { 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.buf.length).toBe(0);
    expectWhole(await preview(audio, { 'if-none-match': '"another"' }));
  });

  it('handles an empty file: 200 with nothing, every range unsatisfiable', async () => {
    const empty = await me.put('/', '空.mp3', Buffer.alloc(0));
    const whole = await preview(empty);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe('0');
    const r = await preview(empty, { range: 'bytes=0-' });
    expect(r.status).toBe(416);
    expect(r.headers.get('content-range')).toBe('bytes */0');
  });

  it('works the same for downloads', async () => {
    const res = await fetch(`${s.url}${W}/filetransfer/downloadfile?userFileId=${audio}`, {
      headers: { token: me.token, range: 'bytes=-1' },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 4999-4999/${SIZE}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(BYTES.subarray(4999))).toBe(true);
  });
});

describe('share parameters', () => {
  const GONE = { success: false, code: 404, message: '分享链接不存在或已失效', data: null };
  const json = (r: Awaited<ReturnType<typeof preview>>) => JSON.parse(r.buf.toString());

  it('refuse a read through a share that does not exist, even of the caller’s own file', async () => {
    const own = await preview(audio, {}, '&shareBatchNum=abc123&extractionCode=1234');
    expect(own.status).toBe(200);
    expect(json(own)).toEqual(GONE);
    expect(json(await preview(audio, {}, '&shareBatchNum='))).toEqual(GONE);
    expect(json(await preview(audio, {}, '&shareBatchNum=abc123&isMin=1'))).toEqual(GONE);
    expect(json(await preview(audio, { range: 'bytes=0-0' }, '&shareBatchNum=x'))).toEqual(GONE);
  });

  it("never open another person's file", async () => {
    const r = await preview(audio, {}, '&shareBatchNum=abc123&extractionCode=1234', other.token);
    expect(json(r)).toEqual(GONE);
    // An extraction code alone names no share: the caller's own drive, where the id is not.
    expect(json(await preview(audio, {}, '&extractionCode=1234', other.token))).toEqual(NOT_FOUND);
  });

  it('are checked for length', async () => {
    const r = await preview(audio, {}, `&shareBatchNum=${'a'.repeat(65)}`);
    expect(r.status).toBe(400);
    expect(json(r)).toMatchObject({ success: false, message: '分享编号不能超过 64 个字符' });
  });

  it('leave ordinary previews alone when absent', async () => {
    expectWhole(await preview(audio, {}, '&extractionCode=1234'));
  });
});

describe("other people's ids", () => {
  it('answer like missing ones for preview, thumbnail and poster', async () => {
    const missing = await preview(99999999, {}, '', other.token);
    for (const q of ['', '&isMin=1']) {
      const r = await preview(video, {}, q, other.token);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.buf.toString())).toEqual(NOT_FOUND);
      expect(r.buf.equals(missing.buf)).toBe(true);
    }
    const poster = await fetch(`${s.url}${W}/filetransfer/poster?userFileId=${video}`, {
      method: 'POST',
      headers: { token: other.token, 'content-type': 'image/jpeg' },
      body: new Uint8Array([0xff, 0xd8, 0xff, 0xe0]),
    });
    expect(await poster.json()).toEqual(NOT_FOUND);
  });
});
