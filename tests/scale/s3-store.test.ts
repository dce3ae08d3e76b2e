import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalLocks } from '../../src/server/cluster/locks';
import { BlobTooLargeError } from '../../src/server/storage/blob-store';
import type { ChunkLayout, ChunkStore } from '../../src/server/storage/chunks';
import { createS3Bucket, PART_MIN_BYTES, type S3Bucket } from '../../src/server/storage/s3';
import { createS3BlobStore, sweepS3Temps } from '../../src/server/storage/s3-blob-store';
import { createS3ChunkStore, groupSize } from '../../src/server/storage/s3-chunks';
import { createS3Shelf } from '../../src/server/storage/shelf';
import { S3_TEST } from '../server/scale-env';

/*
 * The object store's implementations against s3rver, through the AWS SDK as against MinIO:
 * the blob store's contract (the local store's, tests/server/drive-blob.test.ts), unfinished
 * uploads folded progressively into multipart parts with the server's own MD5, and the shelf.
 */

const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');
let bucket: S3Bucket;

beforeAll(() => {
  bucket = createS3Bucket({
    endpoint: process.env.SCALE_TEST_S3_ENDPOINT!,
    bucket: S3_TEST.bucket,
    region: 'us-east-1',
    credentials: { accessKeyId: S3_TEST.accessKeyId, secretAccessKey: S3_TEST.secretAccessKey },
    forcePathStyle: true,
    prefix: `store-${randomUUID()}/`,
  });
});
afterAll(() => bucket.removePrefix(''));

async function keys(prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const o of bucket.list(prefix)) out.push(o.key);
  return out.sort();
}

/**
 * The bucket, except that it refuses to delete staged objects (under tmp/), as a store answering
 * a passing 500 to every retry would; `refused` counts the deletes it turned down.
 */
function refusingTempDeletes(b: S3Bucket) {
  const refused = { count: 0 };
  const wrapped: S3Bucket = {
    ...b,
    async remove(rels) {
      if (rels.some((r) => r.startsWith('tmp/'))) {
        refused.count++;
        throw new Error('InternalError: We encountered an internal error. Please try again.');
      }
      return b.remove(rels);
    },
  };
  return { bucket: wrapped, refused };
}

