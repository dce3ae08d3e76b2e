import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_FAILED } from '../../src/server/modules/drive/drive.service';
import { createLocalBlobStore, type BlobStore } from '../../src/server/storage/blob-store';
import { type ChunkLayout, createLocalChunkStore } from '../../src/server/storage/chunks';
import { startServer, type TestServer } from './harness';
import { blobExists, driveChunkCount, stagedLeft, uploadIds } from './store-probe';
import {
  CHUNK,
  bytes,
  chunkOf,
  download,
  md5,
  paramsOf,
  postChunkOctet,
  testRequest,
  type Params,
} from './upload-util';

/*
 * Issue 25: a file completed by the new path (every chunk written at its offset into one part
 * file, hashed in order as it arrives, completion a final digest and a link) is the bytes that
 * were sent and verified by the server's own MD5, whatever the order, the repeats, or the
 * instance or process that took each chunk. Through the real server (on the S3 store too in the
 * scale-out pass), and at the local chunk store itself for what only its insides show.
 */

let s: TestServer;
let token: string;

beforeAll(async () => {
  s = await startServer();
  token = await s.login('staff02');
  // Slow to start on a loaded machine in the scale-out pass (PostgreSQL, s3rver, Redis).
}, 120_000);
afterAll(() => s.close());

const send = (p: Params, file: Buffer, n: number, t = token, srv = s) =>
  postChunkOctet(srv, t, p, n, chunkOf(file, p, n));

/** The file's stored blob: its row's MD5 and size, and whether the store holds it. */
async function blobOf(srv: TestServer, userFileId: number) {
  const row = await srv.db
    .selectFrom('user_file')
    .innerJoin('blob', 'blob.id', 'user_file.blob_id')
    .select(['blob.md5', 'blob.size'])
    .where('user_file.id', '=', userFileId)
    .executeTakeFirstOrThrow();
  return { md5: row.md5, size: Number(row.size), stored: await blobExists(srv, row.md5) };
}

/** Nothing of finished or refused uploads is left: no chunk, no upload folder, nothing staged. */
async function nothingLeft(srv: TestServer) {
  expect(await driveChunkCount(srv)).toBe(0);
  expect(await uploadIds(srv, 'drive')).toEqual([]);
  expect(await stagedLeft(srv)).toBe(0);
}

async function expectStored(srv: TestServer, t: string, userFileId: number, file: Buffer) {
  const got = await download(srv, t, userFileId);
  expect(got.equals(file)).toBe(true);
  expect(await blobOf(srv, userFileId)).toEqual({ md5: md5(file), size: file.length, stored: true });
}

