import 'fake-indexeddb/auto';
import SparkMD5 from 'spark-md5';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserDb, type UploadRow } from '../../src/app/lib/offline-db';
import {
  createUploadEngine,
  type EngineDeps,
  type Hasher,
  type Transport,
  type UploadEngine,
  type UploadEvent,
  type UploadView,
} from '../../src/app/lib/upload/engine';
import type { Keeper } from '../../src/app/lib/upload/keeper';
import { UploadFailure, type UploadQuery } from '../../src/app/lib/upload/transport';
import { UPLOAD_TOO_LARGE, type UploadAnswer } from '../../src/shared/api/upload';

// The engine imports UploadFailure from lib/upload/transport, which reaches the browser-only
// session and API modules; the tests use none of them.
vi.mock('../../src/app/lib/api', () => ({ sessionExpired: () => undefined }));
vi.mock('../../src/app/lib/session', () => ({ readToken: () => undefined }));

/**
 * The upload queue against a fake server that keeps sessions like the real one
 * (server/modules/drive/upload.service.ts), a fake hasher and an in-memory keeper. Chunks are
 * 1 KiB and files a few KiB, so every file has a handful of chunks.
 *
 * MD5 is spark-md5 (not node:crypto: tsconfig.app.json gives tests/app browser types only, and
 * pulling Node's in would leak them into the whole app); the real worker uses hash-wasm, so the
 * digests here are still an independent check.
 */

const CHUNK = 1024;
const CHECK_FAILED = '文件校验失败，请重新上传';
const QUOTA = '存储空间不足：还剩 1 KB，需要 4 KB';
const NO_ROOM = '剩余存储空间不足，请重新选择（批量）文件';
const NOT_SAME = '所选文件与原文件不一致，请选择原来的文件';

type Bytes = Uint8Array<ArrayBuffer>;