describe('S3 blob store', () => {
  const store = () => createS3BlobStore(bucket, 'blobs');

  it('stores bytes under blobs/ab/cd/<md5>, hashed by the server, and reads them or a range', async () => {
    const r = await store().put(Buffer.from('青铜器'));
    expect(r).toEqual({ md5: md5('青铜器'), size: 9 });
    expect(await keys(`blobs/${r.md5.slice(0, 2)}/`)).toEqual([
      `blobs/${r.md5.slice(0, 2)}/${r.md5.slice(2, 4)}/${r.md5}`,
    ]);
    expect(await store().stat(r.md5)).toEqual({ size: 9 });
    const { md5: key } = await store().put(Buffer.from('0123456789'));
    expect(await text(store().open(key))).toBe('0123456789');
    expect(await text(store().open(key, { start: 2, end: 4 }))).toBe('234');
  });

  it('hashes a stream of many pieces, larger than one part, and stores the empty blob', async () => {
    const pieces = Array.from({ length: 20 }, (_, i) => Buffer.alloc(512 * 1024, i));
    const r = await store().put(Readable.from(pieces));
    expect(r).toEqual({ md5: md5(Buffer.concat(pieces)), size: 20 * 512 * 1024 });
    expect(md5(await buffer(store().open(r.md5)))).toBe(r.md5);
    expect(await store().put(Buffer.alloc(0))).toEqual({ md5: md5(''), size: 0 });
    expect(await store().stat(md5(''))).toEqual({ size: 0 });
  });

  it('keeps staged bytes out of sight until commit; discard and a refused stage leave nothing', async () => {
    const staged = await store().stage(Buffer.from('staged bytes'));
    expect(await store().stat(staged.md5)).toBeNull();
    await staged.discard();
    expect(await keys('tmp/')).toEqual([]);
    const big = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(store().stage(big, { maxBytes: 1000 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await keys('tmp/')).toEqual([]);
    const again = await store().stage(Buffer.from('staged bytes'));
    await again.commit();
    await again.discard();
    expect(await store().stat(again.md5)).toEqual({ size: 12 });
    expect(await keys('tmp/')).toEqual([]);
  });

  it('a source that fails midway fails the stage and leaves nothing', async () => {
    const source = new PassThrough();
    source.write(Buffer.alloc(1000, 1));
    setTimeout(() => source.destroy(new Error('client went away')), 20);
    await expect(store().stage(source)).rejects.toThrow('client went away');
    expect(await keys('tmp/')).toEqual([]);
  });

  it('removes blobs (twice is harmless) and never turns anything but an MD5 into a key', async () => {
    const { md5: key } = await store().put(Buffer.from('to remove'));
    await store().remove(key);
    await store().remove(key);
    expect(await store().stat(key)).toBeNull();
    await expect(buffer(store().open(key))).rejects.toThrow();
    for (const bad of ['../../etc/passwd', 'ABCDEF0123456789ABCDEF0123456789', `${'a'.repeat(32)}/x`]) {
      expect(() => store().open(bad)).toThrow('invalid blob key');
      await expect(store().remove(bad)).rejects.toThrow('invalid blob key');
    }
    expect(store().localPath(key)).toBeNull();
  });

  it('a staged object the store will not delete does not fail the commit; the sweep takes it later', async () => {
    const { bucket: refusing, refused } = refusingTempDeletes(bucket);
    const staged = await createS3BlobStore(refusing, 'blobs').stage(Buffer.from('修复档案'));
    await staged.commit();
    await staged.discard();
    expect(refused.count).toBe(1);
    expect(await text(store().open(staged.md5))).toBe('修复档案');
    expect(await keys('tmp/')).toHaveLength(1);
    await sweepS3Temps(bucket, Date.now() + 25 * 3600_000);
    expect(await keys('tmp/')).toEqual([]);
  });

  it('sweeps staged objects a crash left, once they are a day old', async () => {
    await bucket.put('tmp/left-by-a-crash', Buffer.from('x'));
    await sweepS3Temps(bucket);
    expect(await keys('tmp/')).toEqual(['tmp/left-by-a-crash']);
    await sweepS3Temps(bucket, Date.now() + 25 * 3600_000);
    expect(await keys('tmp/')).toEqual([]);
  });
});

describe('S3 chunk store: unfinished uploads', () => {
  const MIB = 1024 * 1024;
  /** Counts the bytes read back from the bucket (what completion costs). */
  function counting(b: S3Bucket) {
    const read = { bytes: 0 };
    const wrapped: S3Bucket = {
      ...b,
      get(rel, range) {
        const tap = new PassThrough();
        tap.on('data', (c: Buffer) => (read.bytes += c.length));
        const src = b.get(rel, range);
        src.once('error', (err) => tap.destroy(err));
        return src.pipe(tap);
      },
    };
    return { bucket: wrapped, read };
  }
  const blobs = () => createS3BlobStore(bucket, 'blobs');
  const chunkStore = (b: S3Bucket = bucket): ChunkStore =>
    createS3ChunkStore({ bucket: b, area: 'uploads', blobKey: blobs().keyOf, locks: createLocalLocks() });

  function slices(file: Buffer, chunkSize: number) {
    const total = Math.max(1, Math.floor(file.length / chunkSize));
    return Array.from({ length: total }, (_, i) =>
      file.subarray(i * chunkSize, i === total - 1 ? file.length : (i + 1) * chunkSize),
    );
  }
  const wrongSize = (got: number) => new Error(`wrong size ${got}`);

  it('groups chunks into parts of at least 5 MiB (S3 refuses smaller parts but the last)', () => {
    expect(groupSize(MIB)).toBe(5);
    expect(groupSize(2_048_000) * 2_048_000).toBeGreaterThanOrEqual(PART_MIN_BYTES);
    expect(groupSize(64 * 1024)).toBe(80);
    expect(groupSize(8 * MIB)).toBe(1);
  });

  it('folds chunks into parts as they arrive and completes without reading the file back', async () => {
    // 13.5 MiB in 1 MiB chunks, the last one 1.5 MiB (simple-uploader folds the rest into it).
    const file = randomBytes(13 * MIB + MIB / 2);
    const parts = slices(file, MIB);
    expect(parts).toHaveLength(13);
    const layout: ChunkLayout = { chunkSize: MIB, totalChunks: 13, totalSize: file.length, md5: md5(file) };
    const id = randomUUID();
    const { bucket: watched, read } = counting(bucket);
    const store = chunkStore(watched);
    // Out of order within the window of three in flight, as the client sends them.
    const order = [2, 1, 3, 5, 4, 6, 8, 7, 9, 10, 12, 11];
    for (const n of order)
      await store.write(id, n, Readable.from([parts[n - 1]!]), parts[n - 1]!.length, layout, wrongSize);
    // Groups 1–5 and 6–10 are parts already; their chunk objects are gone.
    const state = JSON.parse((await buffer(bucket.get(`uploads/${id}/state.json`))).toString());
    expect(state).toMatchObject({ hashed: 10, completed: false, bytes: 10 * MIB });
    expect(state.parts.map((p: { n: number }) => p.n).sort()).toEqual([1, 2]);
    expect(await keys(`uploads/${id}/`)).toEqual([
      `uploads/${id}/11`,
      `uploads/${id}/12`,
      `uploads/${id}/state.json`,
    ]);
    expect(await store.held(id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    await store.write(id, 13, Readable.from([parts[12]!]), parts[12]!.length, layout, wrongSize);
    read.bytes = 0;
    const staged = await store.assemble(id, layout);
    // What was left to fold when the last chunk came: at most one group, never the file.
    expect(read.bytes).toBeLessThanOrEqual(5 * MIB + MIB);
    expect(staged).toMatchObject({ md5: md5(file), size: file.length });
    // Assembled under the claimed key, yet invisible until committed.
    expect(await blobs().stat(md5(file))).toBeNull();
    await staged.commit();
    expect(await blobs().stat(md5(file))).toEqual({ size: file.length });
    expect((await buffer(blobs().open(md5(file)))).equals(file)).toBe(true);
    await store.drop(id);
    expect(await keys(`uploads/${id}/`)).toEqual([]);
  });

  it('bytes that are not what was claimed never appear under the claimed key', async () => {
    const file = randomBytes(11 * MIB);
    const parts = slices(file, MIB);
    const claimed = md5('something else entirely');
    const layout: ChunkLayout = {
      chunkSize: MIB,
      totalChunks: parts.length,
      totalSize: file.length,
      md5: claimed,
    };
    const id = randomUUID();
    const store = chunkStore();
    for (let n = 1; n <= parts.length; n++) {
      await store.write(id, n, Readable.from([parts[n - 1]!]), parts[n - 1]!.length, layout, wrongSize);
    }
    const staged = await store.assemble(id, layout);
    // The server's MD5 is the bytes', not the claim: the caller refuses and never commits.
    expect(staged.md5).toBe(md5(file));
    await staged.discard();
    await store.drop(id);
    expect(await blobs().stat(claimed)).toBeNull();
    expect(await blobs().stat(md5(file))).toBeNull();
    expect(await keys(`uploads/${id}/`)).toEqual([]);
  });

  it('a completion refused after assembly (quota, a name) can be assembled again from the same parts', async () => {
    const file = randomBytes(6 * MIB + 100);
    const parts = slices(file, MIB);
    const layout: ChunkLayout = {
      chunkSize: MIB,
      totalChunks: parts.length,
      totalSize: file.length,
      md5: md5(file),
    };
    const id = randomUUID();
    const store = chunkStore();
    for (let n = parts.length; n >= 1; n--) {
      await store.write(id, n, Readable.from([parts[n - 1]!]), parts[n - 1]!.length, layout, wrongSize);
    }
    const first = await store.assemble(id, layout);
    await first.discard();
    const second = await store.assemble(id, layout);
    expect(second.md5).toBe(md5(file));
    await second.commit();
    expect((await buffer(blobs().open(md5(file)))).equals(file)).toBe(true);
    await store.drop(id);
  });

  it('a small upload (one group) is assembled in one PUT at completion', async () => {
    const file = randomBytes(300 * 1024 + 7);
    const layout: ChunkLayout = { chunkSize: 64 * 1024, totalChunks: 4, totalSize: file.length };
    const parts = slices(file, 64 * 1024);
    expect(parts).toHaveLength(4);
    const id = `7-attach-${randomUUID().slice(0, 8)}`;
    const store = chunkStore();
    for (const n of [4, 2, 3, 1]) {
      await store.write(id, n, Readable.from([parts[n - 1]!]), parts[n - 1]!.length, layout, wrongSize);
    }
    await store.writeNote(id, 'meta', { fileName: 'a.bin' });
    expect(await store.readNote(id, 'meta')).toEqual({ fileName: 'a.bin' });
    const staged = await store.assemble(id, layout);
    expect(staged).toMatchObject({ md5: md5(file), size: file.length });
    await staged.commit();
    await store.dropChunks(id);
    expect(await keys(`uploads/${id}/`)).toEqual([`uploads/${id}/meta.json`]);
    expect((await store.list()).map((u) => u.id)).toContain(id);
    await store.drop(id);
    expect((await store.list()).map((u) => u.id)).not.toContain(id);
  });

  it('an assembled upload whose staged object the store will not delete still commits, small or in parts', async () => {
    const { bucket: refusing, refused } = refusingTempDeletes(bucket);
    const store = chunkStore(refusing);
    // One group (a single PUT under tmp/), and two groups of 1 MiB chunks with no claimed MD5
    // (an attachment: the multipart assembles under tmp/ and is copied to its key).
    for (const [chunkSize, size] of [
      [64 * 1024, 200 * 1024 + 3],
      [MIB, 6 * MIB + 5],
    ] as const) {
      const file = randomBytes(size);
      const parts = slices(file, chunkSize);
      const layout: ChunkLayout = { chunkSize, totalChunks: parts.length, totalSize: file.length };
      const id = `7-attach-${randomUUID().slice(0, 8)}`;
      for (let n = 1; n <= parts.length; n++)
        await store.write(id, n, Readable.from([parts[n - 1]!]), parts[n - 1]!.length, layout, wrongSize);
      const before = refused.count;
      const staged = await store.assemble(id, layout);
      await staged.commit();
      await staged.discard();
      expect(refused.count).toBe(before + 1);
      expect((await buffer(blobs().open(md5(file)))).equals(file)).toBe(true);
      await store.drop(id);
    }
    await sweepS3Temps(bucket, Date.now() + 25 * 3600_000);
    expect(await keys('tmp/')).toEqual([]);
  });

  it('refuses a chunk of the wrong size and keeps nothing of it', async () => {
    const layout: ChunkLayout = { chunkSize: MIB, totalChunks: 3, totalSize: 3 * MIB };
    const id = randomUUID();
    const store = chunkStore();
    await expect(
      store.write(id, 1, Readable.from([Buffer.alloc(MIB - 1)]), MIB, layout, wrongSize),
    ).rejects.toThrow(`wrong size ${MIB - 1}`);
    await expect(
      store.write(id, 1, Readable.from([Buffer.alloc(MIB), Buffer.alloc(10)]), MIB, layout, wrongSize),
    ).rejects.toThrow('wrong size');
    expect(await store.held(id)).toEqual([]);
    expect(await keys(`uploads/${id}/`)).toEqual([]);
  });
});

describe('S3 shelf', () => {
  it('puts, gets and removes small named objects, by name prefix within a folder', async () => {
    const shelf = createS3Shelf(bucket, 'thumbs');
    await shelf.put('ab/abc.v1.webp', Buffer.from('thumb'));
    await shelf.put('ab/abc.poster.u-1.webp', Buffer.from('poster'));
    await shelf.put('ab/abd.v1.webp', Buffer.from('other'));
    expect((await shelf.get('ab/abc.v1.webp'))?.toString()).toBe('thumb');
    expect(await shelf.get('ab/missing.webp')).toBeNull();
    expect(await shelf.has('ab/abc.poster.u-1.webp')).toBe(true);
    expect(await shelf.namesStartingWith('ab/abc.')).toEqual(['ab/abc.poster.u-1.webp', 'ab/abc.v1.webp']);
    await shelf.removeStartingWith('ab/abc.');
    expect(await shelf.namesStartingWith('ab/')).toEqual(['ab/abd.v1.webp']);
    await expect(shelf.put('../escape', Buffer.from('x'))).rejects.toThrow('invalid shelf name');
  });
});
