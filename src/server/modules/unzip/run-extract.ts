import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ExtractRequest, ExtractResult, Progress } from './extract';
import { CORRUPT, ExtractError } from './extract-error';

/**
 * Runs extract.worker.ts in a worker thread, so decompression never blocks the server's event
 * loop, and ends it after `timeoutMs`. Built (`npm start`, the e2e servers: this module is part of
 * dist-server/main.js), the worker is dist-server/extract.worker.js beside it, plain JavaScript
 * (scripts/build-server.ts builds both). From the sources (tsx in `npm run dev:server`, vitest)
 * the worker is TypeScript: the bootstrap registers tsx's loader inside the thread, then loads it.
 */
const BUILT = import.meta.url.endsWith('.js');

function bootstrap(): string {
  if (BUILT) {
    const url = new URL('./extract.worker.js', import.meta.url).href;
    return `import(${JSON.stringify(url)});`;
  }
  const workerUrl = new URL('./extract.worker.ts', import.meta.url).href;
  // The ESM build of tsx's API (require.resolve finds the CommonJS one, which cannot register ESM hooks).
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/index\.cjs$/, 'index.mjs'),
  ).href;
  return `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(workerUrl)}); });`;
}
const BOOT = bootstrap();

export const TIMED_OUT = (minutes: number) => `解压超时（超过 ${minutes} 分钟），已取消，没有写入任何文件`;

export function runExtract(
  req: ExtractRequest,
  opts: { timeoutMs: number; onProgress: (p: Progress) => void; onCrash?: (detail: string) => void },
): Promise<ExtractResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(BOOT, { eval: true, workerData: req });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        finish(() => reject(new ExtractError(TIMED_OUT(Math.max(1, Math.round(opts.timeoutMs / 60_000)))))),
      opts.timeoutMs,
    );
    worker.on(
      'message',
      (m: {
        type: string;
        progress?: Progress;
        result?: ExtractResult;
        message?: string;
        detail?: string;
      }) => {
        if (m.type === 'progress' && m.progress) opts.onProgress(m.progress);
        else if (m.type === 'done') finish(() => resolve(m.result!));
        else if (m.type === 'error') finish(() => reject(new ExtractError(m.message!)));
        else if (m.type === 'crash') {
          opts.onCrash?.(m.detail ?? '');
          finish(() => reject(new ExtractError(CORRUPT)));
        }
      },
    );
    worker.on('error', (err: Error) => {
      opts.onCrash?.(err.stack ?? err.message);
      finish(() => reject(new ExtractError(CORRUPT)));
    });
    worker.on('exit', () => finish(() => reject(new ExtractError(CORRUPT))));
  });
}
