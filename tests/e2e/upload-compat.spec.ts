import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  expect,
  request as newRequest,
  test,
  type APIRequestContext,
  type Page,
  type Request,
} from '@playwright/test';
import { driveApi } from './drive-helpers';
import { freePort, serverProcess } from './server-process';
import { createDriveUser, type TestUser } from './users';

// Needs the service worker (offline reloads, Background Sync, the device's copies).
test.use({ serviceWorkers: 'allow' });

/*
 * Issue 4: "The chunk protocol is compatible with simple-uploader.js. A real client of that
 * library, pointed at our URL, must work." The library's own dist file runs in Chromium against
 * the real server. Our CSP (script-src 'self') would refuse the injected scripts, so this
 * context bypasses CSP; service workers are blocked so only the library talks to the server.
 */
test.use({ bypassCSP: true, serviceWorkers: 'block' });

const UPLOADER_JS = path.resolve('node_modules/simple-uploader.js/dist/uploader.js');
const TARGET = '/wangpan/filetransfer/uploadfile';
const KIB = 1024;
const MIB = 1024 * KIB;

/**
 * Deterministic pseudo-random bytes (xorshift32). Its source is also injected into the page, so
 * Node and the browser make the same file from a seed: keep it plain JavaScript.
 */
function fillBytes(seed: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

interface Source {
  seed: number;
  size: number;
  md5: string;
}
function source(seed: number, size: number): Source {
  return { seed, size, md5: md5(fillBytes(seed, size)) };
}

const uniqueFolder = (tag: string) => `/compat-${tag}-${Date.now().toString(36)}/`;

/** The app origin (so relative URLs reach the server), with the library and the generator. */
async function openUploaderPage(page: Page) {
  await page.goto('/login');
  await page.addScriptTag({ path: UPLOADER_JS });
  await page.addScriptTag({ content: `window.fillBytes = ${fillBytes.toString()};` });
  expect(await page.evaluate(() => typeof (window as any).Uploader)).toBe('function');
}

/** Counts the library's requests to the upload URL, as the network saw them. */
function watchUploads(page: Page) {
  const seen = { get: 0, post: 0 };
  const onRequest = (r: Request) => {
    if (!new URL(r.url()).pathname.endsWith(TARGET)) return;
    if (r.method() === 'GET') seen.get++;
    else if (r.method() === 'POST') seen.post++;
  };
  page.on('request', onRequest);
  return {
    seen,
    reset() {
      seen.get = 0;
      seen.post = 0;
    },
  };
}

interface RunOptions {
  token: string;
  filePath: string;
  name: string;
  src: Source;
  forceChunkSize?: boolean;
  /** Pause the file once this many chunks were acknowledged by the server. */
  pauseAfterChunks?: number;
}

interface RunResult {
  outcome: 'success' | 'error' | 'paused';
  /** fileSuccess's / fileError's message (the response text). */
  message: string;
  /** Chunk numbers whose upload the library started (POST), in order, retries included. */
  posted: number[];
  /** Chunk numbers of test GETs. */
  tested: number[];
  /** The response text the library checked chunks against (the test GET's answer). */
  firstAnswer: string | null;
  /** Every response text, test GET and chunk POSTs, in the order the library processed them. */
  answers: string[];
  /** For a paused run: the chunks acknowledged (HTTP 200, success:true) before the pause. */
  acknowledged: number[];
  totalChunks: number;
}

/**
 * Uploads one file with a fresh `Uploader`, configured the way simple-uploader's users do: MD5
 * as `uniqueIdentifier` (set in `fileAdded`), the test GET, and `checkChunkUploadedByResponse`
 * with the usual `skipUpload`/`uploaded` convention.
 */
async function runUploader(page: Page, o: RunOptions): Promise<RunResult> {
  return page.evaluate(
    (o) =>
      new Promise<RunResult>((resolve) => {
        const w = window as any;
        const bytes: Uint8Array = w.fillBytes(o.src.seed, o.src.size);
        const file = new File([bytes as BlobPart], o.name, { type: 'application/octet-stream' });
        const posted: number[] = [];
        const tested: number[] = [];
        let firstAnswer: string | null = null;
        const answers: string[] = [];
        let settled = false;
        const done = (r: Omit<RunResult, 'posted' | 'tested' | 'firstAnswer' | 'answers'>) => {
          if (settled) return;
          settled = true;
          resolve({ ...r, posted, tested, firstAnswer, answers });
        };
        const uploader = new w.Uploader({
          target: '/wangpan/filetransfer/uploadfile',
          headers: { token: o.token },
          query: { filePath: o.filePath },
          chunkSize: 1024 * 1024,
          forceChunkSize: Boolean(o.forceChunkSize),
          simultaneousUploads: 3,
          testChunks: true,
          maxChunkRetries: 3,
          progressCallbacksInterval: 0,
          checkChunkUploadedByResponse(chunk: any, message: string) {
            firstAnswer ??= message;
            const r = JSON.parse(message);
            if (!r.success || !r.data) return false;
            return r.data.skipUpload === true || r.data.uploaded.includes(chunk.offset + 1);
          },
          // Refusals are HTTP 200 with success:false (the project's envelope): the library's
          // hook for "a 200 that is an error" turns them into fileError.
          processResponse(message: string, cb: (err: unknown, res: string) => void) {
            answers.push(message);
            let ok: boolean;
            try {
              ok = JSON.parse(message).success === true;
            } catch {
              ok = false;
            }
            cb(ok ? null : message, message);
          },
          processParams(params: any, _file: any, _chunk: any, isTest: boolean) {
            (isTest ? tested : posted).push(params.chunkNumber);
            return params;
          },
        });
        w.uploader = uploader;
        uploader.on('fileAdded', (f: any) => {
          f.uniqueIdentifier = o.src.md5;
        });
        uploader.on('fileSuccess', (_root: any, f: any, message: string) =>
          done({ outcome: 'success', message, acknowledged: [], totalChunks: f.chunks.length }),
        );
        uploader.on('fileError', (_root: any, f: any, message: string) =>
          done({ outcome: 'error', message, acknowledged: [], totalChunks: f.chunks.length }),
        );
        if (o.pauseAfterChunks) {
          uploader.on('fileProgress', (_root: any, f: any) => {
            if (settled) return;
            const acked = f.chunks.filter((c: any) => c.status() === 'success').map((c: any) => c.offset + 1);
            if (acked.length >= o.pauseAfterChunks!) {
              f.pause();
              done({ outcome: 'paused', message: '', acknowledged: acked, totalChunks: f.chunks.length });
            }
          });
        }
        uploader.addFile(file);
        // The core library does not start by itself (vue-simple-uploader's autoStart does this).
        uploader.upload();
      }),
    o,
  );
}

/** The answer's `data` (envelope) of a response text. */
function dataOf(message: string): {
  skipUpload: boolean;
  uploaded: number[];
  done?: boolean;
  userFileId?: number;
} {
  return JSON.parse(message).data;
}

/**
 * The one file the run's `done` answers name. The chunk that completed the file answers done with
 * its id. With three chunks in flight, that answer is not always the one the library reports last
 * (fileSuccess): once in a whole run the last one reported was a chunk's recorded before the file
 * was complete, listing the chunks without an id. Two chunks may both see all three recorded;
 * both must name one file.
 */
function doneFileId(r: RunResult): number {
  const ids = new Set(r.answers.map(dataOf).flatMap((a) => (a.done ? [a.userFileId] : [])));
  expect([...ids]).toHaveLength(1);
  return [...ids][0]!;
}

/**
 * Checks the listing (one entry of that name and size) and downloads it through the real API.
 * `userFileId` is the id the uploader's last answer named, if it named one: simple-uploader
 * sends three chunks at once, and the answer it reports last may be a chunk's that was recorded
 * before another one completed the file (it then lists the chunks, with no id), so the entry is
 * found by name and the id, when given, must be that entry's.
 */
async function expectStored(
  request: APIRequestContext,
  user: TestUser,
  folder: string,
  name: string,
  src: Source,
  userFileId: number | undefined,
) {
  const entries = (await driveApi(request, user.token).list(folder)) as unknown as {
    userFileId: number;
    fileName: string;
    extendName: string;
    fileSize: number;
  }[];
  const full = (e: { fileName: string; extendName: string }) =>
    e.extendName ? `${e.fileName}.${e.extendName}` : e.fileName;
  const hit = entries.filter((e) => full(e) === name);
  expect(hit.map((e) => e.fileSize)).toEqual([src.size]);
  if (userFileId !== undefined) expect(hit[0]!.userFileId).toBe(userFileId);
  const res = await request.get('/wangpan/filetransfer/downloadfile', {
    params: { userFileId: hit[0]!.userFileId },
    headers: { token: user.token },
  });
  expect(res.status()).toBe(200);
  const body = await res.body();
  expect(body.length).toBe(src.size);
  expect(md5(body)).toBe(src.md5);
}

test.describe('simple-uploader.js against /wangpan/filetransfer/uploadfile', () => {
  let user: TestUser;

  test.beforeEach(async ({ page, request }) => {
    user = await createDriveUser(request, { prefix: 'su' });
    await openUploaderPage(page);
  });

  test('a 3.5 MiB file, the remainder folded into the last chunk (forceChunkSize: false)', async ({
    page,
    request,
  }) => {
    const net = watchUploads(page);
    const folder = uniqueFolder('a');
    const src = source(101, 3.5 * MIB);
    const r = await runUploader(page, { token: user.token, filePath: folder, name: 'a.bin', src });
    expect(r.outcome, r.message).toBe('success');
    expect(r.totalChunks).toBe(3); // floor(3.5): the last chunk is 1.5 MiB
    expect([...r.posted].sort((x, y) => x - y)).toEqual([1, 2, 3]);
    expect(r.tested).toEqual([1]);
    expect(net.seen).toEqual({ get: 1, post: 3 });
    await expectStored(request, user, folder, 'a.bin', src, doneFileId(r));
  });

  test('a 2.25 MiB file with forceChunkSize: true', async ({ page, request }) => {
    const net = watchUploads(page);
    const folder = uniqueFolder('b');
    const src = source(202, 2.25 * MIB);
    const r = await runUploader(page, {
      token: user.token,
      filePath: folder,
      name: 'b.dat',
      src,
      forceChunkSize: true,
    });
    expect(r.outcome, r.message).toBe('success');
    expect(r.totalChunks).toBe(3); // ceil(2.25): 1 + 1 + 0.25 MiB
    expect([...r.posted].sort((x, y) => x - y)).toEqual([1, 2, 3]);
    expect(net.seen).toEqual({ get: 1, post: 3 });
    await expectStored(request, user, folder, 'b.dat', src, doneFileId(r));
  });

  test('a file smaller than one chunk, and an empty file', async ({ page, request }) => {
    const net = watchUploads(page);
    const folder = uniqueFolder('c');
    const small = source(303, 10 * KIB);
    const r = await runUploader(page, {
      token: user.token,
      filePath: folder,
      name: '小文件.txt',
      src: small,
    });
    expect(r.outcome, r.message).toBe('success');
    expect(r.totalChunks).toBe(1);
    expect(net.seen).toEqual({ get: 1, post: 1 });
    await expectStored(request, user, folder, '小文件.txt', small, dataOf(r.message).userFileId);

    // 0 bytes: the library still makes one (empty) chunk, and the server takes it.
    net.reset();
    const empty = source(0, 0);
    const e = await runUploader(page, { token: user.token, filePath: folder, name: 'empty.txt', src: empty });
    expect(e.outcome, e.message).toBe('success');
    expect(e.totalChunks).toBe(1);
    expect(net.seen).toEqual({ get: 1, post: 1 });
    await expectStored(request, user, folder, 'empty.txt', empty, dataOf(e.message).userFileId);
  });

  test('instant upload: the same content again, to another folder, sends no chunk', async ({
    page,
    request,
  }) => {
    const net = watchUploads(page);
    const src = source(404, 1.5 * MIB);
    const first = uniqueFolder('d1');
    const r1 = await runUploader(page, { token: user.token, filePath: first, name: 'same.bin', src });
    expect(r1.outcome, r1.message).toBe('success');
    expect(net.seen.post).toBe(1);

    net.reset();
    const second = uniqueFolder('d2');
    const r2 = await runUploader(page, { token: user.token, filePath: second, name: 'again.bin', src });
    expect(r2.outcome, r2.message).toBe('success');
    expect(net.seen).toEqual({ get: 1, post: 0 });
    expect(r2.posted).toEqual([]);
    const answer = dataOf(r2.message);
    expect(answer.skipUpload).toBe(true);
    await expectStored(request, user, second, 'again.bin', src, answer.userFileId!);
    // The first copy is still there too.
    await expectStored(request, user, first, 'same.bin', src, dataOf(r1.message).userFileId);
  });

  test('resume: a new Uploader after a reload sends only the chunks the server lacks', async ({
    page,
    request,
  }) => {
    const net = watchUploads(page);
    const folder = uniqueFolder('e');
    const src = source(505, 6 * MIB);
    const opts = { token: user.token, filePath: folder, name: 'resume.bin', src };
    const first = await runUploader(page, { ...opts, pauseAfterChunks: 2 });
    expect(first.outcome).toBe('paused');
    expect(first.totalChunks).toBe(6);
    expect(first.acknowledged.length).toBeGreaterThanOrEqual(2);
    // Not everything was sent: the pause came while chunks were still to go.
    expect(new Set(first.posted).size).toBeLessThan(6);

    // As after a reload: a new page state and a new Uploader for the same file.
    await page.reload();
    await page.addScriptTag({ path: UPLOADER_JS });
    await page.addScriptTag({ content: `window.fillBytes = ${fillBytes.toString()};` });
    net.reset();
    const second = await runUploader(page, opts);
    expect(second.outcome, second.message).toBe('success');
    expect(second.tested).toEqual([1]);
    const held = dataOf(second.firstAnswer!).uploaded;
    // The server kept what it acknowledged before the pause…
    for (const n of first.acknowledged) expect(held).toContain(n);
    // …and the second run sent exactly the rest, each once.
    const missing = [1, 2, 3, 4, 5, 6].filter((n) => !held.includes(n));
    expect([...second.posted].sort((x, y) => x - y)).toEqual(missing);
    expect(net.seen).toEqual({ get: 1, post: missing.length });
    for (const n of first.acknowledged) expect(second.posted).not.toContain(n);
    await expectStored(request, user, folder, 'resume.bin', src, dataOf(second.message).userFileId);
  });
});

test('server-process helper: stop and start on the same data dir keeps a started upload and a file', async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  const dataDir = path.resolve(`.tmp/e2e-proc-${Date.now().toString(36)}`);
  const srv = serverProcess({ port, dataDir });
  let api: APIRequestContext | null = null;
  try {
    await srv.start();
    api = await newRequest.newContext({ baseURL: srv.baseURL });
    const user = await createDriveUser(api, { prefix: 'proc', server: srv.baseURL });

    // Two chunks of 64 KiB by the protocol, multipart with the fields before `file`.
    const chunkSize = 64 * KIB;
    const bytes = fillBytes(606, 2 * chunkSize);
    const base = {
      chunkSize: String(chunkSize),
      totalSize: String(bytes.length),
      identifier: md5(bytes),
      filename: 'kept.bin',
      relativePath: 'kept.bin',
      totalChunks: '2',
      filePath: '/',
    };
    const post = (ctx: APIRequestContext, n: number) =>
      ctx.post(TARGET, {
        headers: { token: user.token },
        multipart: {
          ...base,
          chunkNumber: String(n),
          currentChunkSize: String(chunkSize),
          file: {
            name: 'kept.bin',
            mimeType: 'application/octet-stream',
            buffer: Buffer.from(bytes.subarray((n - 1) * chunkSize, n * chunkSize)),
          },
        },
      });
    const c1 = await (await post(api, 1)).json();
    expect(c1, JSON.stringify(c1)).toMatchObject({ success: true, data: { uploaded: [1] } });

    await srv.restart();
    expect(srv.running).toBe(true);

    // The session survived: the test request still knows chunk 1; chunk 2 completes the file.
    const t = await (
      await api.get(TARGET, {
        headers: { token: user.token },
        params: { ...base, chunkNumber: '1', currentChunkSize: String(chunkSize) },
      })
    ).json();
    expect(t, JSON.stringify(t)).toMatchObject({ success: true, data: { uploaded: [1] } });
    const c2 = await (await post(api, 2)).json();
    expect(c2, JSON.stringify(c2)).toMatchObject({ success: true, data: { done: true } });

    await srv.restart();
    const names = await driveApi(api, user.token).names('/');
    expect(names).toEqual(['kept.bin']);
    const got = await api.get('/wangpan/filetransfer/downloadfile', {
      params: { userFileId: c2.data.userFileId },
      headers: { token: user.token },
    });
    expect(md5(await got.body())).toBe(base.identifier);
  } finally {
    await api?.dispose();
    await srv.stop();
    expect(srv.running).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
