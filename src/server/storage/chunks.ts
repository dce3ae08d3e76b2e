import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
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

/**
 * The embedded default: `<dir>/<id>/<n>` per chunk (written to a temporary name and renamed, so
 * a file that exists is whole), `<dir>/<id>/<name>.json` per note. Assembling streams the chunk
 * files in order through the target store's hashing stage: memory stays one read buffer.
 */
export function createLocalChunkStore(dir: string, target: BlobStore): ChunkStore {
  fs.mkdirSync(dir, { recursive: true });
  const folder = (id: string) => path.join(dir, checkUploadId(id));
  const chunkFile = (id: string, n: number) => path.join(folder(id), String(n));
  const noteFile = (id: string, name: string) => path.join(folder(id), `${checkNoteName(name)}.json`);

  return {
    async write(id, n, body, size, _layout, wrongSize) {
      await fsp.mkdir(folder(id), { recursive: true });
      const tmp = path.join(folder(id), `${n}.${randomUUID()}.tmp`);
      const { meter, received } = exactly(size, wrongSize);
      try {
        await pipeline(body, meter, fs.createWriteStream(tmp, { flags: 'wx' }));
        // A multipart file part cut at its limit ends normally, flagged truncated.
        if ((body as Readable & { truncated?: boolean }).truncated) throw wrongSize(received());
        await fsp.rename(tmp, chunkFile(id, n));
      } catch (err) {
        await fsp.rm(tmp, { force: true });
        throw err;
      }
    },
    async held(id) {
      const names = await fsp.readdir(folder(id)).catch(() => [] as string[]);
      return names
        .filter((n) => /^[1-9]\d*$/.test(n))
        .map(Number)
        .sort((a, b) => a - b);
    },
    assemble(id, layout) {
      async function* all() {
        for (let n = 1; n <= layout.totalChunks; n++) yield* fs.createReadStream(chunkFile(id, n));
      }
      return target.stage(Readable.from(all()), { maxBytes: layout.totalSize });
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
      for (const n of await this.held(id)) await fsp.rm(chunkFile(id, n), { force: true });
    },
    async drop(id) {
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
