/**
 * A Chromium that no test driver instruments, for benches whose figure is a count of requests
 * (issue 25: the chunked upload sends 500 of them, its reference one).
 *
 * Playwright enables DevTools' Network domain on every page it drives: the browser process then
 * reports each request's events over the pipe, and Playwright's client (in the bench's own
 * process, beside the server it measures) parses them and builds its request objects. A tablet
 * in a gallery has no DevTools attached. Measured on this machine (tests/bench/README.md,
 * `upload.ts`): about 8 ms of the bench process's CPU per 1 MiB chunk POST went to that, on top of
 * the browser's own share, on two cores that the server and Chromium already share.
 *
 * So this starts /usr/bin/chromium itself, headless, with `--remote-debugging-pipe`, and speaks
 * only the DevTools methods a bench needs: Target (one page), Runtime.evaluate, DOM (to choose a
 * file for an <input type=file>, as a person would), Input (typing), Profiler on request. The
 * Network domain is never enabled. Messages on the pipe are JSON, each ended by a NUL byte.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** What a bench does with a page, whichever browser holds it. */
export interface Tab {
  /** Evaluates an expression (a string: the Node-side tsconfig has no DOM types); promises are awaited. */
  evaluate<T>(expression: string): Promise<T>;
  /** Chooses `file` in the file input `selector`, as the file dialog would. */
  setInputFiles(selector: string, file: string): Promise<void>;
  /** Waits until `selector` matches an element. */
  waitFor(selector: string, timeoutMs: number): Promise<void>;
  /** A DevTools call on the page's own session (the profiler). */
  send<T = unknown>(method: string, params?: object): Promise<T>;
}

interface Message {
  id?: number;
  method?: string;
  result?: unknown;
  error?: { message: string };
}

export interface BareChromium {
  /** Opens `url` in a new page and answers it once its document has loaded. */
  open(
    url: string,
  ): Promise<Tab & { goto(url: string): Promise<void>; type(selector: string, text: string): Promise<void> }>;
  close(): Promise<void>;
  /** The browser's processes descend from this pid (the benches read their CPU from /proc). */
  pid: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function launchBareChromium(
  executable = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
): Promise<BareChromium> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-bare-chromium-'));
  const child: ChildProcess = spawn(
    executable,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
      // What Playwright also turns off: a page nobody looks at still runs at full speed.
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
      `--user-data-dir=${profile}`,
      '--remote-debugging-pipe',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;

  let nextId = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let pending = Buffer.alloc(0);
  fromBrowser.on('data', (d: Buffer) => {
    pending = Buffer.concat([pending, d]);
    for (let end = pending.indexOf(0); end >= 0; end = pending.indexOf(0)) {
      const m = JSON.parse(pending.subarray(0, end).toString('utf8')) as Message;
      pending = pending.subarray(end + 1);
      const w = m.id === undefined ? undefined : waiting.get(m.id);
      if (!w) continue;
      waiting.delete(m.id!);
      if (m.error) w.reject(new Error(m.error.message));
      else w.resolve(m.result);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => {
    for (const w of waiting.values()) w.reject(new Error(`Chromium exited: ${stderr.slice(-500)}`));
    waiting.clear();
  });

  function call<T>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    const id = ++nextId;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      toBrowser.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
    });
  }

  // The browser answers once it is up.
  await call('Browser.getVersion');

  return {
    pid: child.pid!,
    async open(url) {
      const { targetId } = await call<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await call<{ sessionId: string }>('Target.attachToTarget', {
        targetId,
        flatten: true,
      });
      const send = <T>(method: string, params: object = {}) => call<T>(method, params, sessionId);
      const evaluate = async <T>(expression: string): Promise<T> => {
        const r = await send<{
          result: { value?: unknown };
          exceptionDetails?: { exception?: { description?: string }; text: string };
        }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
        if (r.exceptionDetails)
          throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
        return r.result.value as T;
      };
      const waitFor = async (selector: string, timeoutMs: number) => {
        const until = Date.now() + timeoutMs;
        // Polled: a MutationObserver would cost the page work at every change the bench measures.
        while (!(await evaluate<boolean>(`!!document.querySelector(${JSON.stringify(selector)})`))) {
          if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${selector}`);
          await sleep(50);
        }
      };
      const goto = async (to: string) => {
        // Answers once the navigation has committed: the document polled below is the new one.
        const nav = await send<{ errorText?: string }>('Page.navigate', { url: to });
        if (nav.errorText) throw new Error(`loading ${to}: ${nav.errorText}`);
        const until = Date.now() + 60_000;
        while ((await evaluate<string>('document.readyState')) !== 'complete') {
          if (Date.now() > until) throw new Error(`timed out loading ${to}`);
          await sleep(50);
        }
      };
      await goto(url);
      return {
        evaluate,
        waitFor,
        send,
        goto,
        async setInputFiles(selector, file) {
          const { root } = await send<{ root: { nodeId: number } }>('DOM.getDocument', { depth: 0 });
          const { nodeId } = await send<{ nodeId: number }>('DOM.querySelector', {
            nodeId: root.nodeId,
            selector,
          });
          if (!nodeId) throw new Error(`no element ${selector}`);
          await send('DOM.setFileInputFiles', { nodeId, files: [file] });
        },
        async type(selector, text) {
          await evaluate(`document.querySelector(${JSON.stringify(selector)}).focus()`);
          await send('Input.insertText', { text });
        },
      };
    },
    async close() {
      await call('Browser.close').catch(() => undefined);
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
