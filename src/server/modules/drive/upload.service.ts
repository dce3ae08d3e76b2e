import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  CHUNK_MAX_BYTES,
  CHUNK_MIN_BYTES,
  PROOF_RANGE_BYTES,
  UPLOAD_MAX_BYTES,
  UPLOAD_TOO_LARGE,
  type UploadAnswer,
  type UploadKey,
  type UploadParams,
} from '../../../shared/api/upload';
import { folderPath, nameProblem, pathProblem } from '../../../shared/drive/names';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/index';
import { queryTemplate } from '../../db/query-template';
import type { UploadSessionTable } from '../../db/schema';
import { formatSize } from '../../../shared/drive/file-types';
import { AppError, invalid } from '../../errors';
import { type BlobStore, BlobTooLargeError } from '../../storage/blob-store';
import {
  type ChunkLayout,
  type ChunkStore,
  ChunksGoneError,
  createLocalChunkStore,
} from '../../storage/chunks';
import { personalSpace, type Area } from './area';
import { lockPerson, IS_LIVE } from './drive.repo';
import { CHECK_FAILED, type DriveService } from './drive.service';
import { createKeyedLock, type KeyedLock } from './keyed-lock';

type Session = Selectable<UploadSessionTable>;

type NoShape = Record<string, never>;
const NO_SHAPE: NoShape = {};

/*
 * The statements every chunk runs, compiled once per database (query-template.ts, issue 25):
 * Kysely built and compiled them at each chunk, about 1.3 ms of a chunk's sampled server time
 * in the upload bench's profile (BENCH_PROFILE=server).
 */
/** The columns that name an upload (its unique key). */
type SessionKey = Pick<
  UploadSessionTable,
  'user_id' | 'space' | 'identifier' | 'file_path' | 'relative_path' | 'filename'
>;
const sessionByKey = queryTemplate((db, _shape: NoShape, k: SessionKey) =>
  db
    .selectFrom('upload_session')
    .selectAll()
    .where('user_id', '=', k.user_id)
    .where('space', '=', k.space)
    .where('identifier', '=', k.identifier)
    .where('file_path', '=', k.file_path)
    .where('relative_path', '=', k.relative_path)
    .where('filename', '=', k.filename),
);
const chunkHeld = queryTemplate((db, _shape: NoShape, v: { id: string; n: number }) =>
  db
    .selectFrom('upload_chunk')
    .select('chunk_number')
    .where('session_id', '=', v.id)
    .where('chunk_number', '=', v.n),
);
const recordChunk = queryTemplate((db, _shape: NoShape, v: { id: string; n: number; size: number }) =>
  db
    .insertInto('upload_chunk')
    .values({ session_id: v.id, chunk_number: v.n, size: v.size })
    .onConflict((oc) => oc.columns(['session_id', 'chunk_number']).doNothing()),
);
const chunkNumbers = queryTemplate((db, _shape: NoShape, v: { id: string }) =>
  db.selectFrom('upload_chunk').select('chunk_number').where('session_id', '=', v.id).orderBy('chunk_number'),
);
const sessionDone = queryTemplate((db, _shape: NoShape, v: { id: string }) =>
  db.selectFrom('upload_session').select('done_user_file_id').where('id', '=', v.id),
);

export interface UploadServiceDeps {
  db: Db;
  drive: DriveService;
  /** Read for proofs of possession. */
  store: BlobStore;
  /**
   * Where received chunks wait: DATA_DIR/uploads, one folder per session and one file per chunk,
   * unless `chunks` names another place (the object store, shared by every instance).
   */
  dir: string;
  chunks?: ChunkStore;
  /** One completion per session at a time; in-process unless given (Redis, every instance). */
  sessionLock?: KeyedLock;
  /** How long an unfinished session is kept after its last activity. */
  sessionMs: number;
  /**
   * What one person's unfinished uploads may hold: sessions open at once, and bytes held in
   * the areas without a quota (libraries, projects). Defaults: 50 and 2 GiB.
   */
  limits?: { openMax: number; sharedBytes: number };
}

/** The refusals of the holding rules (issue 16 §1), named so tests and README quote them. */
export const PENDING_MSG = {
  tooMany: (max: number) => `未完成的上传已有 ${max} 个，达到上限；请先完成或取消部分上传后再试`,
  sharedFull: (left: number, need: number) =>
    `未完成的上传占用过多：资料库和项目文档中还可占用 ${formatSize(left)}，本次上传需要 ${formatSize(need)}；请先完成或取消其他上传`,
} as const;

