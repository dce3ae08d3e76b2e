import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Content blobs (ARCHITECTURE.md §4): immutable bytes keyed by the MD5 the server computed
 * while writing them. The key is never taken from a client, and a storage location is only
 * ever built from a key that matches `^[0-9a-f]{32}$`, so no user-chosen string reaches a
 * disk path. Names, folders and owners live in the database, never here.
 */

const MD5_RE = /^[0-9a-f]{32}$/;

/** True for a well-formed blob key (lower-case hex MD5). */
export function isBlobKey(md5: string): boolean {
  return MD5_RE.test(md5);
}

/** A byte range, both ends inclusive (as HTTP Range writes them). */
export interface ByteRange {
  start: number;
  end: number;
}

/** Bytes hashed into a temporary file, not yet visible under their key. */
export interface StagedBlob {
  md5: string;
  size: number;
  /** Moves the bytes under their key atomically; replacing an existing blob is harmless (same bytes). */
  commit(): Promise<void>;
  /** Drops the temporary file (after a failed or refused store). Safe to call after commit. */
  discard(): Promise<void>;
}

export interface BlobStore {
  /** Stores bytes and answers their server-computed MD5 and size. */
  put(input: Buffer | Readable): Promise<{ md5: string; size: number }>;
  /**
   * Hashes bytes into a temporary file; the caller commits them when its database row is
   * ready. `maxBytes` aborts (and cleans up) a stream that grows past it.
   */
  stage(input: Buffer | Readable, opts?: { maxBytes?: number }): Promise<StagedBlob>;
  /** The bytes of a blob, or one range of them. */
  open(md5: string, range?: ByteRange): Readable;
  /** The stored size, or null when the blob is not there. */
  stat(md5: string): Promise<{ size: number } | null>;
  /** Removes a blob; removing a missing one is not an error. */
  remove(md5: string): Promise<void>;
  /**
   * The blob's file on this machine, for tools that read files by path and seek in them (sharp,
   * music-metadata); null for a store without local files (S3), whose callers fall back to
   * `open`.
   */
  localPath(md5: string): string | null;
}

/** Raised when a staged stream grows past `maxBytes`. */
export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`blob larger than ${maxBytes} bytes`);
  }
}

/**
 * The local implementation: `<dir>/ab/cd/<md5>`, written through `<dir>/tmp/` on the same
 * file system so the final rename is atomic and a crash never leaves a half blob under a key.
 */
export function createLocalBlobStore(dir: string): BlobStore {
  const tmpDir = path.join(dir, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  sweepStaleTemps(tmpDir);

  function keyPath(md5: string): string {
    if (!isBlobKey(md5)) throw new Error('invalid blob key');
    return path.join(dir, md5.slice(0, 2), md5.slice(2, 4), md5);
  }

  async function stage(input: Buffer | Readable, opts: { maxBytes?: number } = {}): Promise<StagedBlob> {
    const tmp = path.join(tmpDir, `${randomUUID()}.part`);
    const hash = createHash('md5');
    let size = 0;
    const max = opts.maxBytes ?? Number.POSITIVE_INFINITY;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > max) return cb(new BlobTooLargeError(max));
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    const source = Buffer.isBuffer(input) ? Readable.from([input]) : input;
    const out = fs.createWriteStream(tmp, { flags: 'wx' });
    try {
      await pipeline(source, meter, out);
    } catch (err) {
      // pipeline rejects as soon as a stream fails, while the file may still be opening: wait
      // until the write stream has closed it, or the file could appear after the rm below.
      if (!out.closed) await once(out, 'close').catch(() => undefined);
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    const md5 = hash.digest('hex');
    let done = false;
    return {
      md5,
      size,
      async commit() {
        const dest = keyPath(md5);
        await fsp.mkdir(path.dirname(dest), { recursive: true });
        await fsp.rename(tmp, dest);
        done = true;
      },
      async discard() {
        if (!done) await fsp.rm(tmp, { force: true });
        done = true;
      },
    };
  }

  return {
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
    open(md5, range) {
      return fs.createReadStream(keyPath(md5), range ? { start: range.start, end: range.end } : {});
    },
    async stat(md5) {
      try {
        const st = await fsp.stat(keyPath(md5));
        return st.isFile() ? { size: st.size } : null;
      } catch {
        return null;
      }
    },
    async remove(md5) {
      await fsp.rm(keyPath(md5), { force: true });
    },
    localPath: keyPath,
  };
}

/** Temporary files older than a day are left over from a crash mid-upload; nothing will commit them. */
function sweepStaleTemps(tmpDir: string) {
  const cutoff = Date.now() - 24 * 3600_000;
  for (const name of fs.readdirSync(tmpDir)) {
    const p = path.join(tmpDir, name);
    try {
      if (fs.statSync(p).mtimeMs < cutoff) fs.rmSync(p, { force: true });
    } catch {
      /* raced with another sweeper: nothing to do */
    }
  }
}
