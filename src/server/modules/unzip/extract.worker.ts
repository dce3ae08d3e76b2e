// First: a crash's trace names src/server/… lines in the built server.
import '../../stack-map';
import { parentPort, workerData } from 'node:worker_threads';
import { extract, ExtractError, type ExtractRequest } from './extract';

/*
 * The worker thread's entry (run-extract.ts starts it): reads one archive and posts progress,
 * then `done` with the items or `error` with a message for the person (or `crash` with the
 * detail for the log, which the service answers with the generic "corrupt" message).
 */
const req = workerData as ExtractRequest;
extract(req, (p) => parentPort!.postMessage({ type: 'progress', progress: p })).then(
  (result) => parentPort!.postMessage({ type: 'done', result }),
  (err: unknown) =>
    parentPort!.postMessage(
      err instanceof ExtractError
        ? { type: 'error', message: err.message }
        : { type: 'crash', detail: err instanceof Error ? (err.stack ?? err.message) : String(err) },
    ),
);