/** MD5 (hex) of the parts in order; a string counts as its UTF-8 bytes, like the proof's nonce. */
function md5(...parts: (Bytes | string)[]) {
  const h = new SparkMD5.ArrayBuffer();
  for (const p of parts) h.append((typeof p === 'string' ? new TextEncoder().encode(p) : p.slice()).buffer);
  return h.end();
}
const bytesOf = async (blob: Blob): Promise<Bytes> => new Uint8Array(await blob.arrayBuffer());
const randomBytes = (n: number): Bytes => crypto.getRandomValues(new Uint8Array(n));
const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min));
function concat(parts: Bytes[]): Bytes {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
const same = (a: Bytes, b: Bytes) => a.length === b.length && a.every((x, i) => x === b[i]);
const abortError = () => new DOMException('aborted', 'AbortError');
const network = () => new UploadFailure('网络连接失败', 'network');
const all = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

interface Session {
  total: number;
  chunks: Map<number, Bytes>;
  userFileId?: number;
  challenge?: { nonce: string; start: number; end: number };
}

interface Send {
  identifier: string;
  n: number;
  bytes: Bytes;
  /** The server stored it (false: failed, refused or aborted on the way). */
  ok: boolean;
}

/**
 * The server side of the upload protocol. Sessions are per identifier and file name; a chunk is
 * stored once; the last missing chunk builds the file after checking its MD5. Content can be
 * owned by the caller (instant upload) or stored for someone else (proof-of-possession challenge).
 */
class FakeServer implements Transport {
  offline = false;
  /** Every request is refused with this message while set. */
  refusal: string | null = null;
  /** The next N chunk sends fail with network errors. */
  failNextSends = 0;
  /** Chunk number → network failures left for it. */
  failChunk = new Map<number, number>();
  /** Each chunk takes this long. */
  latencyMs = 0;
  /** While not null: this many more chunks pass, then sends hang until released or aborted. */
  allowance: number | null = null;
  /** Bytes of a proof range (the real server's is 64 KiB; smaller here so a wrong range shows). */
  proofBytes = 100;

  sessions = new Map<string, Session>();
  /** md5 → bytes the caller's area already holds. */
  owned = new Map<string, Bytes>();
  /** md5 → bytes stored for another person. */
  elsewhere = new Map<string, Bytes>();
  sends: Send[] = [];
  tests: UploadQuery[] = [];
  /** Cancel calls received, with whether a chunk of the upload was still in flight then. */
  cancels: { q: UploadQuery; inFlight: number }[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private nextFileId = 100;
  private waiters: (() => void)[] = [];

  private key(q: UploadQuery) {
    return `${q.identifier}|${q.filename}|${q.relativePath}|${q.filePath}`;
  }

  private open(q: UploadQuery): Session {
    const k = this.key(q);
    let s = this.sessions.get(k);
    if (!s || s.total !== Number(q.totalChunks)) {
      s = { total: Number(q.totalChunks), chunks: new Map() };
      this.sessions.set(k, s);
    }
    return s;
  }

  /** Chunk numbers held for the file with this MD5. */
  held(identifier: string): number[] {
    for (const [k, s] of this.sessions) {
      if (k.startsWith(`${identifier}|`)) return [...s.chunks.keys()].sort((a, b) => a - b);
    }
    return [];
  }

  /** Puts chunks on the server before the test, as an earlier visit would have. */
  preload(identifier: string, name: string, buf: Bytes, numbers: number[]) {
    const q = {
      identifier,
      filename: name,
      relativePath: name,
      filePath: '/',
      totalChunks: chunksOf(buf.length),
    };
    const s = this.open(q);
    for (const n of numbers) s.chunks.set(n, buf.subarray((n - 1) * CHUNK, n * CHUNK));
  }

  sendsOf(identifier: string, onlyOk = false): number[] {
    return this.sends.filter((s) => s.identifier === identifier && (!onlyOk || s.ok)).map((s) => s.n);
  }

  release() {
    this.allowance = null;
    this.waiters.splice(0).forEach((w) => w());
  }

  private gate() {
    if (this.offline) throw network();
    if (this.refusal) throw new UploadFailure(this.refusal, 'refused');
  }

  private instant(q: UploadQuery): UploadAnswer {
    this.sessions.delete(this.key(q));
    const userFileId = this.nextFileId++;
    return { skipUpload: true, uploaded: [], done: true, userFileId };
  }

  cancelUpload = async (q: UploadQuery): Promise<void> => {
    this.cancels.push({ q, inFlight: this.inFlight });
    this.gate();
    this.sessions.delete(this.key(q));
  };

  testUpload = async (q: UploadQuery, signal?: AbortSignal): Promise<UploadAnswer> => {
    await Promise.resolve();
    if (signal?.aborted) throw abortError();
    this.tests.push(q);
    this.gate();
    const id = String(q.identifier);
    const size = Number(q.totalSize);
    const existing = this.sessions.get(this.key(q));
    if (existing?.userFileId !== undefined) {
      return { skipUpload: true, uploaded: all(existing.total), done: true, userFileId: existing.userFileId };
    }
    if (this.owned.has(id)) return this.instant(q);
    const s = this.open(q);
    const uploaded = [...s.chunks.keys()].sort((a, b) => a - b);
    const other = this.elsewhere.get(id);
    if (other && size > 0) {
      const c = s.challenge;
      if (q.proof && c && q.proof === md5(c.nonce, other.subarray(c.start, c.end + 1)))
        return this.instant(q);
      // Every test without a correct proof replaces the challenge.
      const len = Math.min(this.proofBytes, size);
      const start = randomInt(0, size - len + 1);
      s.challenge = {
        nonce: [...randomBytes(16)].map((x) => x.toString(16).padStart(2, '0')).join(''),
        start,
        end: start + len - 1,
      };
      return { skipUpload: false, uploaded, challenge: s.challenge };
    }
    return { skipUpload: false, uploaded };
  };

  sendChunk = async (
    q: UploadQuery,
    bytes: Blob,
    onProgress: (loaded: number) => void,
    signal: AbortSignal,
  ): Promise<UploadAnswer> => {
    if (signal.aborted) throw abortError();
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const buf = await bytesOf(bytes);
      const n = Number(q.chunkNumber);
      const send: Send = { identifier: String(q.identifier), n, bytes: buf, ok: false };
      this.sends.push(send);
      this.gate();
      if (this.failNextSends > 0) {
        this.failNextSends--;
        throw network();
      }
      const left = this.failChunk.get(n) ?? 0;
      if (left > 0) {
        this.failChunk.set(n, left - 1);
        throw network();
      }
      await this.delay(signal);
      onProgress(buf.length);
      if (buf.length !== Number(q.currentChunkSize)) {
        throw new UploadFailure('分片内容与声明的大小不符，请重新上传', 'refused');
      }
      const s = this.open(q);
      if (s.userFileId === undefined) {
        s.chunks.set(n, buf);
        send.ok = true;
      }
      if (s.userFileId === undefined && s.chunks.size === s.total) {
        const whole = concat(all(s.total).map((i) => s.chunks.get(i)!));
        if (whole.length !== Number(q.totalSize) || md5(whole) !== q.identifier) {
          this.sessions.delete(this.key(q));
          throw new UploadFailure(CHECK_FAILED, 'refused');
        }
        s.userFileId = this.nextFileId++;
      }
      if (s.userFileId !== undefined) {
        return { skipUpload: false, uploaded: all(s.total), done: true, userFileId: s.userFileId };
      }
      return { skipUpload: false, uploaded: [...s.chunks.keys()].sort((a, b) => a - b) };
    } finally {
      this.inFlight--;
    }
  };

  private async delay(signal: AbortSignal) {
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(abortError());
      signal.addEventListener('abort', () => reject(abortError()), { once: true });
    });
    aborted.catch(() => undefined);
    if (this.latencyMs) {
      await Promise.race([new Promise((r) => setTimeout(r, this.latencyMs)), aborted]);
    }
    if (this.allowance !== null) {
      if (this.allowance > 0) this.allowance--;
      else await Promise.race([new Promise<void>((r) => this.waiters.push(r)), aborted]);
    }
    if (signal.aborted) throw abortError();
  }
}

/** MD5 with node:crypto, in slices so progress and aborts behave like the worker's. */
class FakeHasher implements Hasher {
  /** md5Of rejects with this (a file that cannot be read). */
  failWith: Error | null = null;
  /** proofOf hashes one byte too few (a wrong range, so an incorrect proof). */
  lie = false;
  hashes = 0;
  proofs: { nonce: string; start: number; end: number }[] = [];

