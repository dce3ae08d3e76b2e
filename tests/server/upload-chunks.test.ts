import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriveService } from '../../src/server/modules/drive/drive.service';
import { driveServiceOf, startServer, type TestServer } from './harness';
import { driveChunkCount } from './store-probe';
import { driveUser, type DriveUser } from './drive-util';
import {
  CHUNK,
  KIB,
  bytes,
  chunkOf,
  download,
  md5,
  paramsOf,
  postChunk,
  postChunkOctet,
  testRequest,
  uploadAll,
} from './upload-util';

let s: TestServer;
let svc: DriveService;
let me: DriveUser;
let other: DriveUser;

beforeAll(async () => {
  s = await startServer();
  svc = driveServiceOf(s);
  me = await driveUser(s, 'staff02', svc);
  other = await driveUser(s, 'staff10', svc);
});
afterAll(() => s.close());

/** Chunks left in the store, on disk or in the bucket (empty session folders do not count). */
const chunkFiles = () => driveChunkCount(s);
const blobCount = async () => (await s.db.selectFrom('blob').select('id').execute()).length;

describe('chunked upload', () => {
  it('uploads a file in chunks; the download has the same bytes', async () => {
    const file = bytes(4 * CHUNK + 1000);
    const p = paramsOf(file, 'photo.jpg', { relativePath: '库房/甲区/photo.jpg' });
    const t = await testRequest(s, me.token, p);
    expect(t).toMatchObject({ success: true, data: { skipUpload: false, uploaded: [] } });
    expect(p.totalChunks).toBe(4);
    const mid = await postChunk(s, me.token, p, 2, chunkOf(file, p, 2));
    expect(mid.body).toMatchObject({ success: true, data: { skipUpload: false, uploaded: [2] } });
    expect((await testRequest(s, me.token, p)).data.uploaded).toEqual([2]);
    const last = await uploadAll(s, me.token, file, p, [2]);
    expect(last).toMatchObject({ success: true, data: { done: true, uploaded: [1, 2, 3, 4] } });
    expect(await me.names('/库房/甲区/')).toEqual(['photo.jpg']);
    const got = await download(s, me.token, last.data.userFileId);
    expect(md5(got)).toBe(p.identifier);
    expect(got.equals(file)).toBe(true);
    // Chunks and session folder are gone.
    expect(await chunkFiles()).toBe(0);
  });

  it('a replayed chunk changes nothing; a repeated last chunk creates no second file', async () => {
    const file = bytes(3 * CHUNK);
    const p = paramsOf(file, 'replay.bin');
    const c1 = chunkOf(file, p, 1);
    await postChunk(s, me.token, p, 1, c1);
    const again = await postChunk(s, me.token, p, 1, c1);
    expect(again.body).toMatchObject({ success: true, data: { uploaded: [1] } });
    const done = await uploadAll(s, me.token, file, p, [1]);
    expect(done.data.done).toBe(true);
    const repeat = await postChunk(s, me.token, p, 3, chunkOf(file, p, 3));
    expect(repeat.body).toMatchObject({
      success: true,
      data: { done: true, userFileId: done.data.userFileId },
    });
    expect((await me.names('/')).filter((n) => n.startsWith('replay'))).toEqual(['replay.bin']);
  });

  it('a single chunk file, and the empty file', async () => {
    const small = bytes(1000);
    const p = paramsOf(small, 'small.txt');
    const r = await uploadAll(s, me.token, small, p);
    expect(r.data.done).toBe(true);
    expect((await download(s, me.token, r.data.userFileId)).equals(small)).toBe(true);
    const empty = Buffer.alloc(0);
    const e = await uploadAll(s, me.token, empty, paramsOf(empty, 'empty.txt'));
    expect(e).toMatchObject({ success: true, data: { done: true } });
  });
});