/** Where a validated upload goes: the folder (relativePath's folders included) and the name. */
interface Target {
  filePath: string;
  fullName: string;
}

/**
 * Chunked, resumable uploads (issue 4, simple-uploader.js protocol). Sessions and received
 * chunk numbers live in the database, chunk bytes in the chunk store (`dir/<session id>/<n>`,
 * or the object store, where any instance may take any chunk); both survive a restart, so a
 * client resumes from the `uploaded` list. A chunk is stored whole or not at all, and recorded
 * once, so sending it twice changes nothing. When the last missing chunk arrives the chunk
 * store assembles the file, hashing every byte in order (locally by streaming the chunks
 * through the blob store's hashing stage; in the object store progressively, as the chunks
 * arrive: storage/s3-chunks.ts); the server's MD5 must equal `identifier` and the size
 * `totalSize`, else nothing is stored. The file
 * row and the session's "done" mark are written in one transaction, so a repeated last chunk or
 * a crash at any instant never creates a second file: before the commit the chunks are still
 * there and the next chunk request completes again; after it the session answers "done".
 *
 * Instant upload: `skipUpload` is granted only when the caller's own area already holds live
 * content with that MD5 and size. An MD5 that only matches someone else's content gets nothing:
 * the client uploads, and storage is still shared (deduplicated) once the bytes are verified.
 *
 * Proof of possession, for that case (knowing an MD5 must not give anyone a copy of content they
 * never had): when the claimed MD5 and size match a stored blob that is not in the caller's
 * area, the test answer carries `challenge: {nonce, start, end}`: 16 random bytes as hex and a
 * random range of at most 64 KiB inside the file, stored on the session. The client repeats the
 * test request with `proof` = md5(nonce as UTF-8 + bytes start..end inclusive); the server hashes
 * the same over the stored blob, and a match creates the entry at once (`skipUpload`). Every test
 * request without a correct proof replaces the challenge, so an answer is good for one
 * challenge only and a guess never gets a second try at the same range. Only someone holding the
 * bytes of a random range can answer; the MD5 alone is worth nothing. A client that cannot
 * answer uploads the chunks, and the verified bytes are still stored once (dedup).
 */
