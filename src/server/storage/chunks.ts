import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore, StagedBlob } from './blob-store';

/**
 * The bytes of unfinished chunked uploads (the drive's simple-uploader protocol, attachment
 * chunks), kept where every instance can reach them: under DATA_DIR in the embedded default,
 * in the object store with BLOB_STORE=s3 (s3-chunks.ts). Which chunks an upload holds, who
 * owns it and the room it holds stay with the caller (database rows, notes).
 *
 * An upload id is made by the server (a session's UUID, `<userId>-<uploadId>` of a pattern the
 * contract checks), never a file name; it is still checked here before it becomes a path.
 */
export interface ChunkLayout {
  /** Every chunk but the last has this many bytes; the last has the rest. */
  chunkSize: number;
  totalChunks: number;
  totalSize: number;
  /**
   * The MD5 the client claims (the drive's `identifier`). Only a hint for where the object
   * store assembles the bytes: the MD5 of an assembled file is always the server's own.
   */
  md5?: string;
}

export interface ChunkStore {
  /**
   * Stores chunk `n` (from 1) of upload `id` from `body`, which must give exactly `size` bytes:
   * more or fewer throws `wrongSize(received)` and keeps nothing. Storing a held chunk again
   * replaces it (with the same bytes, for an honest client).
   */
  write(
    id: string,
    n: number,
    body: Readable,
    size: number,
    layout: ChunkLayout,
    wrongSize: (received: number) => Error,
  ): Promise<void>;
  /** The chunk numbers held, ascending. */
  held(id: string): Promise<number[]>;
  /**
   * The whole file from chunks 1..totalChunks, all held, hashed by the server: a staged blob
   * in the target store, which the caller commits (with its database row) or discards. Until
   * the upload is dropped, assembling again is allowed (a retried completion).
   */
  assemble(id: string, layout: ChunkLayout): Promise<StagedBlob>;
  /** Small JSON records kept with an upload (the attachment's description and result). */
  readNote<T>(id: string, name: string): Promise<T | null>;
  writeNote(id: string, name: string, value: unknown): Promise<void>;
  /** Marks the upload as active now (what `list` reports as touchedAt). */
  touch(id: string): Promise<void>;
  /** Removes the chunk bytes, keeping the notes (an assembled upload answers a repeated last chunk). */
  dropChunks(id: string): Promise<void>;
  /** Removes everything of the upload. */
  drop(id: string): Promise<void>;
  /** Every upload present, with its last activity (the sweeps). */
  list(): Promise<{ id: string; touchedAt: number }[]>;
}

/**
 * An upload whose chunks were consumed by an assembly whose file then went (a completion that
 * failed after committing): it cannot be assembled again and must start over.
 */
export class ChunksGoneError extends Error {
  constructor(readonly uploadId: string) {
    super(`the chunks of upload ${uploadId} are gone`);
  }
}

const ID_RE = /^[A-Za-z0-9_-]{1,100}$/;
const NOTE_RE = /^[a-z]{1,20}$/;

export function checkUploadId(id: string): string {
  if (!ID_RE.test(id)) throw new Error('invalid upload id');
  return id;
}

export function checkNoteName(name: string): string {
  if (!NOTE_RE.test(name)) throw new Error('invalid note name');
  return name;
}

/** A Transform that passes exactly `size` bytes, else fails with `wrongSize(received)`. */
export function exactly(size: number, wrongSize: (received: number) => Error) {
  let got = 0;
  const meter = new Transform({
    transform(c: Buffer, _e, cb) {
      got += c.length;
      // Stop at once past the declared size: nothing more than one chunk is ever kept.
      if (got > size) cb(wrongSize(got));
      else cb(null, c);
    },
    flush(cb) {
      cb(got === size ? null : wrongSize(got));
    },
  });
  return { meter, received: () => got };
}

/** The one file per upload that every chunk is written into, at its offset. */
const PART = 'data.part';
/** Out-of-order chunks kept in memory per upload until the gap before them fills; past it they are read back from the part file. */
const PENDING_MAX_BYTES = 16 * 1024 * 1024;
/** A claim older than this belongs to a writer that died (a chunk is at most 2 MiB). */
const CLAIM_STALE_MS = 60_000;
/** A running hash idle this long is forgotten (its upload went elsewhere or was abandoned). */
const RUNNING_IDLE_MS = 15 * 60_000;

/**
 * The MD5 of an upload's chunks 1..next-1, fed in order as they are written by this process.
 * Chunks that arrive ahead of `next` wait in `pending` (their bytes, or null: read them back
 * from the part file) until the gap fills.
 */