describe('bad input', () => {
  const file = bytes(2 * CHUNK);

  it('refuses a malformed identifier (test request still HTTP 200)', async () => {
    const p = paramsOf(file, 'a.bin', { identifier: 'ABC' });
    expect(await testRequest(s, me.token, p)).toMatchObject({ success: false, message: '文件标识不正确' });
    const r = await postChunk(s, me.token, p, 1, chunkOf(file, p, 1));
    expect(r.body).toMatchObject({ success: false, message: '文件标识不正确' });
  });

  it('refuses a chunk number out of range', async () => {
    const p = paramsOf(file, 'b.bin');
    const r = await postChunk(s, me.token, p, 3, chunkOf(file, p, 2));
    expect(r.body).toMatchObject({ success: false, message: '分片序号超出范围' });
    const z = await postChunk(s, me.token, p, 0, chunkOf(file, p, 1));
    expect(z.body.success).toBe(false);
  });

  it('refuses a chunk whose bytes differ from currentChunkSize', async () => {
    const p = paramsOf(file, 'c.bin');
    const short = await postChunk(s, me.token, p, 1, chunkOf(file, p, 1).subarray(10), {
      currentChunkSize: CHUNK,
    });
    expect(short.body).toMatchObject({ success: false, message: '分片内容与声明的大小不符，请重新上传' });
    const wrong = await postChunk(s, me.token, p, 1, chunkOf(file, p, 1).subarray(10));
    expect(wrong.body).toMatchObject({ success: false, message: '分片大小与文件大小不符' });
    expect((await testRequest(s, me.token, p)).data.uploaded).toEqual([]);
  });

  it('rejects bytes that do not hash to the identifier and stores nothing', async () => {
    const real = bytes(2 * CHUNK);
    const p = paramsOf(real, 'tampered.bin', { identifier: md5(Buffer.from('something else')) });
    const before = await blobCount();
    const r = await uploadAll(s, me.token, real, p);
    expect(r).toMatchObject({ success: false, message: '文件校验失败，请重新上传' });
    expect(await blobCount()).toBe(before);
    expect(await me.names('/')).not.toContain('tampered.bin');
    expect(await chunkFiles()).toBe(0);
    expect((await testRequest(s, me.token, p)).data.uploaded).toEqual([]);
  });

  it('refuses a file over 500 MB', async () => {
    const p = { ...paramsOf(file, 'big.mp4'), totalSize: 500 * 1024 * 1024 + 1, chunkSize: 1024 * KIB };
    p.totalChunks = Math.floor(p.totalSize / p.chunkSize);
    expect(await testRequest(s, me.token, p)).toMatchObject({
      success: false,
      message: '上传文件大小不能超过500MB',
    });
    const r = await postChunk(s, me.token, p, 1, bytes(1024 * KIB));
    expect(r.body).toMatchObject({ success: false, message: '上传文件大小不能超过500MB' });
  });

  it('refuses a bad name in relativePath', async () => {
    const p = paramsOf(file, 'd.bin', { relativePath: 'a/../d.bin' });
    expect((await testRequest(s, me.token, p)).success).toBe(false);
  });
});

describe('quota', () => {
  it('refuses at the test request when the file does not fit', async () => {
    const u = await driveUser(s, 'staff03', svc);
    await svc.setQuota(u.userId, 100 * KIB);
    const p = paramsOf(bytes(2 * CHUNK), 'big.bin');
    const t = await testRequest(s, u.token, p);
    expect(t.success).toBe(false);
    expect(t.message).toMatch(/^存储空间不足/);
  });

  it('two parallel uploads that each fit but not together: exactly one completes', async () => {
    const u = await driveUser(s, 'staff04', svc);
    await svc.setQuota(u.userId, 3 * CHUNK);
    const a = bytes(2 * CHUNK);
    const b = bytes(2 * CHUNK);
    const pa = paramsOf(a, 'a.bin');
    const pb = paramsOf(b, 'b.bin');
    expect((await testRequest(s, u.token, pa)).success).toBe(true);
    expect((await testRequest(s, u.token, pb)).success).toBe(true);
    await postChunk(s, u.token, pa, 1, chunkOf(a, pa, 1));
    await postChunk(s, u.token, pb, 1, chunkOf(b, pb, 1));
    const [ra, rb] = await Promise.all([
      postChunk(s, u.token, pa, 2, chunkOf(a, pa, 2)),
      postChunk(s, u.token, pb, 2, chunkOf(b, pb, 2)),
    ]);
    const results = [ra.body, rb.body];
    expect(results.filter((r) => r.success && r.data.done)).toHaveLength(1);
    const failed = results.find((r) => !r.success);
    expect(failed.message).toMatch(/^存储空间不足/);
    expect((await u.names('/')).length).toBe(1);
  });
});

describe('instant upload', () => {
  it('skips the bytes when the caller already owns the content', async () => {
    const file = bytes(3 * CHUNK);
    const p = paramsOf(file, 'orig.bin');
    await uploadAll(s, me.token, file, p);
    const again = paramsOf(file, 'copy.bin', { relativePath: '备份/copy.bin' });
    const t = await testRequest(s, me.token, again);
    expect(t).toMatchObject({ success: true, data: { skipUpload: true, done: true } });
    expect(await me.names('/备份/')).toEqual(['copy.bin']);
    expect((await download(s, me.token, t.data.userFileId)).equals(file)).toBe(true);
  });

  it("does not grant skipUpload for another user's content; uploading still dedups", async () => {
    const file = bytes(2 * CHUNK);
    const p = paramsOf(file, 'theirs.bin');
    await uploadAll(s, other.token, file, p);
    const blobs = await blobCount();
    const t = await testRequest(s, me.token, p);
    expect(t).toMatchObject({ success: true, data: { skipUpload: false, uploaded: [] } });
    expect(t.data.challenge).toBeDefined();
    expect(await me.names('/')).not.toContain('theirs.bin');
    const r = await uploadAll(s, me.token, file, p);
    expect(r.data.done).toBe(true);
    expect(await blobCount()).toBe(blobs);
  });
});

