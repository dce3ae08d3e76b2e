/**
 * The MD5 worker's interface (workers/hash.worker.ts, called through Comlink from
 * app/lib/upload/hasher.ts). MD5 is the upload's identity (spec/drive.md §3); the main thread
 * never hashes, so a 500 MB file never freezes the page.
 */

/** Slice read and hashed at a time (spec §7: MD5 in 1 MB slices). */
export const HASH_SLICE_BYTES = 1024 * 1024;

export interface HashApi {
  /**
   * MD5 of `blob` as 32 lowercase hex digits, read in HASH_SLICE_BYTES slices. After each
   * slice `onProgress(bytesDone)` is awaited; answering false stops the work, and the promise
   * rejects with an Error whose message is HASH_CANCELLED.
   */
  md5(blob: Blob, onProgress?: (bytesDone: number) => boolean | Promise<boolean>): Promise<string>;
  /**
   * The upload's proof of possession (shared/api/upload.ts): md5 of the nonce's UTF-8 bytes
   * followed by the blob's bytes `start..end`, both inclusive.
   */
  proof(blob: Blob, nonce: string, start: number, end: number): Promise<string>;
}

export const HASH_CANCELLED = 'hash cancelled';
