import { expose } from 'comlink';
import { createMD5, type IHasher } from 'hash-wasm';
import { HASH_CANCELLED, HASH_SLICE_BYTES, type HashApi } from '../src/shared/hash-api';

/**
 * The MD5 worker behind app/lib/upload/hasher.ts (contract: src/shared/hash-api.ts). Runs off
 * the page's thread so hashing a 500 MB video never freezes a tablet's UI; hash-wasm because it
 * is about 3x spark-md5 with the same digest (tests/bench/md5.ts measures it).
 *
 * Concurrency: each call takes a hasher of its own from a pool of idle ones (creating one if
 * none is idle) and gives it back when done. Comlink runs calls concurrently in here, and they
 * interleave at every await, so one shared hasher would mix two files' bytes; the pool still
 * reuses instances, because each createMD5() instantiates a fresh WebAssembly memory.
 */
const idle: IHasher[] = [];
/** Enough for the uploads that overlap in practice (a file hashing while a proof is asked). */
const MAX_IDLE = 2;

async function withHasher<T>(work: (hasher: IHasher) => Promise<T>): Promise<T> {
  // init() also resets a hasher whose previous call failed half-way.
  const hasher = (idle.pop() ?? (await createMD5())).init();
  try {
    return await work(hasher);
  } finally {
    if (idle.length < MAX_IDLE) idle.push(hasher);
  }
}

/**
 * Feeds bytes `from` (inclusive) to `to` (exclusive) of `blob` to `hasher`, one slice at a time
 * so a large file never sits in memory whole. The next slice is read while this one is hashed
 * and reported: on a tablet the read is disk I/O, which then overlaps the hashing instead of
 * adding to it.
 */
async function feed(
  hasher: IHasher,
  blob: Blob,
  from: number,
  to: number,
  afterSlice?: (bytesDone: number) => boolean | Promise<boolean>,
): Promise<void> {
  const read = (a: number) => {
    const bytes = blob.slice(a, Math.min(a + HASH_SLICE_BYTES, to)).arrayBuffer();
    // A read-ahead abandoned by a cancel or an earlier failure must not surface as an
    // unhandled rejection; when it is awaited, its own error still propagates.
    bytes.catch(() => undefined);
    return bytes;
  };
  let next = from < to ? read(from) : null;
  for (let a = from; next; a += HASH_SLICE_BYTES) {
    const bytes = await next;
    const end = Math.min(a + HASH_SLICE_BYTES, to);
    next = end < to ? read(end) : null;
    hasher.update(new Uint8Array(bytes));
    if (afterSlice && (await afterSlice(end - from)) === false) throw new Error(HASH_CANCELLED);
  }
}

const api: HashApi = {
  md5: (blob, onProgress) =>
    withHasher(async (hasher) => {
      await feed(hasher, blob, 0, blob.size, onProgress);
      return hasher.digest('hex');
    }),

  proof: (blob, nonce, start, end) => {
    // Out of range, blob.slice() would silently clamp, and the proof would cover other bytes
    // than the server's challenge: fail loudly instead.
    if (
      !Number.isSafeInteger(start) ||
      !Number.isSafeInteger(end) ||
      start < 0 ||
      end < start ||
      end >= blob.size
    )
      return Promise.reject(new RangeError(`proof range ${start}..${end} outside 0..${blob.size - 1}`));
    return withHasher(async (hasher) => {
      hasher.update(nonce); // hash-wasm encodes strings as UTF-8, as the server does.
      await feed(hasher, blob, start, end + 1);
      return hasher.digest('hex');
    });
  },
};

// Comlink exposes on the worker's global scope by default, so this file never names `self`
// (whose type would clash with sw.ts's ServiceWorkerGlobalScope in the same tsconfig project).
expose(api);