describe('proof of possession', () => {
  const answer = (file: Buffer, c: { nonce: string; start: number; end: number }) =>
    md5(Buffer.concat([Buffer.from(c.nonce, 'utf8'), file.subarray(c.start, c.end + 1)]));

  it("grants skipUpload for another user's content only with the right proof, once per challenge", async () => {
    const file = bytes(3 * CHUNK + 500);
    const p = paramsOf(file, 'shared.bin');
    await uploadAll(s, other.token, file, p);
    const first = (await testRequest(s, me.token, p)).data;
    const c1 = first.challenge;
    expect(c1.end - c1.start + 1).toBe(64 * KIB);
    expect(c1.start).toBeGreaterThanOrEqual(0);
    expect(c1.end).toBeLessThan(file.length);
    // A wrong proof: nothing, and a new challenge.
    const wrong = await testRequest(s, me.token, { ...p, proof: md5(Buffer.from('guess')) } as typeof p);
    expect(wrong.data.skipUpload).toBe(false);
    const c2 = wrong.data.challenge;
    expect(c2.nonce).not.toBe(c1.nonce);
    // The answer to a replaced challenge is worth nothing either.
    const stale = await testRequest(s, me.token, { ...p, proof: answer(file, c1) } as typeof p);
    expect(stale.data.skipUpload).toBe(false);
    expect(await me.names('/')).not.toContain('shared.bin');
    const right = await testRequest(s, me.token, {
      ...p,
      proof: answer(file, stale.data.challenge),
    } as typeof p);
    expect(right).toMatchObject({ success: true, data: { skipUpload: true, done: true } });
    expect((await download(s, me.token, right.data.userFileId)).equals(file)).toBe(true);
  });

  it('offers no challenge when nothing on the server matches', async () => {
    const p = paramsOf(bytes(2 * CHUNK), 'fresh.bin');
    const t = await testRequest(s, me.token, p);
    expect(t.data.challenge).toBeUndefined();
  });
});

describe('restart', () => {
  it('resumes from the recorded chunks after a server restart', async () => {
    let srv = await startServer();
    try {
      const u = await driveUser(srv, 'staff05');
      const file = bytes(4 * CHUNK);
      const p = paramsOf(file, 'resume.bin');
      await testRequest(srv, u.token, p);
      await postChunk(srv, u.token, p, 1, chunkOf(file, p, 1));
      await postChunk(srv, u.token, p, 3, chunkOf(file, p, 3));
      await srv.stop();
      srv = await startServer({}, { dataDir: srv.dataDir });
      const token = await srv.login('staff05');
      const t = await testRequest(srv, token, p);
      expect(t.data.uploaded).toEqual([1, 3]);
      const r = await uploadAll(srv, token, file, p, t.data.uploaded);
      expect(r.data.done).toBe(true);
      expect((await download(srv, token, r.data.userFileId)).equals(file)).toBe(true);
    } finally {
      await srv.stop();
      fs.rmSync(srv.dataDir, { recursive: true, force: true });
    }
  });

  it("a session's time is kept fresh while its chunks arrive, written at most every 30 s", async () => {
    const u = await driveUser(s, 'staff05');
    const file = bytes(4 * CHUNK);
    const p = paramsOf(file, 'touched.bin');
    const updatedAt = async () =>
      Number(
        (
          await s.db
            .selectFrom('upload_session')
            .select('updated_at')
            .where('filename', '=', 'touched.bin')
            .executeTakeFirstOrThrow()
        ).updated_at,
      );
    expect((await postChunk(s, u.token, p, 1, chunkOf(file, p, 1))).body.success).toBe(true);
    // A session last seen 31 s ago: its next chunk writes the time.
    const old = Date.now() - 31_000;
    await s.db
      .updateTable('upload_session')
      .set({ updated_at: old })
      .where('filename', '=', 'touched.bin')
      .execute();
    const before = Date.now();
    expect((await postChunk(s, u.token, p, 2, chunkOf(file, p, 2))).body.success).toBe(true);
    const fresh = await updatedAt();
    expect(fresh).toBeGreaterThanOrEqual(before);
    // Seen just now: the next chunk does not write it again (one statement fewer per chunk).
    await s.db
      .updateTable('upload_session')
      .set({ updated_at: fresh - 1 })
      .where('filename', '=', 'touched.bin')
      .execute();
    expect((await postChunk(s, u.token, p, 3, chunkOf(file, p, 3))).body.success).toBe(true);
    expect(await updatedAt()).toBe(fresh - 1);
    const r = await postChunk(s, u.token, p, 4, chunkOf(file, p, 4));
    expect(r.body.data.done).toBe(true);
  });

  it('the sweep deletes abandoned sessions and their chunks', async () => {
    const srv = await startServer({ UPLOAD_SESSION_HOURS: '0.0001' });
    try {
      const u = await driveUser(srv, 'staff05');
      const file = bytes(2 * CHUNK);
      const p = paramsOf(file, 'old.bin');
      await postChunk(srv, u.token, p, 1, chunkOf(file, p, 1));
      await new Promise((r) => setTimeout(r, 500));
      await srv.stop();
      const again = await startServer({ UPLOAD_SESSION_HOURS: '0.0001' }, { dataDir: srv.dataDir });
      try {
        expect(await again.db.selectFrom('upload_session').selectAll().execute()).toEqual([]);
        const token = await again.login('staff05');
        expect((await testRequest(again, token, p)).data.uploaded).toEqual([]);
      } finally {
        await again.close();
      }
    } catch (err) {
      await srv.close().catch(() => undefined);
      throw err;
    }
  });
});

