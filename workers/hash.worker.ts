import { expose } from 'comlink';
import { createMD5, type IHasher } from 'hash-wasm';
import type { HashApi } from '../src/shared/hash-api';
import { feedBlob } from '../src/shared/md5-feed';

/**
 * The MD5 worker behind app/lib/upload/hasher.ts (contract: src/shared/hash-api.ts). Runs off
 * the page's thread so hashing a 500 MB video never freezes a tablet's UI; hash-wasm because it
 * is about 3x spark-md5 with the same digest (tests/bench/md5.ts measures it). The file is read
 * as a stream into one reused buffer, with progress throttled (src/shared/md5-feed.ts).
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

const api: HashApi = {
  md5: (blob, onProgress) =>
    withHasher(async (hasher) => {
      await feedBlob(hasher, blob, { onProgress });
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
      await feedBlob(hasher, blob.slice(start, end + 1));
      return hasher.digest('hex');
    });
  },
};

// Comlink exposes on the worker's global scope by default, so this file never names `self`
// (whose type would clash with sw.ts's ServiceWorkerGlobalScope in the same tsconfig project).
expose(api);
