/**
 * The MD5 worker's interface (workers/hash.worker.ts, called through Comlink from
 * app/lib/upload/hasher.ts). MD5 is the upload's identity (spec/drive.md §3); the main thread
 * never hashes, so a 500 MB file never freezes the page.
 */

export interface HashApi {
  /**
   * MD5 of `blob` as 32 lowercase hex digits, read as a stream (shared/md5-feed.ts). About
   * every 100 ms `onProgress(bytesDone)` is called, one call at a time and not awaited by the
   * hashing; answering false stops the work at the next chunk, and the promise rejects with an
   * Error whose message is HASH_CANCELLED. A file read in under 100 ms reports no progress.
   */
  md5(blob: Blob, onProgress?: (bytesDone: number) => boolean | Promise<boolean>): Promise<string>;
  /**
   * The upload's proof of possession (shared/api/upload.ts): md5 of the nonce's UTF-8 bytes
   * followed by the blob's bytes `start..end`, both inclusive.
   */
  proof(blob: Blob, nonce: string, start: number, end: number): Promise<string>;
}

export const HASH_CANCELLED = 'hash cancelled';