describe('chunked upload through the part file', () => {
  it('in order: byte-identical, verified, nothing left behind', async () => {
    const file = bytes(6 * CHUNK + 777);
    const p = paramsOf(file, 'in-order.bin');
    let last;
    for (let n = 1; n <= p.totalChunks; n++) last = await send(p, file, n);
    expect(last!.body).toMatchObject({ success: true, data: { done: true, uploaded: [1, 2, 3, 4, 5, 6] } });
    await expectStored(s, token, last!.body.data.userFileId, file);
    await nothingLeft(s);
  });

  it('out of order, with chunks re-sent (also at once): the test request answers the same; same bytes', async () => {
    const file = bytes(7 * CHUNK + 5);
    const p = paramsOf(file, 'shuffled.bin');
    expect((await send(p, file, 5)).body.data.uploaded).toEqual([5]);
    expect((await send(p, file, 3)).body.data.uploaded).toEqual([3, 5]);
    // Re-sent: held already, nothing changes.
    expect((await send(p, file, 5)).body.data.uploaded).toEqual([3, 5]);
    // The same chunk twice at once (two instances, a retry racing its original).
    const both = await Promise.all([send(p, file, 7), send(p, file, 7)]);
    for (const r of both) expect(r.body).toMatchObject({ success: true, data: { uploaded: [3, 5, 7] } });
    expect((await testRequest(s, token, p)).data).toEqual({ skipUpload: false, uploaded: [3, 5, 7] });
    // A chunk re-sent with other bytes after it was held is not taken: its bytes were written once.
    const forged = Buffer.from(chunkOf(file, p, 3)).fill(0x55);
    expect((await postChunkOctet(s, token, p, 3, forged)).body.data.uploaded).toEqual([3, 5, 7]);
    for (const n of [2, 6, 1]) await send(p, file, n);
    const last = await send(p, file, 4);
    expect(last.body).toMatchObject({ success: true, data: { done: true, uploaded: [1, 2, 3, 4, 5, 6, 7] } });
    // A repeated last chunk answers the same file.
    expect((await send(p, file, 4)).body.data).toMatchObject({
      done: true,
      userFileId: last.body.data.userFileId,
    });
    await expectStored(s, token, last.body.data.userFileId, file);
    await nothingLeft(s);
  });

  it('a wrong MD5 is refused as before, in order and out of order; nothing is kept', async () => {
    for (const order of [
      [1, 2, 3, 4],
      [4, 2, 1, 3],
    ]) {
      const file = bytes(4 * CHUNK);
      const p = { ...paramsOf(file, `claimed-${order.join('')}.bin`), identifier: md5(bytes(10)) };
      let last;
      for (const n of order) last = await send(p, file, n);
      expect(last!.body).toMatchObject({ success: false, message: CHECK_FAILED });
      expect(await blobExists(s, md5(file))).toBe(false);
      expect(await blobExists(s, p.identifier)).toBe(false);
      // The session went with its bytes: a test request starts over.
      expect((await testRequest(s, token, p)).data.uploaded).toEqual([]);
      await s.call(
        'DELETE',
        `/wangpan/filetransfer/uploadfile?${new URLSearchParams({
          identifier: p.identifier,
          filename: p.filename,
          relativePath: p.relativePath,
          filePath: p.filePath,
        })}`,
        { token },
      );
    }
    await nothingLeft(s);
  });

  it('chunks after a restart (nothing hashed in memory for the first ones): same bytes, verified', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-test-'));
    let a: TestServer | null = await startServer({}, { dataDir: dir });
    try {
      const t = await a.login('staff03');
      const file = bytes(5 * CHUNK + 100);
      const p = paramsOf(file, 'restarted.bin');
      for (const n of [2, 1, 4]) await send(p, file, n, t, a);
      await a.stop();
      a = null;
      a = await startServer({}, { dataDir: dir });
      const t2 = await a.login('staff03');
      expect((await testRequest(a, t2, p)).data.uploaded).toEqual([1, 2, 4]);
      // Re-sent after the restart: still held once.
      expect((await send(p, file, 2, t2, a)).body.data.uploaded).toEqual([1, 2, 4]);
      await send(p, file, 5, t2, a);
      const last = await send(p, file, 3, t2, a);
      expect(last.body).toMatchObject({ success: true, data: { done: true } });
      await expectStored(a, t2, last.body.data.userFileId, file);
      await nothingLeft(a);
    } finally {
      await a?.close();
    }
    // Two servers start and sign in: slow on a loaded machine.
  }, 90_000);
});