describe('who may upload where', () => {
  it('no session: HTTP 999 for the test request and for a chunk', async () => {
    const file = bytes(CHUNK);
    const p = paramsOf(file, 'nobody.txt');
    const q = new URLSearchParams(
      Object.entries({ ...p, chunkNumber: 1, currentChunkSize: CHUNK }).map(([k, v]) => [k, String(v)]),
    );
    expect((await s.call('GET', `/wangpan/filetransfer/uploadfile?${q}`)).status).toBe(999);
    expect((await postChunk(s, 'forged-token', p, 1, file)).status).toBe(999);
  });

  it('the shared library takes uploads only from its managers', async () => {
    const file = bytes(CHUNK);
    const p = paramsOf(file, 'library.txt', { fileType: 9, isAdmin: 1 });
    const before = await chunkFiles();
    // staff02 has no 其他资源管理 grant.
    const refused = await testRequest(s, me.token, p);
    expect(refused.success).toBe(false);
    expect(refused.message).toMatch(/[\u4e00-\u9fa5]/);
    const chunk = await postChunk(s, me.token, p, 1, file);
    expect(chunk.body.success).toBe(false);
    expect(await chunkFiles()).toBe(before);
  });
});

describe('octet chunks (simple-uploader method "octet", what our client sends)', () => {
  it('uploads with the bytes as the body, whatever their content type', async () => {
    const file = bytes(3 * CHUNK + 10);
    const p = paramsOf(file, 'octet.jpg');
    expect(
      (await postChunkOctet(s, me.token, p, 1, chunkOf(file, p, 1), {}, 'image/jpeg')).body.success,
    ).toBe(true);
    expect((await postChunkOctet(s, me.token, p, 2, chunkOf(file, p, 2))).body.success).toBe(true);
    const last = await postChunkOctet(s, me.token, p, 3, chunkOf(file, p, 3), {}, '');
    expect(last.body).toMatchObject({ success: true, data: { done: true } });
    expect(md5(await download(s, me.token, last.body.data.userFileId))).toBe(p.identifier);
  });

  it('refuses a body longer than the declared chunk, keeping nothing of it', async () => {
    const file = bytes(2 * CHUNK);
    const p = paramsOf(file, 'octet-long.bin');
    const before = await chunkFiles();
    const r = await postChunkOctet(s, me.token, p, 1, Buffer.concat([chunkOf(file, p, 1), bytes(5000)]), {
      currentChunkSize: CHUNK,
    });
    expect(r.body.success).toBe(false);
    expect(r.body.message).toMatch(/分片/);
    expect(await chunkFiles()).toBe(before);
    expect((await testRequest(s, me.token, p)).data.uploaded).toEqual([]);
  });

  it('refuses a JSON body instead of a chunk', async () => {
    const file = bytes(CHUNK);
    const p = paramsOf(file, 'json.txt');
    const q = new URLSearchParams(
      Object.entries({ ...p, chunkNumber: 1, currentChunkSize: CHUNK }).map(([k, v]) => [k, String(v)]),
    );
    const res = await s.call('POST', `/wangpan/filetransfer/uploadfile?${q}`, {
      token: me.token,
      body: { hello: 1 },
    });
    expect(res.body.success).toBe(false);
    expect(res.body.message).toBe('请选择要上传的文件');
  });
});
