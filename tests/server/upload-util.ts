import { createHash, randomBytes } from 'node:crypto';
import type { TestServer } from './harness';

/** Helpers of the chunked upload tests (not a test file itself). */

export const UPLOAD = '/wangpan/filetransfer/uploadfile';
export const KIB = 1024;
/** The smallest chunk size the server accepts; keeps the tests fast. */
export const CHUNK = 64 * KIB;

export const md5 = (b: Buffer | Uint8Array) => createHash('md5').update(b).digest('hex');
export const bytes = (n: number) => randomBytes(n);

/** simple-uploader's parameters for `file` (remainder folded into the last chunk). */
export function paramsOf(
  file: Buffer,
  filename: string,
  extra: Record<string, string | number> = {},
  chunkSize = CHUNK,
) {
  return {
    chunkSize,
    totalSize: file.length,
    identifier: md5(file),
    filename,
    relativePath: filename,
    totalChunks: Math.max(1, Math.floor(file.length / chunkSize)),
    filePath: '/',
    ...extra,
  };
}
export type Params = ReturnType<typeof paramsOf>;

/** The bytes of chunk `n` (1-based) under `p`. */
export function chunkOf(file: Buffer, p: Params, n: number): Buffer {
  const start = (n - 1) * p.chunkSize;
  const end = n === p.totalChunks ? file.length : start + p.chunkSize;
  return file.subarray(start, end);
}

/** The test request: always HTTP 200. */
export async function testRequest(s: TestServer, token: string, p: Params, n = 1) {
  const q = new URLSearchParams();
  const all = { ...p, chunkNumber: n, currentChunkSize: p.chunkSize };
  for (const [k, v] of Object.entries(all)) q.set(k, String(v));
  const res = await s.call('GET', `${UPLOAD}?${q}`, { token });
  if (res.status !== 200) throw new Error(`test request answered HTTP ${res.status}`);
  return res.body;
}

/** One chunk as a real multipart POST (fields first, then `file`), like simple-uploader. */
export async function postChunk(
  s: TestServer,
  token: string,
  p: Params,
  n: number,
  content: Buffer,
  override: Record<string, string | number> = {},
) {
  const form = new FormData();
  const fields = { ...p, chunkNumber: n, currentChunkSize: content.length, ...override };
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  form.append('file', new Blob([new Uint8Array(content)]), p.filename);
  const res = await fetch(s.url + UPLOAD, { method: 'POST', headers: { token }, body: form });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as any };
}

/** Sends every chunk not in `skip`, in order; answers the last answer. */
export async function uploadAll(s: TestServer, token: string, file: Buffer, p: Params, skip: number[] = []) {
  let last: any = null;
  for (let n = 1; n <= p.totalChunks; n++) {
    if (skip.includes(n)) continue;
    last = (await postChunk(s, token, p, n, chunkOf(file, p, n))).body;
    if (!last.success) return last;
  }
  return last;
}

/** Downloads a file's bytes. */
export async function download(s: TestServer, token: string, userFileId: number) {
  const res = await fetch(`${s.url}/wangpan/filetransfer/downloadfile?userFileId=${userFileId}`, {
    headers: { token },
  });
  return Buffer.from(await res.arrayBuffer());
}

/** One chunk in simple-uploader's octet method: parameters in the query, the bytes as the body. */
export async function postChunkOctet(
  s: TestServer,
  token: string,
  p: Params,
  n: number,
  content: Buffer,
  override: Record<string, string | number> = {},
  contentType = 'application/octet-stream',
) {
  const q = new URLSearchParams();
  const fields = { ...p, chunkNumber: n, currentChunkSize: content.length, ...override };
  for (const [k, v] of Object.entries(fields)) q.set(k, String(v));
  const res = await fetch(`${s.url}${UPLOAD}?${q}`, {
    method: 'POST',
    // '' sends no content type at all (an XHR sending a Blob of unknown type).
    headers: contentType ? { token, 'content-type': contentType } : { token },
    body: new Uint8Array(content),
  });
  return { status: res.status, body: JSON.parse(await res.text()) as any };
}
