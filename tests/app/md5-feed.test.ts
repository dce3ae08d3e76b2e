import { createMD5 } from 'hash-wasm';
import SparkMD5 from 'spark-md5';
import { describe, expect, it } from 'vitest';
import { HASH_CANCELLED } from '../../src/shared/hash-api';
import { feedBlob, READ_BYTES, type Md5Sink } from '../../src/shared/md5-feed';

/**
 * The MD5 worker's reading loop (src/shared/md5-feed.ts) with the worker's own hash-wasm, on
 * Node's Blob. Expected digests come from spark-md5, an independent implementation, and from
 * RFC 1321's test suite (tsconfig.app.json gives tests/app browser types only, so no
 * node:crypto here; tests/bench/md5.ts checks the worker in Chromium against node:crypto).
 * Node's Blob stream is a byte stream, as Chromium's is, so these run the loop's BYOB reads; a
 * stream that is not one (older Safari's) takes the default reader, tested on its own below.
 */

const MiB = 1024 * 1024;

function bytes(n: number, seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** `data` as a Blob of parts of `partSize` bytes (the last one shorter). */
function blobOf(data: Uint8Array<ArrayBuffer>, partSize = MiB): Blob {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let a = 0; a < data.length; a += partSize) parts.push(data.slice(a, a + partSize));
  return new Blob(parts);
}

const sparkMd5 = (data: Uint8Array) => SparkMD5.ArrayBuffer.hash(data.slice().buffer);

async function wasmMd5(blob: Blob): Promise<string> {
  const hasher = (await createMD5()).init();
  await feedBlob(hasher, blob);
  return hasher.digest('hex');
}

/** A clock the test moves: `step` ms per reading. */
function fakeClock(step: number) {
  let t = 0;
  return () => (t += step);
}