  async md5Of(blob: Blob, opts: { onProgress?: (done: number) => void; signal?: AbortSignal }) {
    this.hashes++;
    if (opts.signal?.aborted) throw abortError();
    if (this.failWith) throw this.failWith;
    const buf = await bytesOf(blob);
    const h = new SparkMD5.ArrayBuffer();
    for (let i = 0; i < buf.length; i += 512) {
      await Promise.resolve();
      if (opts.signal?.aborted) throw abortError();
      h.append(buf.slice(i, i + 512).buffer);
      opts.onProgress?.(Math.min(buf.length, i + 512));
    }
    return h.end();
  }

  async proofOf(blob: Blob, nonce: string, start: number, end: number) {
    this.proofs.push({ nonce, start, end });
    const buf = await bytesOf(blob);
    return md5(nonce, buf.subarray(start, this.lie ? end : end + 1));
  }
}

class MemoryKeeper implements Keeper {
  readonly kind = 'idb' as const;
  bytes = new Map<string, Blob>();
  async put(id: string, blob: Blob) {
    this.bytes.set(id, new Blob([await blob.arrayBuffer()]));
  }
  async get(id: string, size: number) {
    const b = this.bytes.get(id);
    return b && b.size === size ? b : null;
  }
  async remove(id: string) {
    this.bytes.delete(id);
  }
  async ids() {
    return [...this.bytes.keys()];
  }
}

// ——— helpers ———

function chunksOf(size: number) {
  return Math.max(1, Math.ceil(size / CHUNK));
}

/** A file of random bytes. */
function content(size: number, name = 'a.bin') {
  const buf = randomBytes(size);
  return {
    buf,
    blob: new Blob([buf]),
    file: new File([buf], name),
    md5: md5(buf),
    name,
    chunks: chunksOf(size),
  };
}
type Content = ReturnType<typeof content>;

