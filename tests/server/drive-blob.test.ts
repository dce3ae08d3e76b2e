import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobTooLargeError, createLocalBlobStore, type BlobStore } from '../../src/server/storage/blob-store';

/*
 * The local blob store on a real temporary directory: keys are the MD5 the store computes, the
 * layout is ab/cd/<md5>, writes go through a temporary file, and nothing but a well-formed key
 * ever becomes a path.
 */

let dir: string;
let store: BlobStore;
const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-blob-'));
  store = createLocalBlobStore(dir);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('local blob store', () => {
  it('stores a buffer under its MD5 at ab/cd/<md5>', async () => {
    const r = await store.put(Buffer.from('青铜器'));
    expect(r).toEqual({ md5: md5('青铜器'), size: Buffer.byteLength('青铜器') });
    expect(fs.readFileSync(path.join(dir, r.md5.slice(0, 2), r.md5.slice(2, 4), r.md5), 'utf8')).toBe(
      '青铜器',
    );
    expect(await store.stat(r.md5)).toEqual({ size: 9 });
  });

  it('hashes a stream while writing it, in many chunks', async () => {
    const chunks = Array.from({ length: 50 }, (_, i) => Buffer.alloc(10_000, i));
    const r = await store.put(Readable.from(chunks));
    expect(r).toEqual({ md5: md5(Buffer.concat(chunks)), size: 500_000 });
  });

  it('opens the whole blob or a byte range (ends inclusive)', async () => {
    const { md5: key } = await store.put(Buffer.from('0123456789'));
    expect(await text(store.open(key))).toBe('0123456789');
    expect(await text(store.open(key, { start: 2, end: 4 }))).toBe('234');
  });

  it('storing the same bytes twice is harmless', async () => {
    const a = await store.put(Buffer.from('same'));
    const b = await store.put(Buffer.from('same'));
    expect(a).toEqual(b);
    expect(await text(store.open(a.md5))).toBe('same');
  });

  it('keeps staged bytes out of sight until commit, and discard leaves nothing', async () => {
    const staged = await store.stage(Buffer.from('staged'));
    expect(await store.stat(staged.md5)).toBeNull();
    await staged.discard();
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
    const again = await store.stage(Buffer.from('staged'));
    await again.commit();
    await again.discard();
    expect(await store.stat(again.md5)).toEqual({ size: 6 });
  });

  it('aborts a stream that grows past maxBytes and cleans up', async () => {
    const big = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(store.stage(big, { maxBytes: 1000 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
  });

  it('removes blobs; removing twice is not an error', async () => {
    const { md5: key } = await store.put(Buffer.from('to remove'));
    await store.remove(key);
    await store.remove(key);
    expect(await store.stat(key)).toBeNull();
  });

  it('never turns anything but a lower-case hex MD5 into a path', async () => {
    for (const key of [
      '../../etc/passwd',
      'ABCDEF0123456789ABCDEF0123456789',
      'abc',
      `${'a'.repeat(32)}/x`,
    ]) {
      expect(() => store.open(key)).toThrow('invalid blob key');
      await expect(store.remove(key)).rejects.toThrow('invalid blob key');
      expect(await store.stat(key)).toBeNull();
    }
  });
});