export function createUploadService({
  db,
  drive,
  store,
  dir,
  sessionMs,
  limits = { openMax: 50, sharedBytes: 2 * 1024 ** 3 },
  chunks = createLocalChunkStore(dir, store),
  sessionLock,
}: UploadServiceDeps) {
  const withSessionLock: KeyedLock = sessionLock ?? createKeyedLock();
  /**
   * How fresh a session's updated_at is kept while its chunks arrive. The sweep gives a session
   * hours (UPLOAD_SESSION_HOURS) before it counts as abandoned, so the time is written when it is
   * older than this, not at every chunk: one write statement fewer for most chunks (issue 25).
   */
  const touchEveryMs = Math.min(30_000, sessionMs / 10);

  const layoutOf = (s: Session): ChunkLayout => ({
    chunkSize: s.chunk_size,
    totalChunks: s.total_chunks,
    totalSize: Number(s.total_size),
    md5: s.identifier,
  });

  /** Checks sizes, chunk numbers and names; answers where the file goes. */
  function validate(p: UploadParams): Target {
    if (p.totalSize > UPLOAD_MAX_BYTES) throw invalid(UPLOAD_TOO_LARGE);
    if (p.chunkSize < CHUNK_MIN_BYTES || p.chunkSize > CHUNK_MAX_BYTES) throw invalid('分片大小不正确');
    // simple-uploader folds the remainder into the last chunk (floor) unless forceChunkSize (ceil).
    const floor = Math.max(1, Math.floor(p.totalSize / p.chunkSize));
    const ceil = Math.max(1, Math.ceil(p.totalSize / p.chunkSize));
    if (p.totalChunks !== floor && p.totalChunks !== ceil) throw invalid('分片数量与文件大小不符');
    if (p.chunkNumber > p.totalChunks) throw invalid('分片序号超出范围');
    const nameErr = nameProblem(p.filename, '文件名称');
    if (nameErr) throw invalid(nameErr);
    const pathErr = pathProblem(p.filePath);
    if (pathErr) throw invalid(pathErr);
    // relativePath is "a/b/name.ext" for a file picked inside a folder, or just the name.
    const folders = p.relativePath.split('/').filter(Boolean).slice(0, -1);
    let filePath = p.filePath;
    for (const seg of folders) {
      const segErr = nameProblem(seg, '文件夹名称');
      if (segErr) throw invalid(segErr);
      filePath = folderPath(filePath, seg);
    }
    const targetErr = pathProblem(filePath);
    if (targetErr) throw invalid(targetErr);
    return { filePath, fullName: p.filename };
  }

  /** The bytes chunk `n` must have. */
  function expectedSize(p: Pick<UploadParams, 'chunkSize' | 'totalChunks' | 'totalSize'>, n: number) {
    return n < p.totalChunks ? p.chunkSize : p.totalSize - (p.totalChunks - 1) * p.chunkSize;
  }

  function keyOf(area: Area, p: UploadKey): SessionKey {
    return {
      user_id: area.userId,
      space: area.space,
      identifier: p.identifier,
      file_path: p.filePath,
      relative_path: p.relativePath,
      filename: p.filename,
    };
  }

  async function findSession(area: Area, p: UploadKey): Promise<Session | undefined> {
    return (await sessionByKey(db, NO_SHAPE, keyOf(area, p)))[0];
  }

  async function dropSession(id: string) {
    await db.deleteFrom('upload_session').where('id', '=', id).execute();
    await chunks.drop(id);
  }

  /** The caller's session for this upload, created when missing; a changed layout starts over. */
  async function openSession(area: Area, p: UploadParams): Promise<Session> {
    const existing = await findSession(area, p);
    if (
      existing &&
      (Number(existing.total_size) !== p.totalSize ||
        existing.total_chunks !== p.totalChunks ||
        existing.chunk_size !== p.chunkSize)
    ) {
      await dropSession(existing.id);
    } else if (existing) {
      return existing;
    }
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      // A cap on open sessions, counted and inserted under the person's lock: each one is a
      // row and maybe a folder, and thousands of tiny ones must not be free.
      await lockPerson(trx, area.userId);
      const open = await trx
        .selectFrom('upload_session')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', area.userId)
        .where('done_user_file_id', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(open.n) >= limits.openMax) throw invalid(PENDING_MSG.tooMany(limits.openMax));
      await trx
        .insertInto('upload_session')
        .values({
          id: randomUUID(),
          ...keyOf(area, p),
          total_size: p.totalSize,
          total_chunks: p.totalChunks,
          chunk_size: p.chunkSize,
          done_user_file_id: null,
          proof_nonce: null,
          proof_start: null,
          proof_end: null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'space', 'identifier', 'file_path', 'relative_path', 'filename'])
            .doNothing(),
        )
        .execute();
    });
    return (await findSession(area, p))!;
  }

  /**
   * Refuses `bytes` more held in the areas without a quota (libraries, projects) beyond the
   * person's budget there: their bytes are the museum's, but an unfinished upload still fills
   * the disk, so it is bounded per person. `except`: the asking session.
   */
  async function assertSharedRoom(q: Db, area: Area, bytes: number, except?: string) {
    if (area.quotaUserId !== null || bytes <= 0) return;
    let sum = q
      .selectFrom('upload_session')
      .select((eb) => eb.fn.sum<number>('reserved_bytes').as('n'))
      .where('user_id', '=', area.userId)
      .where('space', '!=', personalSpace(area.userId))
      .where('done_user_file_id', 'is', null);
    if (except) sum = sum.where('id', '!=', except);
    const held = Number((await sum.executeTakeFirstOrThrow()).n ?? 0);
    if (held + bytes > limits.sharedBytes) {
      throw invalid(PENDING_MSG.sharedFull(Math.max(0, limits.sharedBytes - held), bytes));
    }
  }

  /**
   * Holds the session's declared size from its first chunk (issue 16 §1): against the quota
   * in the personal drive, against the per-person budget elsewhere. Declared, not received:
   * the room must exist before the bytes come, or a person could start many sessions that each
   * fit alone. The check and the hold are one transaction under the person's lock, so parallel
   * sessions never both take the same room; parallel chunks of one session hold it once.
   */
  async function reserve(area: Area, s: Session) {
    const size = Number(s.total_size);
    if (size <= 0 || Number(s.reserved_bytes) > 0) return;
    await db.transaction().execute(async (trx) => {
      await lockPerson(trx, area.userId);
      const cur = await trx
        .selectFrom('upload_session')
        .select(['reserved_bytes', 'done_user_file_id'])
        .where('id', '=', s.id)
        .executeTakeFirst();
      if (!cur) throw invalid('上传已失效，请重新上传');
      if (cur.done_user_file_id !== null || Number(cur.reserved_bytes) > 0) return;
      await drive.assertRoomIn(trx, area, size, s.id);
      await assertSharedRoom(trx, area, size, s.id);
      await trx.updateTable('upload_session').set({ reserved_bytes: size }).where('id', '=', s.id).execute();
    });
  }

  /**
   * Drops a session that holds neither room nor chunks (its first chunk was refused), so a
   * refusal leaves no row counting towards UPLOAD_OPEN_MAX. One conditional DELETE: a parallel
   * chunk that got the room meanwhile has set reserved_bytes, and its session stays.
   */
  async function forgetIfEmpty(id: string) {
    await db
      .deleteFrom('upload_session')
      .where('id', '=', id)
      .where('reserved_bytes', '=', 0)
      .where('done_user_file_id', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('upload_chunk').select('chunk_number').where('session_id', '=', id))),
      )
      .execute();
  }

  /** Inside the transaction that creates the file: the session's room becomes the file's. */
  const releaseOf = (id: string) => async (trx: Db) => {
    await trx.updateTable('upload_session').set({ reserved_bytes: 0 }).where('id', '=', id).execute();
  };

  /** The file a session was completed into (by this request or a parallel one), or null. */
  async function doneFileOf(id: string): Promise<number | null> {
    return (await sessionDone(db, NO_SHAPE, { id }))[0]?.done_user_file_id ?? null;
  }

  async function uploadedOf(id: string): Promise<number[]> {
    return (await chunkNumbers(db, NO_SHAPE, { id })).map((r) => r.chunk_number);
  }

  /** The file a done session created, while it is still live in the area. */
  async function liveResult(area: Area, s: Session): Promise<number | null> {
    if (s.done_user_file_id === null) return null;
    const row = await db
      .selectFrom('user_file')
      .select('id')
      .where('id', '=', s.done_user_file_id)
      .where('space', '=', area.space)
      .where('delete_flag', '=', IS_LIVE)
      .executeTakeFirst();
    return row ? row.id : null;
  }

  /** Whether the area already holds live content with these bytes (by the server's MD5). */
  async function ownsContent(area: Area, md5: string, size: number) {
    const row = await db
      .selectFrom('user_file')
      .innerJoin('blob', 'blob.id', 'user_file.blob_id')
      .select('user_file.id')
      .where('user_file.space', '=', area.space)
      .where('user_file.delete_flag', '=', IS_LIVE)
      .where('blob.md5', '=', md5)
      .where('blob.size', '=', size)
      .executeTakeFirst();
    return Boolean(row);
  }

  /** A stored blob with these bytes anywhere on the server. */
  async function blobExists(md5: string, size: number) {
    const row = await db
      .selectFrom('blob')
      .select('id')
      .where('md5', '=', md5)
      .where('size', '=', size)
      .executeTakeFirst();
    return Boolean(row);
  }

  /** A fresh challenge on the session: a nonce and a random range of the file. */
  async function challenge(s: Session, size: number) {
    const len = Math.min(PROOF_RANGE_BYTES, size);
    const start = randomInt(0, size - len + 1);
    const c = { nonce: randomBytes(16).toString('hex'), start, end: start + len - 1 };
    await db
      .updateTable('upload_session')
      .set({ proof_nonce: c.nonce, proof_start: c.start, proof_end: c.end, updated_at: Date.now() })
      .where('id', '=', s.id)
      .execute();
    return c;
  }

  /** Whether `proof` answers the session's open challenge over the stored blob. */
  async function proofHolds(s: Session, proof: string) {
    if (s.proof_nonce === null || s.proof_start === null || s.proof_end === null) return false;
    const hash = createHash('md5').update(s.proof_nonce, 'utf8');
    const range = { start: Number(s.proof_start), end: Number(s.proof_end) };
    try {
      for await (const c of store.open(s.identifier, range)) hash.update(c as Buffer);
    } catch {
      return false;
    }
    return timingSafeEqual(hash.digest(), Buffer.from(proof, 'hex'));
  }

  /**
   * Marks the session done with its file, in the transaction that creates the file. Conditional:
   * when another completion of the same session (another server instance) committed first, no
   * row changes, and throwing rolls this file back, so one upload never makes two files. The
   * UPDATE waits on the other's row lock (PostgreSQL), so it sees that commit.
   */
  const markDone = (id: string) => async (trx: Db, userFileId: number) => {
    const r = await trx
      .updateTable('upload_session')
      .set({ done_user_file_id: userFileId, updated_at: Date.now() })
      .where('id', '=', id)
      .where('done_user_file_id', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new Error('upload session completed elsewhere');
  };

  const allChunks = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  /** Builds the file from a complete session; safe to call again (it answers the first result). */
  async function complete(area: Area, sessionId: string, target: Target): Promise<UploadAnswer> {
    return withSessionLock(sessionId, async () => {
      const s = await db
        .selectFrom('upload_session')
        .selectAll()
        .where('id', '=', sessionId)
        .executeTakeFirst();
      if (!s) throw invalid('上传已失效，请重新上传');
      if (s.done_user_file_id !== null) {
        return {
          skipUpload: false,
          uploaded: allChunks(s.total_chunks),
          done: true,
          userFileId: s.done_user_file_id,
        };
      }
      let placed;
      let staged;
      try {
        staged = await chunks.assemble(s.id, layoutOf(s));
        placed = await drive.addFile({
          area,
          filePath: target.filePath,
          fullName: target.fullName,
          content: staged,
          maxBytes: Number(s.total_size),
          expect: { md5: s.identifier, size: Number(s.total_size) },
          release: releaseOf(s.id),
          onCreated: markDone(s.id),
        });
      } catch (err) {
        // Completed meanwhile by another instance (markDone, or its file took the name first):
        // its file is the answer, as for a repeated last chunk.
        const doneId = await doneFileOf(s.id);
        if (doneId !== null) {
          return {
            skipUpload: false,
            uploaded: allChunks(s.total_chunks),
            done: true,
            userFileId: doneId,
          };
        }
        const mismatch =
          err instanceof BlobTooLargeError || (err instanceof AppError && err.message === CHECK_FAILED);
        // Bytes that are not what was claimed are of no use: forget them.
        if (mismatch) {
          await dropSession(s.id);
          throw invalid(CHECK_FAILED);
        }
        if (err instanceof ChunksGoneError) {
          await dropSession(s.id);
          throw invalid('上传已失效，请重新上传');
        }
        throw err;
      } finally {
        await staged?.discard();
      }
      await db.deleteFrom('upload_chunk').where('session_id', '=', s.id).execute();
      await chunks.drop(s.id);
      return {
        skipUpload: false,
        uploaded: allChunks(s.total_chunks),
        done: true,
        userFileId: placed.userFileId,
      };
    });
  }

  return {
    /** The test request: what the server already has of this upload. */
    async test(area: Area, p: UploadParams): Promise<UploadAnswer> {
      const target = validate(p);
      const existing = await findSession(area, p);
      if (existing) {
        const live = await liveResult(area, existing);
        if (live !== null) {
          return {
            skipUpload: true,
            uploaded: allChunks(existing.total_chunks),
            done: true,
            userFileId: live,
          };
        }
        if (existing.done_user_file_id !== null) await dropSession(existing.id);
      }
      // Before any byte: room for the whole file beside what other unfinished uploads hold.
      const own = existing?.done_user_file_id === null ? existing.id : undefined;
      await drive.checkRoom(area, p.totalSize, own);
      await assertSharedRoom(db, area, p.totalSize, own);
      const instant = async () => {
        const held = await findSession(area, p);
        const placed = await drive.addExisting({
          area,
          filePath: target.filePath,
          fullName: target.fullName,
          md5: p.identifier,
          // A session that already held room (chunks sent before) gives it to the file.
          release: held ? releaseOf(held.id) : undefined,
        });
        const s = await findSession(area, p);
        if (s) await dropSession(s.id);
        return { skipUpload: true, uploaded: [], done: true, userFileId: placed.userFileId };
      };
      if (await ownsContent(area, p.identifier, p.totalSize)) return instant();
      const s = await openSession(area, p);
      const uploaded = await uploadedOf(s.id);
      if (p.totalSize > 0 && (await blobExists(p.identifier, p.totalSize))) {
        if (p.proof && (await proofHolds(s, p.proof))) return instant();
        return { skipUpload: false, uploaded, challenge: await challenge(s, p.totalSize) };
      }
      return { skipUpload: false, uploaded };
    },

    /**
     * Stores one chunk from `body` (the multipart file stream, already limited in size). The
     * stream is always consumed, also when the chunk is refused or already held.
     */
    async chunk(area: Area, p: UploadParams, body: Readable): Promise<UploadAnswer> {
      const drain = () => {
        body.resume();
      };
      let s: Session;
      let target: Target;
      try {
        target = validate(p);
        if (p.currentChunkSize !== expectedSize(p, p.chunkNumber)) throw invalid('分片大小与文件大小不符');
        s = await openSession(area, p);
      } catch (err) {
        drain();
        throw err;
      }
      if (s.done_user_file_id !== null) {
        drain();
        return complete(area, s.id, target);
      }
      try {
        await reserve(area, s);
      } catch (err) {
        drain();
        await forgetIfEmpty(s.id);
        throw err;
      }
      // One indexed row, not the whole list: a held chunk is answered without writing again.
      const held = (await chunkHeld(db, NO_SHAPE, { id: s.id, n: p.chunkNumber })).length > 0;
      if (!held) {
        // A raw (octet) body has no multipart limit: the store stops at the declared size, so a
        // client cannot stream more than one chunk's worth into it.
        try {
          await chunks.write(s.id, p.chunkNumber, body, p.currentChunkSize, layoutOf(s), () =>
            invalid('分片内容与声明的大小不符，请重新上传'),
          );
        } catch (err) {
          // A parallel request (another instance) completed the upload meanwhile and removed
          // its folder under this write: that file is the answer, and what this write left goes.
          if ((await doneFileOf(s.id)) === null) throw err;
          await chunks.drop(s.id);
          return complete(area, s.id, target);
        }
        try {
          await recordChunk(db, NO_SHAPE, { id: s.id, n: p.chunkNumber, size: p.currentChunkSize });
        } catch {
          // The session went meanwhile (cancelled, swept): its chunk must not stay behind.
          await chunks.drop(s.id);
          throw invalid('上传已取消或已失效，请重新上传');
        }
        const now = Date.now();
        if (now - Number(s.updated_at) >= touchEveryMs) {
          await db.updateTable('upload_session').set({ updated_at: now }).where('id', '=', s.id).execute();
        }
      } else {
        drain();
      }
      const uploaded = await uploadedOf(s.id);
      if (uploaded.length === s.total_chunks) return complete(area, s.id, target);
      // A parallel request (on another instance, say) may have completed the upload meanwhile:
      // this chunk's row went with all the others, or was recorded after they went (a chunk
      // sent to two instances at once, the other one first). Its file is the answer, and what
      // this request left of the finished upload goes.
      if ((await doneFileOf(s.id)) !== null) {
        await db.deleteFrom('upload_chunk').where('session_id', '=', s.id).execute();
        await chunks.drop(s.id);
        return complete(area, s.id, target);
      }
      return { skipUpload: false, uploaded };
    },

    /**
     * The cancel call: drops the caller's own unfinished session for this upload (its chunks
     * and held room go at once). Another person's session is never found (the key holds the
     * caller's id); a finished one is left (its answer serves a repeated last chunk). Answers
     * whether one was dropped; calling again answers false, so it is safe to repeat.
     */
    async cancel(area: Area, p: UploadKey): Promise<{ cancelled: boolean }> {
      const found = await findSession(area, p);
      if (!found || found.done_user_file_id !== null) return { cancelled: false };
      // Under the session's lock: a completion running now finishes first (then it is done).
      return withSessionLock(found.id, async () => {
        const s = await db
          .selectFrom('upload_session')
          .select('done_user_file_id')
          .where('id', '=', found.id)
          .executeTakeFirst();
        if (!s || s.done_user_file_id !== null) return { cancelled: false };
        await dropSession(found.id);
        return { cancelled: true };
      });
    },

    /**
     * Deletes sessions idle longer than the configured time, the chunk folders of finished
     * sessions (left by a crash right after completion) and folders no session owns.
     */
    async sweep(now = Date.now()) {
      const old = await db
        .selectFrom('upload_session')
        .select('id')
        .where('updated_at', '<', now - sessionMs)
        .execute();
      for (const { id } of old) await dropSession(id);
      const rows = await db.selectFrom('upload_session').select(['id', 'done_user_file_id']).execute();
      const open = new Set(rows.filter((r) => r.done_user_file_id === null).map((r) => r.id));
      for (const { id, touchedAt } of await chunks.list()) {
        if (open.has(id)) continue;
        // Chunks stored in the last minute may belong to a session created after the query.
        if (touchedAt < now - 60_000) await chunks.drop(id);
      }
    },
  };
}
export type UploadService = ReturnType<typeof createUploadService>;