async function until(pred: () => boolean, what = 'condition', timeout = 2000) {
  const end = Date.now() + timeout;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** A short wait for something that must NOT happen. */
const settle = (ms = 40) => new Promise((r) => setTimeout(r, ms));

const target = { filePath: '/', area: {} };

let db: UserDb;
let dbName: string;
let server: FakeServer;
let hasher: FakeHasher;
let keeper: MemoryKeeper;
let online: boolean;
let engines: UploadEngine[];
let dbs: UserDb[];
let n = 0;

function makeEngine(over: Partial<EngineDeps> = {}) {
  const engine = createUploadEngine({
    db,
    keeper,
    keepBudget: async () => 1024 ** 3,
    hasher,
    transport: server,
    isOnline: () => online,
    chunkSize: CHUNK,
    retryDelaysMs: [1, 2, 4],
    probeMs: 60_000,
    ...over,
  });
  engines.push(engine);
  return engine;
}

function collect(engine: UploadEngine) {
  const events: UploadEvent[] = [];
  engine.on((e) => void events.push(e));
  return events;
}

const viewOf = (engine: UploadEngine, name: string): UploadView | undefined =>
  engine.getSnapshot().find((v) => v.name === name);
const stateOf = (engine: UploadEngine, name: string) => viewOf(engine, name)?.state;

function untilState(engine: UploadEngine, name: string, state: UploadView['state'], timeout?: number) {
  return until(() => stateOf(engine, name) === state, `${name} → ${state}`, timeout);
}

async function addOne(engine: UploadEngine, c: Content, extra: { relativePath?: string } = {}) {
  const res = await engine.add([{ file: c.blob, name: c.name, ...extra }], target, 1, null);
  expect(res.added).toBe(1);
  return viewOf(engine, c.name)!.id;
}

const rowOf = async (id: string) => db.uploads.where('id').equals(id).first();

/** Every chunk of `c` the server stored has the file's bytes at that place. */
function expectChunkBytes(c: Content) {
  for (const s of server.sends.filter((x) => x.identifier === c.md5 && x.ok)) {
    expect(same(s.bytes, c.buf.subarray((s.n - 1) * CHUNK, s.n * CHUNK))).toBe(true);
  }
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

beforeEach(() => {
  dbName = `upload-test-${++n}`;
  db = new UserDb(dbName);
  dbs = [db];
  server = new FakeServer();
  hasher = new FakeHasher();
  keeper = new MemoryKeeper();
  online = true;
  engines = [];
});
afterEach(async () => {
  server.release();
  for (const e of engines) await e.stop();
  for (const d of dbs) d.close();
  await db.delete();
});

// ——— tests ———

describe('upload engine: sending', () => {
  it('uploads files in chunks, each chunk once, and records the success', async () => {
    const engine = makeEngine();
    const events = collect(engine);
    const a = content(3 * CHUNK + 512, 'a.bin');
    const b = content(2 * CHUNK, 'b.txt');
    const res = await engine.add(
      [
        { file: a.blob, name: a.name },
        { file: b.blob, name: b.name, relativePath: 'docs/b.txt' },
      ],
      target,
      1,
      null,
    );
    expect(res).toEqual({ added: 2, rejected: [] });
    await until(() => events.some((e) => e.type === 'idle'), 'idle');
    await settle(); // no second idle follows

    expect(sorted(server.sendsOf(a.md5))).toEqual([1, 2, 3, 4]);
    expect(sorted(server.sendsOf(b.md5))).toEqual([1, 2]);
    expectChunkBytes(a);
    expectChunkBytes(b);
    // The folder path reached the server as simple-uploader sends it.
    expect(server.tests.find((q) => q.identifier === b.md5)?.relativePath).toBe('docs/b.txt');
    expect(server.tests.find((q) => q.identifier === a.md5)?.relativePath).toBe('a.bin');

    const rows = await db.uploads.orderBy('seq').toArray();
    expect(rows.map((r) => [r.name, r.state, r.done, r.md5])).toEqual([
      ['a.bin', 'success', a.buf.length, a.md5],
      ['b.txt', 'success', b.buf.length, b.md5],
    ]);
    for (const r of rows) expect(r.userFileId).toBeGreaterThanOrEqual(100);
    expect(new Set(rows.map((r) => r.userFileId)).size).toBe(2);
    expect(rows.every((r) => r.kept === null)).toBe(true);
    expect(await keeper.ids()).toEqual([]);

    const successes = events.filter((e) => e.type === 'success');
    expect(successes.map((e) => e.view.name).sort()).toEqual(['a.bin', 'b.txt']);
    expect(successes.every((e) => e.view.state === 'success' && e.view.percent === 100)).toBe(true);
    expect(events.filter((e) => e.type === 'idle')).toEqual([
      { type: 'idle', anySuccess: true, finished: true, lastSucceeded: true },
    ]);
    expect(engine.pendingCount()).toBe(0);
  });

  it('completes at once when the caller already owns the content (instant upload)', async () => {
    const engine = makeEngine();
    const a = content(3 * CHUNK);
    server.owned.set(a.md5, a.buf);
    const id = await addOne(engine, a);
    await untilState(engine, a.name, 'success');
    expect(server.sends).toEqual([]);
    expect((await rowOf(id))?.userFileId).toBeGreaterThanOrEqual(100);
  });

  it('answers a proof-of-possession challenge and skips the chunks', async () => {
    const engine = makeEngine();
    const a = content(4 * CHUNK);
    server.elsewhere.set(a.md5, a.buf);
    await addOne(engine, a);
    await untilState(engine, a.name, 'success');
    expect(server.sends).toEqual([]);
    expect(hasher.proofs).toHaveLength(1);
    const proofTests = server.tests.filter((q) => q.proof !== undefined);
    expect(proofTests).toHaveLength(1);
  });

  it('uploads every chunk when the proof is wrong', async () => {
    const engine = makeEngine();
    const a = content(4 * CHUNK);
    server.elsewhere.set(a.md5, a.buf);
    hasher.lie = true;
    const id = await addOne(engine, a);
    await untilState(engine, a.name, 'success');
    expect(hasher.proofs).toHaveLength(1);
    expect(sorted(server.sendsOf(a.md5))).toEqual([1, 2, 3, 4]);
    expectChunkBytes(a);
    expect((await rowOf(id))?.userFileId).toBeDefined();
  });

  it('resumes: sends only the chunks the server does not hold', async () => {
    const engine = makeEngine();
    const a = content(5 * CHUNK + 10);
    server.preload(a.md5, a.name, a.buf, [1, 3, 6]);
    await addOne(engine, a);
    await untilState(engine, a.name, 'success');
    expect(sorted(server.sendsOf(a.md5))).toEqual([2, 4, 5]);
    expectChunkBytes(a);
  });

  it('never has more than three chunks in flight across files', async () => {
    const engine = makeEngine();
    server.latencyMs = 3;
    const a = content(6 * CHUNK, 'a.bin');
    const b = content(6 * CHUNK, 'b.bin');
    await engine.add(
      [
        { file: a.blob, name: a.name },
        { file: b.blob, name: b.name },
      ],
      target,
      1,
      null,
    );
    await until(() => engine.getSnapshot().every((v) => v.state === 'success'), 'both done');
    expect(server.maxInFlight).toBe(3);
    expect(server.sends).toHaveLength(12);
  });

  it('keeps away from an item another tab holds the lock for', async () => {
    const engine = makeEngine({ lockItem: async () => false });
    const a = content(2 * CHUNK);
    await addOne(engine, a);
    await until(() => viewOf(engine, a.name)?.elsewhere === true, 'elsewhere');
    expect(server.tests).toEqual([]);
    expect(server.sends).toEqual([]);
  });
});

describe('upload engine: flaky network', () => {
  it('retries a failing chunk: two failures, then it passes on the third attempt', async () => {
    const engine = makeEngine();
    const a = content(4 * CHUNK);
    server.failChunk.set(2, 2);
    await addOne(engine, a);
    await untilState(engine, a.name, 'success');
    const sends = server.sendsOf(a.md5);
    expect(sends.filter((x) => x === 2)).toHaveLength(3);
    expect(sorted(sends.filter((x) => x !== 2))).toEqual([1, 3, 4]);
  });

  it('goes offline after three retries, and wake() resumes without resending held chunks', async () => {
    const engine = makeEngine();
    const a = content(6 * CHUNK);
    server.failChunk.set(2, 100);
    const id = await addOne(engine, a);
    await untilState(engine, a.name, 'offline');
    // One attempt and three retries.
    expect(server.sendsOf(a.md5).filter((x) => x === 2)).toHaveLength(4);
    expect((await rowOf(id))?.state).toBe('offline');

    await settle();
    const heldBefore = server.held(a.md5);
    expect(heldBefore).not.toContain(2);
    const mark = server.sends.length;
    expect(stateOf(engine, a.name)).toBe('offline');

    server.failChunk.clear();
    engine.wake();
    await untilState(engine, a.name, 'success');
    const after = server.sends.slice(mark).map((s) => s.n);
    expect(sorted(after)).toEqual(all(6).filter((x) => !heldBefore.includes(x)));
    expectChunkBytes(a);
  });

  it('tries again by itself after probeMs', async () => {
    const engine = makeEngine({ probeMs: 20 });
    const a = content(2 * CHUNK);
    server.offline = true;
    await addOne(engine, a);
    await untilState(engine, a.name, 'offline');
    server.offline = false;
    await untilState(engine, a.name, 'success');
  });

  it('does not spend retries while the device is offline; wake() when online finishes', async () => {
    const engine = makeEngine();
    const a = content(3 * CHUNK);
    online = false;
    const id = await addOne(engine, a);
    await untilState(engine, a.name, 'offline');
    expect(server.tests).toEqual([]);
    expect(server.sends).toEqual([]);
    expect((await rowOf(id))?.md5).toBe(a.md5);

    // Still offline: waking changes nothing on the wire.
    engine.wake();
    await untilState(engine, a.name, 'offline');
    expect(server.tests).toEqual([]);

    online = true;
    engine.wake();
    await untilState(engine, a.name, 'success');
    expect(sorted(server.sendsOf(a.md5))).toEqual([1, 2, 3]);
    // Hashed once: the offline spell did not lose the MD5.
    expect(hasher.hashes).toBe(1);
  });

  it('a wake() that arrives just as an item goes offline is not lost', async () => {
    const engine = makeEngine();
    const a = content(2 * CHUNK);
    server.offline = true;
    await addOne(engine, a);
    let woke = false;
    // Like the `online` event firing the moment the panel shows 等待网络.
    engine.subscribe(() => {
      if (!woke && stateOf(engine, a.name) === 'offline') {
        woke = true;
        server.offline = false;
        engine.wake();
      }
    });
    await untilState(engine, a.name, 'success', 1000);
  });

  it('shows a refusal with the server reason; retry after the cause is gone succeeds', async () => {
    const engine = makeEngine();
    const events = collect(engine);
    const a = content(4 * CHUNK);
    server.refusal = QUOTA;
    const id = await addOne(engine, a);
    await untilState(engine, a.name, 'error');
    expect(viewOf(engine, a.name)?.error).toBe(QUOTA);
    expect(await rowOf(id)).toMatchObject({ state: 'error', error: QUOTA });
    // A refusal is not retried.
    expect(server.tests).toHaveLength(1);
    await until(() => events.some((e) => e.type === 'idle'), 'idle');
    expect(events.filter((e) => e.type === 'idle')).toEqual([
      { type: 'idle', anySuccess: false, finished: false, lastSucceeded: false },
    ]);

    server.refusal = null;
    engine.resume(id);
    await untilState(engine, a.name, 'success');
    expect(viewOf(engine, a.name)?.error).toBeUndefined();
    expect(sorted(server.sendsOf(a.md5))).toEqual([1, 2, 3, 4]);
    expect(hasher.hashes).toBe(1);
  });

  it('a file whose chunks do not match its MD5 fails with the server reason', async () => {
    const engine = makeEngine();
    const a = content(3 * CHUNK);
    // The bytes change after hashing (the file was edited): the server's check fails.
    const changed = a.buf.slice();
    changed[5]! ^= 0xff;
    const orig = hasher.md5Of.bind(hasher);
    hasher.md5Of = async (blob, o) => (await orig(blob, o), a.md5);
    await engine.add([{ file: new Blob([changed]), name: a.name }], target, 1, null);
    await untilState(engine, a.name, 'error');
    expect(viewOf(engine, a.name)?.error).toBe(CHECK_FAILED);
  });
});

describe('upload engine: user actions', () => {
  it('pause stops sending; resume finishes with few repeats', async () => {
    const engine = makeEngine();
    const a = content(8 * CHUNK);
    server.allowance = 2;
    const id = await addOne(engine, a);
    // Two chunks stored, three more hanging on the wire.
    await until(() => server.held(a.md5).length === 2 && server.inFlight === 3, 'stall');
    engine.pause(id);
    await untilState(engine, a.name, 'paused');
    await until(() => server.inFlight === 0, 'aborted sends');
    const mark = server.sends.length;
    server.release();
    await settle();
    expect(server.sends.length).toBe(mark);
    expect(stateOf(engine, a.name)).toBe('paused');
    expect((await rowOf(id))?.state).toBe('paused');

    engine.resume(id);
    await untilState(engine, a.name, 'success');
    expect(server.sends.length).toBeLessThanOrEqual(a.chunks + 3);
    expectChunkBytes(a);
  });

  it('pause while hashing, then resume', async () => {
    const engine = makeEngine();
    const a = content(8 * CHUNK);
    const id = await addOne(engine, a);
    engine.pause(id);
    await untilState(engine, a.name, 'paused');
    await settle();
    expect(server.tests).toEqual([]);
    expect(stateOf(engine, a.name)).toBe('paused');
    engine.resume(id);
    await untilState(engine, a.name, 'success');
  });

  it('cancel removes the row and the kept bytes', async () => {
    const engine = makeEngine();
    const a = content(4 * CHUNK);
    server.allowance = 1;
    const id = await addOne(engine, a);
    await until(() => viewOf(engine, a.name)?.kept === true && server.inFlight > 0, 'kept and sending');
    expect(await keeper.ids()).toEqual([id]);
    await engine.cancel(id);
    expect(engine.getSnapshot()).toEqual([]);
    expect(await db.uploads.count()).toBe(0);
    expect(await keeper.ids()).toEqual([]);
    await until(() => server.inFlight === 0, 'aborted sends');
    const mark = server.sends.length;
    server.release();
    await settle();
    expect(server.sends.length).toBe(mark);
    expect(await db.uploads.count()).toBe(0);
  });

  it('cancel tells the server to drop the session, once its sends have stopped', async () => {
    const engine = makeEngine();
    const a = content(4 * CHUNK);
    server.allowance = 1;
    await addOne(engine, a, { relativePath: '甲/' + a.name });
    const id = viewOf(engine, a.name)!.id;
    await until(() => server.held(a.md5).length === 1 && server.inFlight > 0, 'one chunk held, more sending');
    await engine.cancel(id);
    await until(() => server.cancels.length === 1, 'the cancel call');
    const [c] = server.cancels;
    expect(c!.inFlight).toBe(0);
    expect(c!.q).toMatchObject({
      identifier: a.md5,
      filename: a.name,
      relativePath: '甲/' + a.name,
      filePath: '/',
    });
    expect(server.held(a.md5)).toEqual([]);
    server.release();
  });

  it('cancel offline neither waits for nor calls the server (the sweep frees it)', async () => {
    const engine = makeEngine();
    const a = content(4 * CHUNK);
    server.allowance = 1;
    const id = await addOne(engine, a);
    await until(() => server.inFlight > 0, 'sending');
    online = false;
    await engine.cancel(id);
    expect(engine.getSnapshot()).toEqual([]);
    server.release();
    await settle();
    expect(server.cancels).toEqual([]);
  });

  it('a file that cannot be read gives readError and its item goes', async () => {
    const engine = makeEngine();
    const events = collect(engine);
    hasher.failWith = Object.assign(new Error('file gone'), { name: 'NotReadableError' });
    const a = content(2 * CHUNK, '报告.pdf');
    await engine.add([{ file: a.blob, name: a.name }], target, 1, null);
    await until(() => events.some((e) => e.type === 'readError'), 'readError');
    expect(events.find((e) => e.type === 'readError')).toEqual({ type: 'readError', name: '报告.pdf' });
    await until(() => engine.getSnapshot().length === 0, 'removed');
    expect(await db.uploads.count()).toBe(0);
    expect(await keeper.ids()).toEqual([]);
    expect(server.tests).toEqual([]);
  });

  it('a file that becomes unreadable after hashing gives readError, not 等待网络', async () => {
    const engine = makeEngine();
    const events = collect(engine);
    const a = content(3 * CHUNK, '移走了.mov');
    // The first chunk reads; the later ones fail (the file was moved meanwhile).
    const vanishing = {
      size: a.blob.size,
      type: '',
      slice: (start?: number, end?: number) => {
        const part = a.blob.slice(start, end);
        if (start !== undefined && start > 0) {
          const gone: Blob = {
            size: (end ?? a.blob.size) - start,
            slice: () => gone,
            arrayBuffer: () => Promise.reject(new DOMException('gone', 'NotFoundError')),
          } as unknown as Blob;
          return gone;
        }
        return part;
      },
      arrayBuffer: () => a.blob.arrayBuffer(),
      stream: () => a.blob.stream(),
    } as unknown as Blob;
    hasher.md5Of = () => Promise.resolve(a.md5);
    await engine.add([{ file: vanishing, name: a.name }], target, 1, null);
    await until(() => events.some((e) => e.type === 'readError'), 'readError');
    await until(() => engine.getSnapshot().length === 0, 'removed');
    expect(engine.getSnapshot().some((v) => v.state === 'offline')).toBe(false);
  });
});

describe('upload engine: add() validation', () => {
  /** A Blob-like of any size without its bytes in memory. */
  const huge = (size: number) => ({ size, type: '', slice: () => new Blob([]) }) as unknown as Blob;

  it('leaves out files over 500 MB and refused names, adds the rest', async () => {
    const engine = makeEngine();
    server.allowance = 0;
    const ok = content(CHUNK, 'ok.txt');
    const res = await engine.add(
      [
        { file: huge(500 * 1024 * 1024 + 1), name: 'big.mp4' },
        { file: ok.blob, name: 'a:b.txt' },
        { file: ok.blob, name: 'c.txt', relativePath: 'top/bad*dir/c.txt' },
        { file: ok.blob, name: ' lead.txt' },
        { file: ok.blob, name: ok.name, relativePath: 'top/sub/ok.txt' },
      ],
      target,
      1,
      null,
    );
    expect(res.added).toBe(1);
    expect(res.batchRefused).toBeUndefined();
    expect(res.rejected).toEqual([
      { name: 'big.mp4', reason: UPLOAD_TOO_LARGE },
      { name: 'a:b.txt', reason: '文件名称不能包含以下字符：\\ / : * ? " < > |' },
      { name: 'c.txt', reason: '文件夹名称不能包含以下字符：\\ / : * ? " < > |' },
      { name: ' lead.txt', reason: '文件名称首尾不能有空格' },
    ]);
    expect(UPLOAD_TOO_LARGE).toBe('上传文件大小不能超过500MB');
    expect((await db.uploads.toArray()).map((r) => [r.name, r.relativePath])).toEqual([
      ['ok.txt', 'top/sub/ok.txt'],
    ]);
  });

  it('a file of exactly 500 MB is accepted', async () => {
    const engine = makeEngine({ keeper: null });
    online = false; // it never gets far: no bytes to read
    hasher.md5Of = () => new Promise(() => undefined);
    const res = await engine.add([{ file: huge(500 * 1024 * 1024), name: 'max.mp4' }], target, 1, null);
    expect(res).toEqual({ added: 1, rejected: [] });
  });

  it('refuses a whole batch larger than the remaining storage, counting queued bytes', async () => {
    const engine = makeEngine();
    server.allowance = 0; // the first file stays unfinished
    const a = content(2 * CHUNK, 'a.bin');
    const b = content(2 * CHUNK, 'b.bin');
    const c = content(CHUNK, 'c.bin');
    expect((await engine.add([{ file: a.blob, name: a.name }], target, 1, 10 * CHUNK)).added).toBe(1);

    // 3 KiB fits in 4 KiB alone, not with the 2 KiB still queued.
    const refused = await engine.add(
      [
        { file: b.blob, name: b.name },
        { file: c.blob, name: c.name },
      ],
      target,
      1,
      4 * CHUNK,
    );
    expect(refused).toEqual({ added: 0, rejected: [], batchRefused: NO_ROOM });
    expect(await db.uploads.count()).toBe(1);
    expect(engine.getSnapshot().map((v) => v.name)).toEqual(['a.bin']);

    const taken = await engine.add(
      [
        { file: b.blob, name: b.name },
        { file: c.blob, name: c.name },
      ],
      target,
      1,
      5 * CHUNK,
    );
    expect(taken).toEqual({ added: 2, rejected: [] });
    expect(await db.uploads.count()).toBe(3);
  });

  it('finished items do not count against the remaining storage', async () => {
    const engine = makeEngine();
    const a = content(3 * CHUNK, 'a.bin');
    await addOne(engine, a);
    await untilState(engine, a.name, 'success');
    const b = content(3 * CHUNK, 'b.bin');
    expect((await engine.add([{ file: b.blob, name: b.name }], target, 1, 3 * CHUNK)).added).toBe(1);
  });
});

describe('upload engine: durability', () => {
  /** A second engine on a fresh connection to the same database, as after a reload. */
  function reopen(over: Partial<EngineDeps> = {}) {
    const again = new UserDb(dbName);
    dbs.push(again);
    return makeEngine({ db: again, ...over });
  }

  it('a new engine with the kept bytes finishes the upload, sending only missing chunks', async () => {
    const engineA = makeEngine();
    const a = content(6 * CHUNK);
    server.allowance = 2;
    const id = await addOne(engineA, a);
    await until(
      () => server.held(a.md5).length === 2 && viewOf(engineA, a.name)?.kept === true,
      'two chunks held and bytes kept',
    );
    await engineA.stop();
    await until(() => server.inFlight === 0, 'aborted sends');
    expect((await rowOf(id))?.state).toBe('uploading');
    const held = server.held(a.md5);
    const mark = server.sends.length;
    server.release();

    const engineB = reopen();
    const events = collect(engineB);
    await engineB.load();
    expect(viewOf(engineB, a.name)?.id).toBe(id);
    await untilState(engineB, a.name, 'success');
    expect(sorted(server.sends.slice(mark).map((s) => s.n))).toEqual(all(6).filter((x) => !held.includes(x)));
    expectChunkBytes(a);
    expect(hasher.hashes).toBe(1);
    expect(await keeper.ids()).toEqual([]);
    await until(() => events.some((e) => e.type === 'idle'), 'idle');
    expect(events.filter((e) => e.type === 'idle')).toEqual([
      { type: 'idle', anySuccess: true, finished: true, lastSucceeded: true },
    ]);
  });

  it('without kept bytes asks for the file, checks it, and resumes with the right one', async () => {
    const engineA = makeEngine({ keeper: null });
    const a = content(5 * CHUNK, 'a.bin');
    server.allowance = 2;
    const id = await addOne(engineA, a);
    await until(() => server.held(a.md5).length === 2 && server.inFlight === 3, 'two chunks held');
    await engineA.stop();
    await until(() => server.inFlight === 0, 'aborted sends');
    server.release();
    const held = server.held(a.md5);
    const mark = server.sends.length;

    const engineB = reopen({ keeper: null });
    await engineB.load();
    await untilState(engineB, a.name, 'needsFile');
    expect((await rowOf(id))?.state).toBe('needsFile');

    // Name or size differ: refused at once.
    expect(engineB.reselect(id, new File([a.buf], 'other.bin'))).toBe(NOT_SAME);
    expect(engineB.reselect(id, new File([a.buf.subarray(1)], a.name))).toBe(NOT_SAME);
    expect(stateOf(engineB, a.name)).toBe('needsFile');

    // Same name and size, other bytes: refused once hashed.
    const hashesBefore = hasher.hashes;
    expect(engineB.reselect(id, new File([randomBytes(a.buf.length)], a.name))).toBeNull();
    await until(() => hasher.hashes > hashesBefore, 'hashing');
    await until(
      () => stateOf(engineB, a.name) === 'needsFile' && viewOf(engineB, a.name)?.error === NOT_SAME,
      'needsFile with error',
    );
    expect(server.sends.length).toBe(mark);

    // The right file.
    expect(engineB.reselect(id, a.file)).toBeNull();
    await untilState(engineB, a.name, 'success');
    expect(sorted(server.sends.slice(mark).map((s) => s.n))).toEqual(all(5).filter((x) => !held.includes(x)));
    expectChunkBytes(a);
  });

  it('a kept copy over the budget is not made: the item then asks for the file', async () => {
    const engineA = makeEngine({ keepBudget: async () => 2 * CHUNK });
    const small = content(2 * CHUNK, 'small.bin');
    const big = content(3 * CHUNK, 'big.bin');
    server.allowance = 0;
    await engineA.add(
      [
        { file: small.blob, name: small.name },
        { file: big.blob, name: big.name },
      ],
      target,
      1,
      null,
    );
    await until(() => viewOf(engineA, small.name)?.kept === true, 'small kept');
    await engineA.stop();
    server.release();
    expect(viewOf(engineA, big.name)?.kept).toBe(false);

    const engineB = reopen();
    await engineB.load();
    await untilState(engineB, small.name, 'success');
    await untilState(engineB, big.name, 'needsFile');
  });

  it('load() resumes rows left running and drops successes older than a day', async () => {
    const now = Date.now();
    const a = content(3 * CHUNK, 'hashing.bin');
    const b = content(4 * CHUNK, 'uploading.bin');
    const c = content(2 * CHUNK, 'offline.bin');
    const d = content(2 * CHUNK, 'paused.bin');
    const row = (x: Content, patch: Partial<UploadRow>): UploadRow => ({
      id: `id-${x.name}`,
      batchId: 'batch',
      way: 1,
      name: x.name,
      relativePath: '',
      filePath: '/',
      area: {},
      size: x.buf.length,
      lastModified: now,
      mime: '',
      state: 'waiting',
      hashed: 0,
      done: 0,
      kept: 'idb',
      createdAt: now,
      updatedAt: now,
      sent: 0,
      ...patch,
    });
    await db.uploads.bulkAdd([
      row(content(CHUNK, 'old.bin'), { state: 'success', kept: null, finishedAt: now - 25 * 3600_000 }),
      row(content(CHUNK, 'recent.bin'), { state: 'success', kept: null, finishedAt: now - 3600_000 }),
      row(a, { state: 'hashing', hashed: 1000 }),
      row(b, { state: 'uploading', md5: b.md5, hashed: b.buf.length, done: CHUNK }),
      row(c, { state: 'offline', md5: c.md5, hashed: c.buf.length }),
      row(d, { state: 'paused', md5: d.md5, hashed: d.buf.length }),
    ]);
    for (const x of [a, b, c, d]) await keeper.put(`id-${x.name}`, x.blob);
    await keeper.put('orphan', new Blob(['x']));
    server.preload(b.md5, b.name, b.buf, [1, 2]);

    const engine = makeEngine();
    await engine.load();
    expect(engine.getSnapshot().map((v) => v.name)).toEqual([
      'recent.bin',
      'hashing.bin',
      'uploading.bin',
      'offline.bin',
      'paused.bin',
    ]);
    for (const x of [a, b, c]) await untilState(engine, x.name, 'success');
    expect(sorted(server.sendsOf(b.md5))).toEqual([3, 4]);
    expect(sorted(server.sendsOf(a.md5))).toEqual([1, 2, 3]);
    expect(hasher.hashes).toBe(1); // only the row without an MD5
    expect(stateOf(engine, d.name)).toBe('paused');
    expect(server.sendsOf(d.md5)).toEqual([]);
    const names = (await db.uploads.toArray()).map((r) => r.name).sort();
    expect(names).toEqual(['hashing.bin', 'offline.bin', 'paused.bin', 'recent.bin', 'uploading.bin']);
    expect(await keeper.ids()).toEqual([`id-${d.name}`]);
  });
});
