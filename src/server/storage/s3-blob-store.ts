import { createHash, randomUUID } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { type BlobStore, BlobTooLargeError, isBlobKey, type StagedBlob } from './blob-store';
import type { S3Bucket } from './s3';

/** Where staged bytes wait for their key: `tmp/<uuid>`; left over by a crash, swept after a day. */
export const S3_TMP = 'tmp/';

/**
 * Content blobs in an S3-compatible bucket, under `<area>/ab/cd/<md5>` (the local store's layout,
 * so moving a data dir's blobs is a copy of paths). As locally, the key is the MD5 the server
 * computed while the bytes went through it, never a client's claim.
 *
 * Staging streams the bytes to `tmp/<uuid>` in parts (memory: two parts, whatever the size)
 * while hashing them; committing copies them under their key inside the store (no byte comes
 * back through the server) unless that key already holds them, then drops the temporary object.
 * S3 has no rename; the copy is the store's own and fast.
 */
export function createS3BlobStore(
  bucket: S3Bucket,
  area: string,
): BlobStore & { keyOf(md5: string): string } {
  function keyOf(md5: string): string {
    if (!isBlobKey(md5)) throw new Error('invalid blob key');
    return `${area}/${md5.slice(0, 2)}/${md5.slice(2, 4)}/${md5}`;
  }

  async function stage(input: Buffer | Readable, opts: { maxBytes?: number } = {}): Promise<StagedBlob> {
    const tmp = `${S3_TMP}${randomUUID()}`;
    const hash = createHash('md5');
    let size = 0;
    let tooLarge: BlobTooLargeError | undefined;
    const max = opts.maxBytes ?? Number.POSITIVE_INFINITY;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > max) return cb((tooLarge = new BlobTooLargeError(max)));
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    const source = Buffer.isBuffer(input) ? Readable.from([input]) : input;
    // pipe() does not pass a source's error on: a client that went away must fail the stage.
    source.once('error', (err) => meter.destroy(err));
    try {
      await bucket.upload(tmp, source.pipe(meter));
    } catch (err) {
      await dropStaged(bucket, tmp);
      // The store's own complaint about the aborted upload would hide why it was aborted.
      throw tooLarge ?? err;
    }
    const md5 = hash.digest('hex');
    let done = false;
    return {
      md5,
      size,
      async commit() {
        if (!(await bucket.head(keyOf(md5)))) await bucket.copy(tmp, keyOf(md5), size);
        done = true;
        await dropStaged(bucket, tmp);
      },
      async discard() {
        if (!done) await dropStaged(bucket, tmp);
        done = true;
      },
    };
  }

  return {
    keyOf,
    stage,
    async put(input) {
      const staged = await stage(input);
      try {
        await staged.commit();
      } finally {
        await staged.discard();
      }
      return { md5: staged.md5, size: staged.size };
    },
    open: (md5, range) => bucket.get(keyOf(md5), range),
    async stat(md5) {
      const h = await bucket.head(keyOf(md5));
      return h ? { size: h.size } : null;
    },
    async remove(md5) {
      await bucket.remove([keyOf(md5)]);
    },
    localPath: () => null,
  };
}

/**
 * Removes a staged object that is no longer needed: committed under its blob key, discarded,
 * or refused. Best effort: a delete the store refuses (a passing 500 after the SDK's own
 * retries) must not fail an upload whose file is stored already, make the caller remove the
 * blob it just stored, or hide the error a refusal is about. sweepS3Temps collects what stays.
 */
export async function dropStaged(bucket: S3Bucket, key: string) {
  await bucket.remove([key]).catch(() => undefined);
}

/** Removes staged objects older than a day (a crash between stage and commit); a background job. */
export async function sweepS3Temps(bucket: S3Bucket, now = Date.now()) {
  const old: string[] = [];
  for await (const o of bucket.list(S3_TMP)) if (o.modified < now - 24 * 3600_000) old.push(o.key);
  await bucket.remove(old);
}
