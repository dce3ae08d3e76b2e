import type { Readable } from 'node:stream';
import {
  ATTACH_CHUNK_BYTES,
  type AttachChunkAnswer,
  type AttachChunkFields,
} from '../../../shared/api/attach';
import type { Db } from '../../db/index';
import { invalid } from '../../errors';
import type { SessionUser } from '../auth/auth.service';
import { type ChunkLayout, type ChunkStore, createLocalChunkStore } from '../../storage/chunks';
import { lockPerson } from '../drive/drive.repo';
import { createKeyedLock, type KeyedLock } from '../drive/keyed-lock';
import type { AttachService } from './attach.service';

/** Partial uploads untouched this long are removed (the contract's "a day"). */
export const CHUNK_STALE_MS = 24 * 3600_000;

export const CHUNK_MSG = {
  count: '分片数量与文件大小不符，请重新上传',
  range: '分片序号超出范围，请重新上传',
  size: (n: number, want: number, got: number) =>
    `第 ${n} 个分片大小不正确（应为 ${want} 字节，收到 ${got} 字节），请重新上传该分片`,
  missing: (ns: number[]) =>
    `还缺少第 ${ns.slice(0, 10).join('、')}${ns.length > 10 ? ' 等' : ''} 个分片，请补传后再提交最后一个分片`,
  otherFile: '该上传标识已用于另一个文件，请重新上传',
  gone: '附件不存在或已失效，请重新上传',
  tooMany: (max: number) => `未完成的附件上传已有 ${max} 个，达到上限；请先完成或取消部分上传后再试`,
} as const;

type Meta = Pick<AttachChunkFields, 'tableName' | 'fileName' | 'totalSize' | 'totalChunks'>;

/** The bytes chunk `n` of an upload must have. */
export function chunkBytes(totalSize: number, totalChunks: number, n: number): number {
  return n < totalChunks ? ATTACH_CHUNK_BYTES : totalSize - (totalChunks - 1) * ATTACH_CHUNK_BYTES;
}

/**
 * Resumable chunked attachment uploads (attach/chunk; the protocol is in shared/api/attach.ts).
 * The upload's bytes and notes live in a chunk store under the id `<userId>-<uploadId>`
 * (DATA_DIR/attach-chunks/<id>/, or the object store, where any instance may take any chunk):
 * the note `meta` (what the first chunk declared), one object per held chunk (stored whole or
 * not at all), and the note `done` once assembled. The id is built from the user's id and an
 * uploadId matching a strict pattern, never from a file name, so no client string reaches a
 * path or key, and one person's uploadId never meets another's. One lock per upload serialises
 * its chunks, so a retry racing its original writes once and assembles once.
 *
 * Held room (issue 16 §1): the first chunk of an upload records it in `attach_upload` with its
 * declared size, checked against the person's attachment budget (attach.service assertBudget)
 * and a count of open uploads, before any byte is written. Assembly turns it into the
 * attachment's row in one transaction; cancel and the sweep release it.
 */
