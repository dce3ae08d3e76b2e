import { proxy, wrap, type Remote } from 'comlink';
import { HASH_CANCELLED, type HashApi } from '../../../shared/hash-api';

/**
 * The page's side of the MD5 worker (workers/hash.worker.ts). One worker for the whole app,
 * started on first use: uploads hash one file after another, and a second worker would only
 * compete for the same tablet cores. The worker is referenced by URL only, so the app never
 * imports worker code; Vite bundles it as its own asset (and the service worker precaches it).
 */

/**
 * Any failure of hashing that is not a cancel: mostly the browser could not read the file
 * (NotReadableError or NotFoundError when it was moved, deleted or changed after being picked),
 * so the upload should ask for the file again. The original error, with its `name`, is `cause`
 * (also a RangeError for a proof range outside the file, or HashWorkerError if the worker died).
 */
export class FileReadError extends Error {
  override readonly name = 'FileReadError';
  constructor(cause: unknown) {
    super(cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause), { cause });
  }
}

let worker: Worker | null = null;
let api: Remote<HashApi> | null = null;
/** Calls in flight, failed at once if the worker dies: Comlink alone would wait forever. */
const inFlight = new Set<(err: unknown) => void>();

function hashApi(): Remote<HashApi> {
  if (api) return api;
  const w = new Worker(new URL('../../../../workers/hash.worker.ts', import.meta.url), { type: 'module' });
  // A worker that fails to load or throws outside a call never answers; drop it so the next
  // call starts a fresh one.
  w.addEventListener('error', (event) => {
    event.preventDefault();
    if (worker === w) {
      w.terminate();
      worker = null;
      api = null;
    }
    const err = new Error(event.message || 'hash worker failed');
    err.name = 'HashWorkerError';
    for (const fail of [...inFlight]) fail(err);
  });
  worker = w;
  api = wrap<HashApi>(w);
  return api;
}

/** Runs one worker call, translating its failure into AbortError or FileReadError. */
function call(run: (remote: Remote<HashApi>) => Promise<string>, signal?: AbortSignal): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const abort = () => reject(new DOMException('md5 cancelled', 'AbortError'));
    if (signal?.aborted) return abort();
    const fail = (err: unknown) => {
      if (err instanceof Error && err.message === HASH_CANCELLED) abort();
      else reject(new FileReadError(err));
    };
    // Settle at once on abort; the worker notices at its next progress answer and stops.
    signal?.addEventListener('abort', abort, { once: true });
    inFlight.add(fail);
    run(hashApi())
      .then(resolve, fail)
      .finally(() => {
        inFlight.delete(fail);
        signal?.removeEventListener('abort', abort);
      });
  });
}

/**
 * The MD5 of `blob` (32 lowercase hex digits), hashed in the worker as the file streams in.
 * `onProgress(done, total)` comes about every 100 ms (none for a file hashed quicker). Rejects
 * with a DOMException named 'AbortError' when `signal` aborts, and with FileReadError for any
 * other failure.
 */
export function md5Of(
  blob: Blob,
  opts: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal } = {},
): Promise<string> {
  const { onProgress, signal } = opts;
  // The callback is also the cancel channel: answering false stops the worker.
  const progress =
    onProgress || signal
      ? proxy((done: number) => {
          if (signal?.aborted) return false;
          onProgress?.(done, blob.size);
          return true;
        })
      : undefined;
  return call((remote) => remote.md5(blob, progress), signal);
}

/**
 * The upload's proof of possession (shared/api/upload.ts `challenge`): md5 of the nonce's UTF-8
 * bytes followed by bytes `start..end` (both inclusive) of `blob`.
 */
export function proofOf(blob: Blob, nonce: string, start: number, end: number): Promise<string> {
  return call((remote) => remote.proof(blob, nonce, start, end));
}