describe('the local chunk store', () => {
  let dir: string;
  let blobs: BlobStore;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-chunks-'));
    blobs = createLocalBlobStore(path.join(dir, 'blobs'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const layoutOf = (file: Buffer, chunkSize: number): ChunkLayout => ({
    chunkSize,
    totalChunks: Math.max(1, Math.floor(file.length / chunkSize)),
    totalSize: file.length,
  });
  const piece = (file: Buffer, l: ChunkLayout, n: number) =>
    file.subarray((n - 1) * l.chunkSize, n === l.totalChunks ? file.length : n * l.chunkSize);
  const wrong = (got: number) => new Error(`wrong size ${got}`);
  /** A blob store that counts the bytes staged through it (a copy of the file). */
  function counting(target: BlobStore) {
    const seen = { staged: 0 };
    return {
      seen,
      store: {
        ...target,
        stage: (input: Buffer | Readable, opts?: { maxBytes?: number }) => {
          seen.staged++;
          return target.stage(input, opts);
        },
      } as BlobStore,
    };
  }

  it('completes from the running MD5 and links the part file: no copy, no second file', async () => {
    const { seen, store } = counting(blobs);
    const chunks = createLocalChunkStore(path.join(dir, 'up1'), store);
    const file = bytes(9 * CHUNK + 3);
    const l = layoutOf(file, CHUNK);
    // Out of order, with a gap that fills at the end, and a repeat.
    for (const n of [2, 3, 1, 9, 5, 6, 7, 8, 5, 4]) {
      await chunks.write('u1', n, Readable.from([piece(file, l, n)]), piece(file, l, n).length, l, wrong);
    }
    expect(await chunks.held('u1')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const staged = await chunks.assemble('u1', l);
    expect(staged).toMatchObject({ md5: md5(file), size: file.length });
    await staged.commit();
    expect(seen.staged).toBe(0);
    const stored = blobs.localPath(md5(file))!;
    expect(fs.readFileSync(stored).equals(file)).toBe(true);
    // One file on disk: the blob is the part file, linked.
    expect(fs.statSync(stored).ino).toBe(fs.statSync(path.join(dir, 'up1', 'u1', 'data.part')).ino);
    // A retried completion (the database refused the first) commits the same again.
    const again = await chunks.assemble('u1', l);
    expect(again.md5).toBe(md5(file));
    await again.commit();
    await chunks.drop('u1');
    expect(await chunks.list()).toEqual([]);
    expect(fs.readFileSync(stored).equals(file)).toBe(true);
  });

  it('two instances on one data dir: chunks through either, completion through either', async () => {
    const a = createLocalChunkStore(path.join(dir, 'up2'), blobs);
    const b = createLocalChunkStore(path.join(dir, 'up2'), blobs);
    const file = bytes(6 * CHUNK);
    const l = layoutOf(file, CHUNK);
    for (const n of [1, 2, 3]) await a.write('u2', n, Readable.from([piece(file, l, n)]), CHUNK, l, wrong);
    for (const n of [4, 5, 6]) await b.write('u2', n, Readable.from([piece(file, l, n)]), CHUNK, l, wrong);
    // The same chunk at once through both: written once.
    await Promise.all([
      a.write('u2', 4, Readable.from([Buffer.alloc(CHUNK, 1)]), CHUNK, l, wrong),
      b.write('u2', 4, Readable.from([Buffer.alloc(CHUNK, 2)]), CHUNK, l, wrong),
    ]);
    expect((await a.assemble('u2', l)).md5).toBe(md5(file));
    expect((await b.assemble('u2', l)).md5).toBe(md5(file));
    await a.drop('u2');
  });

  it('a chunk of the wrong size is refused and never touches the part file', async () => {
    const chunks = createLocalChunkStore(path.join(dir, 'up3'), blobs);
    const file = bytes(3 * CHUNK);
    const l = layoutOf(file, CHUNK);
    await chunks.write('u3', 1, Readable.from([piece(file, l, 1)]), CHUNK, l, wrong);
    const short = Readable.from([piece(file, l, 2).subarray(0, 100)]);
    await expect(chunks.write('u3', 2, short, CHUNK, l, wrong)).rejects.toThrow('wrong size 100');
    const long = Readable.from([Buffer.concat([piece(file, l, 2), Buffer.alloc(10)])]);
    await expect(chunks.write('u3', 2, long, CHUNK, l, wrong)).rejects.toThrow('wrong size');
    expect(await chunks.held('u3')).toEqual([1]);
    expect(fs.statSync(path.join(dir, 'up3', 'u3', 'data.part')).size).toBe(CHUNK);
    for (const n of [2, 3]) await chunks.write('u3', n, Readable.from([piece(file, l, n)]), CHUNK, l, wrong);
    expect((await chunks.assemble('u3', l)).md5).toBe(md5(file));
    await chunks.drop('u3');
  });

  it('an upload begun before the part file (one file per chunk) still completes right', async () => {
    const chunks = createLocalChunkStore(path.join(dir, 'up4'), blobs);
    const file = bytes(4 * CHUNK + 9);
    const l = layoutOf(file, CHUNK);
    // The old layout: chunks 1 and 3 as their own files.
    fs.mkdirSync(path.join(dir, 'up4', 'u4'), { recursive: true });
    for (const n of [1, 3]) fs.writeFileSync(path.join(dir, 'up4', 'u4', String(n)), piece(file, l, n));
    expect(await chunks.held('u4')).toEqual([1, 3]);
    for (const n of [2, 4]) {
      await chunks.write('u4', n, Readable.from([piece(file, l, n)]), piece(file, l, n).length, l, wrong);
    }
    const staged = await chunks.assemble('u4', l);
    expect(staged.md5).toBe(md5(file));
    await staged.commit();
    expect(fs.readFileSync(blobs.localPath(md5(file))!).equals(file)).toBe(true);
    await chunks.drop('u4');
  });

  it('a part file gone under an upload is reported as such (the service starts it over)', async () => {
    const chunks = createLocalChunkStore(path.join(dir, 'up5'), blobs);
    const file = bytes(2 * CHUNK);
    const l = layoutOf(file, CHUNK);
    for (const n of [1, 2]) await chunks.write('u5', n, Readable.from([piece(file, l, n)]), CHUNK, l, wrong);
    fs.rmSync(path.join(dir, 'up5', 'u5', 'data.part'));
    const fresh = createLocalChunkStore(path.join(dir, 'up5'), blobs);
    await expect(fresh.assemble('u5', l)).rejects.toThrow('are gone');
    await chunks.drop('u5');
  });
});