export function createChunkUploads(opts: {
  db: Db;
  /** DATA_DIR/attach-chunks, unless `chunks` names another place. */
  dir: string;
  chunks?: ChunkStore;
  attach: AttachService;
  now?: () => number;
  /** Unfinished chunk uploads one person may hold (ATTACH_OPEN_MAX; default 20). */
  openMax?: number;
  /** One upload's chunks at a time; in-process unless given (Redis, every instance). */
  lock?: KeyedLock;
}) {
  const { db, attach } = opts;
  const openMax = opts.openMax ?? 20;
  const now = opts.now ?? Date.now;
  const withLock: KeyedLock = opts.lock ?? createKeyedLock();
  const chunks = opts.chunks ?? createLocalChunkStore(opts.dir, attach.store);

  const idOf = (user: SessionUser, uploadId: string) => `${user.id}-${uploadId}`;
  const layoutOf = (meta: Meta): ChunkLayout => ({
    chunkSize: ATTACH_CHUNK_BYTES,
    totalChunks: meta.totalChunks,
    totalSize: meta.totalSize,
  });

  async function held(id: string, total: number): Promise<number[]> {
    return (await chunks.held(id)).filter((n) => n <= total);
  }

  function check(f: AttachChunkFields) {
    if (f.totalChunks !== Math.max(1, Math.ceil(f.totalSize / ATTACH_CHUNK_BYTES)))
      throw invalid(CHUNK_MSG.count);
    if (f.chunkNumber > f.totalChunks) throw invalid(CHUNK_MSG.range);
  }

  /**
   * Holds the upload's declared size for its person, or refreshes its time. The count, the
   * budget check and the insert are one transaction under the person's lock.
   */
  async function hold(user: SessionUser, f: AttachChunkFields) {
    const t = now();
    const touched = await db
      .updateTable('attach_upload')
      .set({ updated_at: t })
      .where('user_id', '=', user.id)
      .where('upload_id', '=', f.uploadId)
      .executeTakeFirst();
    if (Number(touched.numUpdatedRows) > 0) return;
    await db.transaction().execute(async (trx) => {
      await lockPerson(trx, user.id);
      const open = await trx
        .selectFrom('attach_upload')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      if (Number(open.n) >= openMax) throw invalid(CHUNK_MSG.tooMany(openMax));
      await attach.assertBudget(trx, user.id, f.totalSize, f.uploadId);
      await trx
        .insertInto('attach_upload')
        .values({
          user_id: user.id,
          upload_id: f.uploadId,
          total_size: f.totalSize,
          created_at: t,
          updated_at: t,
        })
        .execute();
    });
  }

  /** Releases an upload's held room and its chunks (under the upload's lock). */
  async function release(user: SessionUser, uploadId: string) {
    await db
      .deleteFrom('attach_upload')
      .where('user_id', '=', user.id)
      .where('upload_id', '=', uploadId)
      .execute();
    await chunks.drop(idOf(user, uploadId));
  }

  async function assemble(
    user: SessionUser,
    id: string,
    meta: Meta,
    uploadId: string,
  ): Promise<AttachChunkAnswer> {
    // Hashed by the server while assembling; an attachment has no claimed MD5 to check against.
    const staged = await chunks.assemble(id, layoutOf(meta));
    try {
      const att = await attach.keep(
        user,
        { staged, head: Buffer.alloc(0) },
        { table: meta.tableName, name: meta.fileName, image: false, uploadId },
      );
      await chunks.writeNote(id, 'done', { attId: att.attId });
      // The chunks are no longer needed; the done note stays (a repeated last chunk) until the sweep.
      await chunks.dropChunks(id);
      return { done: true, uploaded: range(meta.totalChunks), attachment: att };
    } finally {
      await staged.discard();
    }
  }

  async function finished(user: SessionUser, id: string, meta: Meta): Promise<AttachChunkAnswer | null> {
    const done = await chunks.readNote<{ attId: number }>(id, 'done');
    if (!done) return null;
    const att = await attach.ownAttachment(user, done.attId);
    if (!att) throw invalid(CHUNK_MSG.gone);
    return { done: true, uploaded: range(meta.totalChunks), attachment: att };
  }

  return {
    /** GET attach/chunk: the chunks held for this upload ([] for an unknown one). */
    async status(user: SessionUser, uploadId: string): Promise<AttachChunkAnswer> {
      const id = idOf(user, uploadId);
      const meta = await chunks.readNote<Meta>(id, 'meta');
      if (!meta) return { done: false, uploaded: [] };
      return (await finished(user, id, meta)) ?? { done: false, uploaded: await held(id, meta.totalChunks) };
    },

    /**
     * One chunk from `body` (the multipart file stream). The stream is always consumed, also
     * when the chunk is refused or already held.
     */
    async chunk(user: SessionUser, f: AttachChunkFields, body: Readable): Promise<AttachChunkAnswer> {
      const drain = () => void body.resume();
      try {
        check(f);
      } catch (err) {
        drain();
        throw err;
      }
      const id = idOf(user, f.uploadId);
      return withLock(id, async () => {
        const meta: Meta = {
          tableName: f.tableName,
          fileName: f.fileName,
          totalSize: f.totalSize,
          totalChunks: f.totalChunks,
        };
        const known = await chunks.readNote<Meta>(id, 'meta');
        if (known && JSON.stringify(known) !== JSON.stringify(meta)) {
          drain();
          throw invalid(CHUNK_MSG.otherFile);
        }
        const done = await finished(user, id, meta);
        if (done) {
          drain();
          return done;
        }
        const want = chunkBytes(f.totalSize, f.totalChunks, f.chunkNumber);
        if ((await chunks.held(id)).includes(f.chunkNumber)) {
          drain();
        } else {
          // Room first, bytes second: a refused chunk writes nothing.
          try {
            await hold(user, f);
          } catch (err) {
            drain();
            throw err;
          }
          try {
            await chunks.write(id, f.chunkNumber, body, want, layoutOf(meta), (got) =>
              invalid(CHUNK_MSG.size(f.chunkNumber, want, got)),
            );
          } catch (err) {
            drain();
            // The first chunk refused: nothing of the upload is held, so neither is its room.
            if (!known) await release(user, f.uploadId);
            throw err;
          }
          // The description is fixed by the first chunk that was stored, not by a refused one.
          if (!known) await chunks.writeNote(id, 'meta', meta);
        }
        // The sweep measures staleness by the upload's last activity.
        await chunks.touch(id);
        const uploaded = await held(id, f.totalChunks);
        if (f.chunkNumber !== f.totalChunks) return { done: false, uploaded };
        const missing = range(f.totalChunks).filter((n) => !uploaded.includes(n));
        if (missing.length) throw invalid(CHUNK_MSG.missing(missing));
        return assemble(user, id, meta, f.uploadId);
      });
    },

    /**
     * DELETE attach/chunk?uploadId=: drops the caller's own unfinished upload at once (its
     * chunks and held room); an assembled one is left (its attachment is deleted on its own).
     * Answers whether one was dropped, so repeating it is harmless.
     */
    async cancel(user: SessionUser, uploadId: string): Promise<{ cancelled: boolean }> {
      const id = idOf(user, uploadId);
      return withLock(id, async () => {
        if (await chunks.readNote(id, 'done')) return { cancelled: false };
        const row = await db
          .selectFrom('attach_upload')
          .select('upload_id')
          .where('user_id', '=', user.id)
          .where('upload_id', '=', uploadId)
          .executeTakeFirst();
        const existed =
          Boolean(row) || (await chunks.readNote(id, 'meta')) !== null || (await chunks.held(id)).length > 0;
        await release(user, uploadId);
        return { cancelled: existed };
      });
    },

    /** Removes uploads untouched for CHUNK_STALE_MS (finished or not), and their held room. */
    async sweep() {
      const before = now() - CHUNK_STALE_MS;
      await db.deleteFrom('attach_upload').where('updated_at', '<', before).execute();
      for (const { id, touchedAt } of await chunks.list()) {
        if (touchedAt < before) await withLock(id, () => chunks.drop(id));
      }
    },
  };
}
export type ChunkUploads = ReturnType<typeof createChunkUploads>;

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
