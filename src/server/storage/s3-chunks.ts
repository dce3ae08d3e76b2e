import { randomUUID } from 'node:crypto';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createMD5 } from 'hash-wasm';
import type { Locks } from '../cluster/locks';
import { isBlobKey, type StagedBlob } from './blob-store';
import {
  type ChunkLayout,
  type ChunkStore,
  ChunksGoneError,
  checkNoteName,
  checkUploadId,
  exactly,
} from './chunks';
import { isNotFound, PART_MIN_BYTES, type S3Bucket } from './s3';
import { dropStaged, S3_TMP } from './s3-blob-store';

/*
 * Unfinished uploads in the object store (README "Scale-out": unfinished uploads). Any
 * instance may receive any chunk; every chunk becomes an object, `<area>/<id>/<n>`, so nothing
 * of an upload lives on one instance's disk.
 *
 * Assembly is progressive, so completion does not read the file back. Chunks are grouped into
 * parts of at least 5 MiB (S3's smallest part but the last: five 1 MiB drive chunks, three
 * 2,048,000-byte attachment chunks). As soon as a group's chunks are all held and every group
 * before it is done, the instance that stored the chunk, under the upload's lock, reads the
 * group's chunks back once, feeds them through the upload's running MD5 and sends them on as one
 * part of a multipart upload; then it deletes the chunk objects. The MD5's internal state
 * (hash-wasm's save/load, a few hundred bytes) is kept in `<area>/<id>/state.json` with the
 * parts, so the next group may be folded in by another instance. When the last chunk lands,
 * at most one group is left to fold (about 5 MiB); the MD5 is then final, and the file is
 * committed by CompleteMultipartUpload, which the store does without sending a byte back.
 *
 * The MD5 stays the server's own: every byte of the file passes through the running hash on
 * its way into a part, in order; the client's claimed MD5 only picks the multipart's key. When
 * it names a blob key (the drive's `identifier`), the parts are assembled directly under that
 * key, invisible until completion; completion happens only after the caller has compared the
 * server's MD5 with the claim (drive.service addFile), and a mismatch aborts instead. Without a
 * claim (attachments), the parts assemble under `tmp/` and the commit copies inside the store.
 *
 * An upload of one group (files up to about 5 MiB) skips the multipart: the chunks are read and
 * hashed once at completion into one PUT.
 */

export const STATE = 'state';

interface State {
  v: 1;
  layout: Omit<ChunkLayout, 'md5'>;
  /** The multipart's key (relative) and id, once the first group was sent. */
  key: string | null;
  uploadId: string | null;
  /** Chunks folded into the hash and into parts: 1..hashed. */
  hashed: number;
  /** hash-wasm MD5 state after chunk `hashed`, base64; null before the first. */
  hash: string | null;
  bytes: number;
  parts: { n: number; etag: string }[];
  completed: boolean;
}

const sameLayout = (a: State['layout'], b: ChunkLayout) =>
  a.chunkSize === b.chunkSize && a.totalChunks === b.totalChunks && a.totalSize === b.totalSize;

/** Chunks per part: enough to reach S3's smallest part. */
export function groupSize(chunkSize: number): number {
  return Math.max(1, Math.ceil(PART_MIN_BYTES / chunkSize));
}