describe('feedBlob (the MD5 worker reading loop)', () => {
  it('gives RFC 1321 digests', async () => {
    const utf8 = new TextEncoder();
    expect(await wasmMd5(new Blob([]))).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(await wasmMd5(new Blob(['a']))).toBe('0cc175b9c0f1b6a831c399e269772661');
    expect(await wasmMd5(new Blob(['message ', 'digest']))).toBe('f96b697d7cb7938d525a2f31aaf161d0');
    const digits = '1234567890'.repeat(8);
    expect(await wasmMd5(blobOf(utf8.encode(digits), 7))).toBe('57edf4a22be3c955ac49da2e2107b67a');
  });

  it.each([
    ['empty', 0, MiB],
    ['one byte', 1, MiB],
    ['one block less a byte', 63, MiB],
    ['exactly one slice', MiB, MiB],
    ['one slice and a byte', MiB + 1, MiB],
    ['several slices and a tail', 3 * MiB + 17, MiB],
    ['uneven parts across block edges', 2 * MiB + 5, 65_537],
    ['many small parts', 300_001, 61],
  ])('hashes %s (%i bytes) like spark-md5', async (_name, size, partSize) => {
    const data = bytes(size, size + 7);
    expect(await wasmMd5(blobOf(data, partSize))).toBe(sparkMd5(data));
  });

  it('hashes a slice of a file (the proof of possession) as those bytes alone', async () => {
    const data = bytes(3 * MiB, 3);
    const blob = blobOf(data, 100_000);
    const [start, end] = [MiB - 3, 2 * MiB + 10];
    expect(await wasmMd5(blob.slice(start, end + 1))).toBe(sparkMd5(data.subarray(start, end + 1)));
  });

  it('feeds every byte once, in order', async () => {
    const data = bytes(MiB + 123, 9);
    const seen: number[] = [];
    let fed = 0;
    const sink: Md5Sink = {
      update: (chunk) => {
        for (let i = 0; i < chunk.length; i += 4096) seen.push(chunk[i]! ^ data[fed + i]!);
        fed += chunk.length;
      },
    };
    await feedBlob(sink, blobOf(data, 10_000));
    expect(fed).toBe(data.length);
    expect(seen.every((x) => x === 0)).toBe(true);
  });

  it('reads a byte stream in pieces of at most READ_BYTES, whatever its parts', async () => {
    const data = bytes(3 * READ_BYTES + 99, 11);
    const sizes: number[] = [];
    const hasher = (await createMD5()).init();
    const sink: Md5Sink = { update: (chunk) => (sizes.push(chunk.byteLength), hasher.update(chunk)) };
    // Parts of 2.5 × READ_BYTES: the reads split them, never hand them over whole.
    await feedBlob(sink, blobOf(data, (5 * READ_BYTES) / 2));
    expect(hasher.digest('hex')).toBe(sparkMd5(data));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(READ_BYTES);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(data.length);
  });

  it('reads a stream that is not a byte stream with the default reader, to the same digest', async () => {
    const data = bytes(2 * MiB + 3, 12);
    let at = 0;
    const plain = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= data.length) return controller.close();
        controller.enqueue(data.slice(at, (at += 300_007)));
      },
    });
    const blob = { size: data.length, stream: () => plain } as unknown as Blob;
    expect(await wasmMd5(blob)).toBe(sparkMd5(data));
  });

  it('reports progress throttled, rising, within the size, one call at a time', async () => {
    const data = bytes(2 * MiB, 5);
    const dones: number[] = [];
    let inFlight = 0;
    let most = 0;
    const onProgress = async (done: number) => {
      dones.push(done);
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      return true;
    };
    const hasher = (await createMD5()).init();
    // 200 parts of ~10 KB, 10 ms of fake time per clock reading: progress at most every 100 ms.
    await feedBlob(hasher, blobOf(data, 10_486), { onProgress, everyMs: 100, now: fakeClock(10) });
    expect(hasher.digest('hex')).toBe(sparkMd5(data));
    expect(dones.length).toBeGreaterThan(0);
    expect(dones.length).toBeLessThanOrEqual(Math.ceil(200 / 5));
    expect(most).toBe(1);
    for (let i = 1; i < dones.length; i++) expect(dones[i]!).toBeGreaterThan(dones[i - 1]!);
    expect(dones.at(-1)!).toBeLessThanOrEqual(data.length);
  });

  it('sends no progress for a file read quicker than the interval', async () => {
    const calls: number[] = [];
    const hasher = (await createMD5()).init();
    await feedBlob(hasher, blobOf(bytes(MiB), 1000), {
      onProgress: (d) => (calls.push(d), true),
      now: () => 0,
    });
    expect(calls).toEqual([]);
  });

  it.each([
    ['false', () => false],
    ['a promise of false', () => Promise.resolve(false)],
  ])('stops when progress answers %s', async (_name, answer) => {
    let fed = 0;
    const size = 4 * MiB;
    const p = feedBlob({ update: (c) => (fed += c.length) }, blobOf(bytes(size), 4096), {
      onProgress: answer,
      everyMs: 0,
      now: fakeClock(1),
    });
    await expect(p).rejects.toThrow(HASH_CANCELLED);
    expect(fed).toBeGreaterThan(0);
    expect(fed).toBeLessThan(size);
  });

  it('fails with the progress callback’s error (the page went away)', async () => {
    const gone = new Error('port closed');
    const p = feedBlob({ update: () => undefined }, blobOf(bytes(MiB), 4096), {
      onProgress: () => Promise.reject(gone),
      everyMs: 0,
      now: fakeClock(1),
    });
    await expect(p).rejects.toBe(gone);
  });

  it('fails with the read error of a file that changed, and stops the stream', async () => {
    const notReadable = new DOMException('file changed', 'NotReadableError');
    let pulls = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (++pulls === 3) controller.error(notReadable);
        else controller.enqueue(bytes(1000, pulls));
      },
      cancel() {
        cancelled = true;
      },
    });
    const broken = { size: 10_000, stream: () => stream } as unknown as Blob;
    let fed = 0;
    await expect(feedBlob({ update: (c) => (fed += c.length) }, broken)).rejects.toBe(notReadable);
    expect(fed).toBe(2000);

    // A cancel mid-file tells the browser to stop reading.
    const endless = new ReadableStream<Uint8Array>({
      pull: (c) => c.enqueue(bytes(1000)),
      cancel: () => void (cancelled = true),
    });
    const big = { size: 1e9, stream: () => endless } as unknown as Blob;
    await expect(
      feedBlob({ update: () => undefined }, big, { onProgress: () => false, everyMs: 0, now: fakeClock(1) }),
    ).rejects.toThrow(HASH_CANCELLED);
    await Promise.resolve();
    expect(cancelled).toBe(true);
  });
});