interface Running {
  layout: string;
  hash: Hash;
  next: number;
  pending: Map<number, Bytes | null>;
  pendingBytes: number;
  /** Hashing steps of this upload, one after the other. */
  chain: Promise<void>;
  failed: boolean;
  touchedAt: number;
}

const layoutKey = (l: ChunkLayout) => `${l.chunkSize}/${l.totalChunks}/${l.totalSize}`;
const chunkBytes = (l: ChunkLayout, n: number) =>
  n < l.totalChunks ? l.chunkSize : l.totalSize - (l.totalChunks - 1) * l.chunkSize;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const code = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code;

/**
 * Reads exactly `size` bytes of a chunk from `body`, else fails with `wrongSize(received)`: the
 * pieces as the socket gave them. Not joined: the file takes them in one writev and the hash one
 * by one, so a MiB is never copied once more (a copy and its garbage per chunk, issue 25).
 */
async function readWhole(body: Readable, size: number, wrongSize: (received: number) => Error) {
  const { meter, received } = exactly(size, wrongSize);
  const parts: Buffer[] = [];
  await pipeline(body, meter, async (source: AsyncIterable<Buffer>) => {
    for await (const c of source) parts.push(c);
  });
  // A multipart file part cut at its limit ends normally, flagged truncated.
  if ((body as Readable & { truncated?: boolean }).truncated) throw wrongSize(received());
  return parts;
}

type Bytes = readonly Buffer[];
const lengthOf = (b: Bytes) => b.reduce((n, p) => n + p.length, 0);
const hashIn = (hash: Hash, b: Bytes) => b.forEach((p) => hash.update(p));

/**
 * The embedded default (issue 25): one part file per upload, `<dir>/<id>/data.part`, that each
 * chunk is written into at its offset, and an empty marker `<dir>/<id>/<n>` once chunk n's bytes
 * are all there (so `held` is a directory listing, as before). Notes are `<dir>/<id>/<name>.json`.
 *
 * Completion does not read the file back. This process hashes the chunks it writes, in order, as
 * they arrive (out-of-order ones wait in memory up to 16 MiB per upload, beyond that they are read
 * back from the part file when their turn comes), so when the last chunk lands the MD5 is one
 * final digest, and the commit is a hard link of the part file under the blob's key. Whatever
 * this process did not see (a chunk written by another instance sharing DATA_DIR, or before a
 * restart) is hashed from the part file at completion: slower, never wrong.
 *
 * A chunk's bytes are written once. The writer first takes `<n>.claim` (O_EXCL), checks that the
 * marker is still absent, writes, and renames the claim to the marker; a chunk sent twice,
 * at once or later, through this instance or another, finds the marker and changes nothing. So
 * the bytes the running hash took are the bytes in the file. A chunk is received whole into
 * memory (at most 2 MiB) and its size checked before the file is touched: a cut or oversized
 * chunk never damages the part file.
 *
 * Uploads left from before this layout (one file per chunk, `<n>` with the chunk's bytes) are
 * still assembled: a non-empty marker is the chunk itself.
 */