export function createS3ChunkStore(opts: {
  bucket: S3Bucket;
  /** The key prefix of this kind of upload ('uploads', 'attach-chunks'): ids of two kinds never meet. */
  area: string;
  /** The target blob store's key of an MD5 (where an assembled file is committed). */
  blobKey: (md5: string) => string;
  locks: Locks;
  /** Told when folding a group failed (the completion folds it again). */
  onError?: (id: string, err: unknown) => void;
}): ChunkStore {
  const { bucket, blobKey, locks } = opts;
  const base = (id: string) => `${opts.area}/${checkUploadId(id)}/`;
  const chunkRel = (id: string, n: number) => `${base(id)}${n}`;
  const noteRel = (id: string, name: string) => `${base(id)}${checkNoteName(name)}.json`;

  async function readJson<T>(rel: string): Promise<T | null> {
    const parts: Buffer[] = [];
    try {
      for await (const c of bucket.get(rel)) parts.push(c as Buffer);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
    return JSON.parse(Buffer.concat(parts).toString('utf8')) as T;
  }
  const writeJson = (rel: string, value: unknown) => bucket.put(rel, Buffer.from(JSON.stringify(value)));

  async function listed(id: string): Promise<Set<number>> {
    const out = new Set<number>();
    for await (const o of bucket.list(base(id))) {
      const name = o.key.slice(base(id).length);
      if (/^[1-9]\d*$/.test(name)) out.add(Number(name));
    }
    return out;
  }

  const sizeOf = (l: State['layout'], n: number) =>
    n < l.totalChunks ? l.chunkSize : l.totalSize - (l.totalChunks - 1) * l.chunkSize;

  /** Chunks from..to, in order, as one stream (one object open at a time). */
  function joined(id: string, from: number, to: number): Readable {
    async function* all() {
      for (let n = from; n <= to; n++) yield* bucket.get(chunkRel(id, n));
    }
    return Readable.from(all(), { objectMode: false });
  }

  async function hasherOf(state: State) {
    const h = await createMD5();
    if (state.hash) h.load(Buffer.from(state.hash, 'base64'));
    else h.init();
    return h;
  }

  async function loadState(id: string, layout: ChunkLayout): Promise<State> {
    const s = await readJson<State>(`${base(id)}${STATE}.json`);
    if (s) {
      if (!sameLayout(s.layout, layout)) throw new Error('chunk layout changed under an upload id');
      return s;
    }
    return {
      v: 1,
      layout: { chunkSize: layout.chunkSize, totalChunks: layout.totalChunks, totalSize: layout.totalSize },
      key: null,
      uploadId: null,
      hashed: 0,
      hash: null,
      bytes: 0,
      parts: [],
      completed: false,
    };
  }
  const saveState = (id: string, s: State) => writeJson(`${base(id)}${STATE}.json`, s);

  /**
   * Under the upload's lock: folds every group that is complete and next in order into the
   * hash and the multipart. Only for uploads of more than one group.
   */
  async function advance(id: string, layout: ChunkLayout): Promise<State> {
    const state = await loadState(id, layout);
    const g = groupSize(layout.chunkSize);
    if (layout.totalChunks <= g || state.completed) return state;
    let present: Set<number> | null = null;
    for (;;) {
      const from = state.hashed + 1;
      if (from > layout.totalChunks) return state;
      const to = Math.min(from + g - 1, layout.totalChunks);
      present ??= await listed(id);
      for (let n = from; n <= to; n++) if (!present.has(n)) return state;
      if (!state.uploadId) {
        const claimed = layout.md5 && isBlobKey(layout.md5) ? blobKey(layout.md5) : null;
        state.key = claimed ?? `${S3_TMP}${randomUUID()}`;
        state.uploadId = await bucket.multipart.create(state.key);
        // Recorded before any part, so a drop after a crash aborts it.
        await saveState(id, state);
      }
      const hasher = await hasherOf(state);
      let bytes = 0;
      const tap = new Transform({
        transform(c: Buffer, _e, cb) {
          hasher.update(c);
          bytes += c.length;
          cb(null, c);
        },
      });
      let length = 0;
      for (let n = from; n <= to; n++) length += sizeOf(state.layout, n);
      const source = joined(id, from, to);
      source.once('error', (err) => tap.destroy(err));
      const partNo = Math.floor((from - 1) / g) + 1;
      const etag = await bucket.multipart.part(state.key!, state.uploadId, partNo, source.pipe(tap), length);
      if (bytes !== length)
        throw new Error(`part ${partNo} of ${id}: ${bytes} bytes read, ${length} expected`);
      state.parts = [...state.parts.filter((p) => p.n !== partNo), { n: partNo, etag }];
      state.hashed = to;
      state.hash = Buffer.from(hasher.save()).toString('base64');
      state.bytes += bytes;
      await saveState(id, state);
      // Only after the state names the part: a crash before this leaves chunks that fold again.
      const done: string[] = [];
      for (let n = from; n <= to; n++) done.push(chunkRel(id, n));
      await bucket.remove(done);
      for (let n = from; n <= to; n++) present.delete(n);
    }
  }

  const lockKey = (id: string) => `chunks:${opts.area}:${id}`;

  /** An upload of one group: read its chunks once, hashed, into one PUT under tmp/. */
  async function assembleSmall(id: string, layout: ChunkLayout): Promise<StagedBlob> {
    const hasher = await createMD5();
    hasher.init();
    let bytes = 0;
    const tap = new Transform({
      transform(c: Buffer, _e, cb) {
        hasher.update(c);
        bytes += c.length;
        cb(null, c);
      },
    });
    const tmp = `${S3_TMP}${randomUUID()}`;
    const source = joined(id, 1, layout.totalChunks);
    source.once('error', (err) => tap.destroy(err));
    await bucket.put(tmp, source.pipe(tap), layout.totalSize);
    if (bytes !== layout.totalSize) {
      await dropStaged(bucket, tmp);
      throw new Error(`upload ${id}: ${bytes} bytes assembled, ${layout.totalSize} expected`);
    }
    const md5 = hasher.digest('hex');
    let done = false;
    return {
      md5,
      size: bytes,
      async commit() {
        if (!(await bucket.head(blobKey(md5)))) await bucket.copy(tmp, blobKey(md5), bytes);
        done = true;
        await dropStaged(bucket, tmp);
      },
      async discard() {
        if (!done) await dropStaged(bucket, tmp);
        done = true;
      },
    };
  }

  return {
    async write(id, n, body, size, layout, wrongSize) {
      // A chunk (at most 4 MiB, CHUNK_BODY_LIMIT) is received whole before it is sent on: the
      // PUT then never carries part of a chunk (a store may keep what an aborted request sent,
      // as s3rver does), and the SDK can retry it. Memory is bounded by the chunk, not the file.
      const { meter, received } = exactly(size, wrongSize);
      const parts: Buffer[] = [];
      await pipeline(
        body,
        meter,
        new Writable({
          write(c: Buffer, _e, cb) {
            parts.push(c);
            cb();
          },
        }),
      );
      if ((body as Readable & { truncated?: boolean }).truncated) throw wrongSize(received());
      await bucket.put(chunkRel(id, n), Buffer.concat(parts, size));
      if (layout.totalChunks <= groupSize(layout.chunkSize)) return;
      // Fold what can be folded now; a failure here is repaired by the next chunk or at completion.
      try {
        await locks.with(lockKey(id), () => advance(id, layout));
      } catch (err) {
        opts.onError?.(id, err);
      }
    },

    async held(id) {
      const state = await readJson<State>(`${base(id)}${STATE}.json`);
      const out = await listed(id);
      for (let n = 1; n <= (state?.hashed ?? 0); n++) out.add(n);
      return [...out].sort((a, b) => a - b);
    },

    async assemble(id, layout) {
      if (layout.totalChunks <= groupSize(layout.chunkSize)) return assembleSmall(id, layout);
      return locks.with(lockKey(id), async () => {
        const state = await advance(id, layout);
        if (state.completed) {
          // Committed before, but the completion failed afterwards: the bytes may still be
          // under their key (checked again at commit, under the caller's blob lock).
          const md5 = (await hasherOf(state)).digest('hex');
          const gone = async () => {
            if (!(await bucket.head(blobKey(md5)))) throw new ChunksGoneError(id);
          };
          await gone();
          return { md5, size: state.bytes, commit: gone, discard: async () => undefined };
        }
        if (state.hashed < layout.totalChunks || !state.uploadId || !state.key) {
          throw new Error(`upload ${id}: chunks ${state.hashed + 1}… are not held`);
        }
        const md5 = (await hasherOf(state)).digest('hex');
        const { key, uploadId, bytes } = state;
        return {
          md5,
          size: bytes,
          async commit() {
            await locks.with(lockKey(id), async () => {
              await bucket.multipart.complete(key, uploadId, state.parts);
              state.completed = true;
              await saveState(id, state);
              if (key !== blobKey(md5)) {
                if (!(await bucket.head(blobKey(md5)))) await bucket.copy(key, blobKey(md5), bytes);
                await dropStaged(bucket, key);
              }
            });
          },
          // Nothing to undo: the parts stay until the upload is dropped, so a refused
          // completion (quota, a name taken meanwhile) can be retried with the same chunks.
          async discard() {},
        };
      });
    },

    readNote: (id, name) => readJson(noteRel(id, name)),
    writeNote: (id, name, value) => writeJson(noteRel(id, name), value),
    touch: (id) => bucket.put(`${base(id)}touched`, Buffer.alloc(0)),

    async dropChunks(id) {
      const state = await readJson<State>(`${base(id)}${STATE}.json`);
      if (state?.uploadId && state.key && !state.completed)
        await bucket.multipart.abort(state.key, state.uploadId);
      const rels: string[] = [];
      for await (const o of bucket.list(base(id))) {
        const name = o.key.slice(base(id).length);
        if (/^[1-9]\d*$/.test(name) || name === `${STATE}.json`) rels.push(o.key);
      }
      await bucket.remove(rels);
    },

    async drop(id) {
      const state = await readJson<State>(`${base(id)}${STATE}.json`);
      if (state?.uploadId && state.key && !state.completed)
        await bucket.multipart.abort(state.key, state.uploadId);
      await bucket.removePrefix(base(id));
    },

    async list() {
      const latest = new Map<string, number>();
      for await (const o of bucket.list(`${opts.area}/`)) {
        const id = o.key.slice(opts.area.length + 1).split('/')[0];
        if (id) latest.set(id, Math.max(latest.get(id) ?? 0, o.modified));
      }
      return [...latest].map(([id, touchedAt]) => ({ id, touchedAt }));
    },
  };
}
