import fs from 'node:fs';
import path from 'node:path';
import type { TestServer } from './harness';

/*
 * What a test server keeps, asked the same way whichever store it runs on (the data dir, or
 * the bucket in the scale-out pass): the tests check the effect (a blob is gone, no chunk is
 * left, no byte was kept), not where a store happens to put it.
 */

/** True in the scale-out pass, known before any server starts (for `it.skipIf`). */
export const S3_PASS = Boolean(process.env.SCALE_TEST_S3_ENDPOINT);

export async function blobExists(s: TestServer, md5: string): Promise<boolean> {
  return (await s.storage.blobs.stat(md5)) !== null;
}

export async function attachmentExists(s: TestServer, md5: string): Promise<boolean> {
  return (await s.storage.attachments.stat(md5)) !== null;
}

/** Chunks of unfinished drive uploads held anywhere. */
export async function driveChunkCount(s: TestServer): Promise<number> {
  let n = 0;
  for (const { id } of await s.storage.uploadChunks.list())
    n += (await s.storage.uploadChunks.held(id)).length;
  return n;
}

/** Unfinished uploads with anything kept (drive sessions, or attachment uploads). */
export async function uploadIds(s: TestServer, kind: 'drive' | 'attach'): Promise<string[]> {
  const store = kind === 'drive' ? s.storage.uploadChunks : s.storage.attachChunks;
  return (await store.list()).map((u) => u.id);
}

/** Staged bytes not committed (nothing must be left once a call is over). */
export async function stagedLeft(s: TestServer): Promise<number> {
  if (s.storage.bucket) {
    let n = 0;
    for await (const o of s.storage.bucket.list('tmp/')) n += o.key ? 1 : 0;
    return n;
  }
  const tmp = path.join(s.config.blobDir, 'tmp');
  return fs.existsSync(tmp) ? fs.readdirSync(tmp).length : 0;
}

/**
 * Bytes of every file under the data dir but the SQLite files (their growth is a few rows,
 * bounded by the open-session cap, and their size moves with WAL checkpoints, not uploads),
 * plus every object of the server in the bucket.
 */
export async function storedBytes(s: TestServer): Promise<number> {
  let n = 0;
  for (const e of fs.readdirSync(s.dataDir, { recursive: true, withFileTypes: true })) {
    if (e.isFile() && !e.name.startsWith('museum.sqlite'))
      n += fs.statSync(path.join(e.parentPath, e.name)).size;
  }
  if (s.storage.bucket) for await (const o of s.storage.bucket.list('')) n += o.size;
  return n;
}