export function createLocalChunkStore(dir: string, target: BlobStore): ChunkStore {
  fs.mkdirSync(dir, { recursive: true });
  const folder = (id: string) => path.join(dir, checkUploadId(id));
  const marker = (id: string, n: number) => path.join(folder(id), String(n));
  const claimFile = (id: string, n: number) => path.join(folder(id), `${n}.claim`);
  const partFile = (id: string) => path.join(folder(id), PART);
  const noteFile = (id: string, name: string) => path.join(folder(id), `${checkNoteName(name)}.json`);
  const running = new Map<string, Running>();

  const exists = (p: string) =>
    fsp.access(p).then(
      () => true,
      () => false,
    );

  /**
   * Takes chunk n's claim, waiting out another writer; false when the chunk is already held.
   * The marker is looked for before the claim is made, at every try: a chunk sent to two
   * instances at once may have been written by the other one, which then completes the upload
   * and removes the folder. A claim made in the folder meanwhile made that removal fail
   * (ENOTEMPTY, a 500 for the other instance: tests/server/instances.test.ts, 2026-12-08).
   */
  async function claim(id: string, n: number): Promise<boolean> {
    for (let waited = 0; ; waited += 20) {
      if (await exists(marker(id, n))) return false;
      try {
        await (await fsp.open(claimFile(id, n), 'wx')).close();
      } catch (err) {
        // The upload's first chunk here (or its folder went meanwhile): made on demand rather
        // than by a mkdir before every chunk.
        if (code(err) === 'ENOENT') {
          if (waited > 100) throw err;
          await fsp.mkdir(folder(id), { recursive: true });
          continue;
        }
        if (code(err) !== 'EEXIST') throw err;
        const st = await fsp.stat(claimFile(id, n)).catch(() => null);
        if (st && Date.now() - st.mtimeMs > CLAIM_STALE_MS) await fsp.rm(claimFile(id, n), { force: true });
        else if (waited > 2 * CLAIM_STALE_MS)
          throw new Error(`chunk ${n} of ${id} stays claimed`, { cause: err });
        else await sleep(20);
        continue;
      }
      // Held already, or the previous holder made its marker just before letting the claim go.
      if (await exists(marker(id, n))) {
        await unlinkClaim(id, n);
        return false;
      }
      return true;
    }
  }

  /** Lets chunk n's claim go (gone already is fine). */
  async function unlinkClaim(id: string, n: number) {
    await fsp.unlink(claimFile(id, n)).catch((err: unknown) => {
      if (code(err) !== 'ENOENT') throw err;
    });
  }

  /**
   * Writes a chunk's pieces at `offset` of the part file (one writev), creating it first. Not
   * preallocated: the file is sparse, holding only the bytes received (what a quota of
   * unfinished uploads counts).
   */
  async function writeAt(id: string, bytes: Bytes, offset: number) {
    let fh: fsp.FileHandle;
    try {
      fh = await fsp.open(partFile(id), 'r+');
    } catch (err) {
      if (code(err) !== 'ENOENT') throw err;
      try {
        fh = await fsp.open(partFile(id), 'wx+');
      } catch (err2) {
        if (code(err2) !== 'EEXIST') throw err2;
        fh = await fsp.open(partFile(id), 'r+');
      }
    }
    try {
      const total = lengthOf(bytes);
      const { bytesWritten } = await fh.writev(bytes as Buffer[], offset);
      if (bytesWritten < total) {
        // A short write (rare on a local disk): the rest, one piece.
        const buf = Buffer.concat(bytes as Buffer[], total);
        for (let at = bytesWritten; at < total;) {
          const w = await fh.write(buf, at, total - at, offset + at);
          at += w.bytesWritten;
        }
      }
    } finally {
      await fh.close();
    }
  }

  /**
   * Chunk n's bytes from the part file. A chunk stored as its own file (an upload begun before
   * the part file, issue 25) is copied into the part file on the way, so the part file is whole.
   */
  async function readChunk(id: string, layout: ChunkLayout, n: number): Promise<Bytes> {
    const size = chunkBytes(layout, n);
    const own = await fsp.stat(marker(id, n)).catch(() => null);
    if (!own) throw new ChunksGoneError(id);
    if (own.size > 0) {
      const bytes = await fsp.readFile(marker(id, n));
      if (bytes.length !== size) throw new ChunksGoneError(id);
      await writeAt(id, [bytes], (n - 1) * layout.chunkSize);
      return [bytes];
    }
    const fh = await fsp.open(partFile(id), 'r').catch((err: unknown) => {
      throw code(err) === 'ENOENT' ? new ChunksGoneError(id) : err;
    });
    try {
      const buf = Buffer.allocUnsafe(size);
      for (let at = 0; at < size;) {
        const { bytesRead } = await fh.read(buf, at, size - at, (n - 1) * layout.chunkSize + at);
        if (bytesRead === 0) throw new ChunksGoneError(id);
        at += bytesRead;
      }
      return [buf];
    } finally {
      await fh.close();
    }
  }

  function forgetIdle(now: number) {
    for (const [id, r] of running) if (now - r.touchedAt > RUNNING_IDLE_MS) running.delete(id);
  }

  /** Folds chunk n (just written by this process) into the upload's running MD5, in order. */
  function feed(id: string, layout: ChunkLayout, n: number, buf: Bytes) {
    const now = Date.now();
    forgetIdle(now);
    let r = running.get(id);
    if (!r || r.layout !== layoutKey(layout)) {
      r = {
        layout: layoutKey(layout),
        hash: createHash('md5'),
        next: 1,
        pending: new Map(),
        pendingBytes: 0,
        chain: Promise.resolve(),
        failed: false,
        touchedAt: now,
      };
      running.set(id, r);
    }
    const run = r;
    run.touchedAt = now;
    run.chain = run.chain
      // After the chunk's answer is on its way: hashing is work that can follow it.
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(async () => {
        if (run.failed || n < run.next || run.pending.has(n)) return;
        if (n > run.next) {
          const size = lengthOf(buf);
          const keep = run.pendingBytes + size <= PENDING_MAX_BYTES;
          run.pending.set(n, keep ? buf : null);
          if (keep) run.pendingBytes += size;
          return;
        }
        hashIn(run.hash, buf);
        run.next++;
        while (run.pending.has(run.next)) {
          const held = run.pending.get(run.next)!;
          run.pending.delete(run.next);
          if (held) run.pendingBytes -= lengthOf(held);
          hashIn(run.hash, held ?? (await readChunk(id, layout, run.next)));
          run.next++;
        }
      })
      .catch(() => {
        // Hashing from memory went wrong (a chunk could not be read back): completion hashes
        // the part file instead.
        run.failed = true;
        run.pending.clear();
        run.pendingBytes = 0;
      });
  }

  /** The staged result: the part file, hashed; committing links it under its key. */
  function stagedPart(id: string, md5: string, size: number): StagedBlob {
    return {
      md5,
      size,
      async commit() {
        const dest = target.localPath(md5);
        if (dest) {
          await fsp.mkdir(path.dirname(dest), { recursive: true });
          try {
            await fsp.link(partFile(id), dest);
            return;
          } catch (err) {
            // The same bytes are stored already (dedup): nothing to do.
            if (code(err) === 'EEXIST') return;
            if (code(err) !== 'EXDEV' && code(err) !== 'EPERM') throw err;
          }
        }
        // Another file system, or a store without local files: copy (and hash) once.
        const copy = await target.stage(fs.createReadStream(partFile(id)), { maxBytes: size });
        try {
          if (copy.md5 !== md5 || copy.size !== size) throw new Error(`part file of ${id} changed`);
          await copy.commit();
        } finally {
          await copy.discard();
        }
      },
      // The part file stays until the upload is dropped: a retried completion commits it again.
      async discard() {},
    };
  }

  return {
    async write(id, n, body, size, layout, wrongSize) {
      const buf = await readWhole(body, size, wrongSize);
      if (!(await claim(id, n))) return;
      let marked = false;
      try {
        await writeAt(id, buf, (n - 1) * layout.chunkSize);
        // The (empty) claim becomes the marker: one call where a link and a removal were two.
        await fsp.rename(claimFile(id, n), marker(id, n));
        marked = true;
      } finally {
        if (!marked) await unlinkClaim(id, n);
      }
      feed(id, layout, n, buf);
    },
    async held(id) {
      const names = await fsp.readdir(folder(id)).catch(() => [] as string[]);
      return names
        .filter((n) => /^[1-9]\d*$/.test(n))
        .map(Number)
        .sort((a, b) => a - b);
    },
    async assemble(id, layout) {
      const r = running.get(id);
      if (r && r.layout === layoutKey(layout)) await r.chain;
      const part = await exists(partFile(id));
      if (r && !r.failed && r.layout === layoutKey(layout) && part) {
        // Fast path: what this process saw, plus whatever it did not, read from the part file.
        const hash = r.hash.copy();
        for (let n = r.next; n <= layout.totalChunks; n++) {
          hashIn(hash, r.pending.get(n) ?? (await readChunk(id, layout, n)));
        }
        return stagedPart(id, hash.digest('hex'), layout.totalSize);
      }
      // Nothing seen here (another instance, a restart): hash the part file, still no copy.
      const hash = createHash('md5');
      for (let n = 1; n <= layout.totalChunks; n++) hashIn(hash, await readChunk(id, layout, n));
      return stagedPart(id, hash.digest('hex'), layout.totalSize);
    },
    async readNote<T>(id: string, name: string) {
      try {
        return JSON.parse(await fsp.readFile(noteFile(id, name), 'utf8')) as T;
      } catch {
        return null;
      }
    },
    async writeNote(id, name, value) {
      await fsp.mkdir(folder(id), { recursive: true });
      await fsp.writeFile(noteFile(id, name), JSON.stringify(value));
    },
    async touch(id) {
      const t = new Date();
      await fsp.utimes(folder(id), t, t).catch(() => undefined);
    },
    async dropChunks(id) {
      running.delete(id);
      for (const n of await this.held(id)) await fsp.rm(marker(id, n), { force: true });
      await fsp.rm(partFile(id), { force: true });
    },
    async drop(id) {
      running.delete(id);
      await fsp.rm(folder(id), { recursive: true, force: true });
    },
    async list() {
      const out: { id: string; touchedAt: number }[] = [];
      for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
        if (!ID_RE.test(name)) continue;
        const st = await fsp.stat(path.join(dir, name)).catch(() => null);
        if (st?.isDirectory()) out.push({ id: name, touchedAt: st.mtimeMs });
      }
      return out;
    },
  };
}
