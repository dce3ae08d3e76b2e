import { createCipheriv, createHash } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { TestServer } from '../server/harness';
import { UPLOAD } from '../server/upload-util';

/*
 * A large file through the API without ever holding it: its bytes are an AES-CTR keystream, so
 * any chunk can be made again from its offset, and the MD5 is computed by making them once.
 * Used by the memory test and the object-store bench, which watch the server's RSS.
 */

const KEY = Buffer.alloc(16, 7);

/** `length` bytes of the file starting at `offset` (a multiple of 16). */
export function bytesAt(offset: number, length: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(offset / 16), 8);
  return createCipheriv('aes-128-ctr', KEY, iv).update(Buffer.alloc(length));
}

export interface BigFile {
  size: number;
  chunkSize: number;
  totalChunks: number;
  md5: string;
  chunk(n: number): Buffer;
}

export function bigFile(size: number, chunkSize = 1024 * 1024): BigFile {
  const totalChunks = Math.max(1, Math.floor(size / chunkSize));
  const chunk = (n: number) => {
    const start = (n - 1) * chunkSize;
    const end = n === totalChunks ? size : start + chunkSize;
    return bytesAt(start, end - start);
  };
  const hash = createHash('md5');
  for (let n = 1; n <= totalChunks; n++) hash.update(chunk(n));
  return { size, chunkSize, totalChunks, md5: hash.digest('hex'), chunk };
}

/** Uploads the file as our client does: octet chunks, three in flight. Answers the file's id. */
export async function uploadBig(s: TestServer, token: string, f: BigFile, filename: string): Promise<number> {
  const base = {
    chunkSize: f.chunkSize,
    totalSize: f.size,
    identifier: f.md5,
    filename,
    relativePath: filename,
    totalChunks: f.totalChunks,
    filePath: '/',
  };
  let next = 1;
  let fileId: number | null = null;
  async function lane() {
    while (next <= f.totalChunks) {
      const n = next++;
      const body = f.chunk(n);
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries({ ...base, chunkNumber: n, currentChunkSize: body.length })) {
        q.set(k, String(v));
      }
      const res = await fetch(`${s.url}${UPLOAD}?${q}`, {
        method: 'POST',
        headers: { token, 'content-type': 'application/octet-stream' },
        body,
      });
      const answer = (await res.json()) as {
        success: boolean;
        message: string;
        data?: { done?: boolean; userFileId?: number };
      };
      if (!answer.success) throw new Error(`chunk ${n}: ${answer.message}`);
      if (answer.data?.done) fileId = answer.data.userFileId ?? null;
    }
  }
  await Promise.all([lane(), lane(), lane()]);
  if (fileId === null) throw new Error('the upload did not complete');
  return fileId;
}

/** Downloads the file (or a range) streaming, hashing it; never holds it. */
export async function downloadMd5(
  s: TestServer,
  token: string,
  userFileId: number,
  range?: string,
): Promise<{ status: number; md5: string; bytes: number }> {
  const res = await fetch(`${s.url}/wangpan/filetransfer/downloadfile?userFileId=${userFileId}`, {
    headers: range ? { token, range } : { token },
  });
  const hash = createHash('md5');
  let bytes = 0;
  for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(c);
    bytes += c.length;
  }
  return { status: res.status, md5: hash.digest('hex'), bytes };
}

/** V8's collector, exposed at run time when node was not started with --expose-gc. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/**
 * What `work` makes this process hold: every 250 ms, garbage is collected,
 * and 20 ms later (V8 frees the memory of dead Buffers on a background thread after a
 * collection) the live heap plus Buffers are read. Answers the peak over the same measure
 * before, and the peak of RSS over RSS before (which also counts garbage not yet collected
 * and memory the allocator keeps).
 */
export async function memoryGrowth(work: () => Promise<void>): Promise<{ live: number; rss: number }> {
  const gc = collector();
  const live = async () => {
    gc();
    await new Promise((r) => setTimeout(r, 20));
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const base = { live: await live(), rss: process.memoryUsage().rss };
  const peak = { ...base };
  let sampling: Promise<void> | null = null;
  const sample = async () => {
    peak.live = Math.max(peak.live, await live());
  };
  const rssTimer = setInterval(() => (peak.rss = Math.max(peak.rss, process.memoryUsage().rss)), 20);
  // A collection that takes longer than the period (a loaded machine) skips the next sample
  // rather than queueing collections back to back.
  const liveTimer = setInterval(() => {
    sampling ??= sample().finally(() => (sampling = null));
  }, 250);
  try {
    await work();
  } finally {
    clearInterval(rssTimer);
    clearInterval(liveTimer);
    await sampling;
  }
  await sample();
  return { live: peak.live - base.live, rss: peak.rss - base.rss };
}
