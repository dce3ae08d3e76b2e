/**
 * The MD5 worker's reading loop (workers/hash.worker.ts), here so that Node unit tests reach it
 * (tests/app/md5-feed.test.ts): it needs only a Blob and something with `update()`.
 *
 * Why a stream and not 1 MiB `slice().arrayBuffer()` reads (issue 25, tests/bench/md5.ts):
 * in Chromium each slice read is a round trip to the browser process and a fresh 1 MiB buffer,
 * and reading 256 MiB that way alone took about as long as hash-wasm took to hash it. The digest
 * is the same: MD5 is of the bytes, whatever pieces they arrive in (spec §7's "1 MB slices" are
 * the original client's read unit, invisible to the server; the upload's chunk size is a
 * separate thing and stays).
 *
 * Why the stream is read "bring your own buffer" (BYOB) into one reused READ_BYTES buffer: with
 * the default reader every chunk is a fresh ArrayBuffer the worker allocates, fills and later
 * collects, and in Chromium that reading cost the worker's thread more than hashing did (reading
 * alone 222 MB/s, hash-wasm alone 512 MB/s, the two in turn 153 MB/s). Reading into the same
 * buffer again runs at over 1.5 GB/s, so the worker's figure is nearly hash-wasm's own
 * (tests/bench/md5.ts). Browsers whose Blob stream is not a byte stream (older Safari) refuse a
 * BYOB reader; they get the default reader, with the same bytes and the same digest.
 *
 * Progress is a call to the page (through Comlink), so it is sent at most every
 * PROGRESS_EVERY_MS and never awaited: the hashing never waits for a busy page. At most one call
 * is in flight; its answer `false` stops the work at the next chunk (the cancel channel).
 */
import { HASH_CANCELLED } from './hash-api';

/**
 * What the loop feeds; hash-wasm's IHasher (and a spark-md5 shim in the bench) fit. `data` is
 * only valid during the call: the loop reads the next bytes into the same buffer.
 */
export interface Md5Sink {
  update(data: Uint8Array): unknown;
}

/** The BYOB read's buffer, at most: one per call, reused for the whole file. */
export const READ_BYTES = 1024 * 1024;

/**
 * `read()` over the blob's stream, the next bytes or null at the end: BYOB into one reused
 * buffer where the stream allows it, the default reader where it does not.
 */
function openReader(blob: Blob): { read: () => Promise<Uint8Array | null>; cancel: () => Promise<void> } {
  const stream = blob.stream();
  let byob: ReadableStreamBYOBReader;
  try {
    byob = stream.getReader({ mode: 'byob' });
  } catch {
    // TypeError: not a byte stream. Nothing was locked, so the default reader can take it.
    const plain = stream.getReader();
    return {
      read: async () => {
        const { done, value } = await plain.read();
        return done ? null : value;
      },
      cancel: () => plain.cancel(),
    };
  }
  // No bigger than the file (a batch of small photos allocates small buffers), never empty (a
  // BYOB read into an empty view is refused).
  let buffer = new Uint8Array(Math.max(1, Math.min(READ_BYTES, blob.size)));
  return {
    read: async () => {
      const { done, value } = await byob.read(buffer);
      if (done) return null;
      // The read transferred the buffer into the view it returns: take it back for the next.
      buffer = new Uint8Array(value.buffer);
      return value;
    },
    cancel: () => byob.cancel(),
  };
}

/** How often progress goes to the page: enough for a smooth "校验MD5 n%", cheap for both threads. */
export const PROGRESS_EVERY_MS = 100;

export interface FeedOptions {
  /** After some chunks, `onProgress(bytesDone)`; answering false cancels. */
  onProgress?: (bytesDone: number) => boolean | Promise<boolean>;
  /** Milliseconds between progress calls (PROGRESS_EVERY_MS; 0 in tests: after every chunk). */
  everyMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

/**
 * Feeds all bytes of `blob` to `sink`, in the order of the file, as the browser's stream hands
 * them over (a large file is never held whole). Rejects with Error(HASH_CANCELLED) once a
 * progress call answered false, or with the read's own error (a file moved or changed after it
 * was picked); the stream is cancelled either way, so the browser stops reading too.
 */
export async function feedBlob(sink: Md5Sink, blob: Blob, opts: FeedOptions = {}): Promise<void> {
  const { onProgress, everyMs = PROGRESS_EVERY_MS, now = () => performance.now() } = opts;
  const reader = openReader(blob);
  let bytesDone = 0;
  let lastAsked = now();
  let asking = false;
  let cancelled = false;
  let progressError: unknown = null;
  const ask = () => {
    asking = true;
    lastAsked = now();
    Promise.resolve()
      .then(() => onProgress!(bytesDone))
      .then(
        (go) => {
          if (go === false) cancelled = true;
        },
        // A callback that throws (the page went away mid-call) ends the work as it did when
        // each call was awaited.
        (err: unknown) => {
          progressError = err ?? new Error('progress callback failed');
        },
      )
      .finally(() => {
        asking = false;
      });
  };
  try {
    for (;;) {
      if (cancelled) throw new Error(HASH_CANCELLED);
      if (progressError !== null) throw progressError;
      const value = await reader.read();
      if (value === null) break;
      sink.update(value);
      bytesDone += value.byteLength;
      if (onProgress && !asking && now() - lastAsked >= everyMs) ask();
    }
  } catch (err) {
    // Stop the browser's reading; the stream may already be errored, which is fine.
    reader.cancel().catch(() => undefined);
    throw err;
  }
}
