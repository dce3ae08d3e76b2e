import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from './blob-store';

/** Reading a blob from the store failed (not the content's fault): never remembered as bad content. */
export class StoreReadError extends Error {
  readonly code = 'ESTORE';
  constructor(cause: unknown) {
    super(`blob store read failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/**
 * Runs `fn` with a file on this machine holding the blob, for tools that read files by path and
 * seek in them (sharp, music-metadata, 7-Zip): the blob's own file in the local store; with the
 * object store, a temporary copy under `tmpDir`, streamed (memory stays one buffer whatever
 * the size) and removed when `fn` is done.
 */
export async function withLocalFile<T>(
  store: BlobStore,
  md5: string,
  tmpDir: string,
  fn: (file: string) => Promise<T>,
): Promise<T> {
  const own = store.localPath(md5);
  if (own) return fn(own);
  await fsp.mkdir(tmpDir, { recursive: true });
  const file = path.join(tmpDir, `${randomUUID()}.blob`);
  try {
    try {
      await pipeline(store.open(md5), fs.createWriteStream(file, { flags: 'wx' }));
    } catch (err) {
      throw new StoreReadError(err);
    }
    return await fn(file);
  } finally {
    await fsp.rm(file, { force: true });
  }
}
