import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ATTACH_CHUNK_BYTES,
  type AttachChunkAnswer,
  type AttachChunkFields,
} from '../../../shared/api/attach';
import type { Db } from '../../db/index';
import { invalid } from '../../errors';
import type { SessionUser } from '../auth/auth.service';
import { lockPerson } from '../drive/drive.repo';
import { createKeyedLock } from '../drive/keyed-lock';
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
 * State is files only, under `dir/<userId>-<uploadId>/`: `meta.json` (what the first chunk
 * declared), one file per held chunk (written to a temporary name and renamed, so a file that
 * exists is whole), and `done.json` once assembled. The folder name is built from the user's id
 * and an uploadId matching a strict pattern, never from a file name, so no client string reaches
 * a path, and one person's uploadId never meets another's. One lock per folder serialises its
 * chunks, so a retry racing its original writes once and assembles once.
 *
 * Held room (issue 16 §1): the first chunk of an upload records it in `attach_upload` with its
 * declared size, checked against the person's attachment budget (attach.service assertBudget)
 * and a count of open uploads, before any byte is written. Assembly turns it into the
 * attachment's row in one transaction; cancel and the sweep release it.
 */
export function createChunkUploads(opts: {
  db: Db;
  dir: string;
  attach: AttachService;
  now?: () => number;
  /** Unfinished chunk uploads one person may hold (ATTACH_OPEN_MAX; default 20). */
  openMax?: number;
}) {
  const { db, dir, attach } = opts;
  const openMax = opts.openMax ?? 20;
  const now = opts.now ?? Date.now;
  const withLock = createKeyedLock();
  fs.mkdirSync(dir, { recursive: true });

  const folder = (user: SessionUser, uploadId: string) => path.join(dir, `${user.id}-${uploadId}`);
  const readJson = async <T>(file: string): Promise<T | null> => {
    try {
      return JSON.parse(await fsp.readFile(file, 'utf8')) as T;
    } catch {
      return null;
    }
  };

  async function held(at: string, total: number): Promise<number[]> {
    const names = new Set(await fsp.readdir(at).catch(() => [] as string[]));
    const out: number[] = [];
    for (let n = 1; n <= total; n++) if (names.has(String(n))) out.push(n);
    return out;
  }

  function check(f: AttachChunkFields) {
    if (f.totalChunks !== Math.max(1, Math.ceil(f.totalSize / ATTACH_CHUNK_BYTES)))
      throw invalid(CHUNK_MSG.count);
    if (f.chunkNumber > f.totalChunks) throw invalid(CHUNK_MSG.range);
  }

  /** The chunks, in order, as one stream (memory stays one read buffer whatever the size). */
  function joined(at: string, total: number): Readable {
    async function* all() {
      for (let n = 1; n <= total; n++) yield* fs.createReadStream(path.join(at, String(n)));
    }
    return Readable.from(all());
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

  /** Releases an upload's held room and its folder (under the folder's lock). */
  async function release(user: SessionUser, uploadId: string, at: string) {
    await db
      .deleteFrom('attach_upload')
      .where('user_id', '=', user.id)
      .where('upload_id', '=', uploadId)
      .execute();
    await fsp.rm(at, { recursive: true, force: true });
  }

  async function assemble(
    user: SessionUser,
    at: string,
    meta: Meta,
    uploadId: string,
  ): Promise<AttachChunkAnswer> {
    const got = await attach.receive(joined(at, meta.totalChunks), { image: false });
    try {
      const att = await attach.keep(user, got, {
        table: meta.tableName,
        name: meta.fileName,
        image: false,
        uploadId,
      });
      await fsp.writeFile(path.join(at, 'done.json'), JSON.stringify({ attId: att.attId }));
      // The chunks are no longer needed; done.json stays (a repeated last chunk) until the sweep.
      for (let n = 1; n <= meta.totalChunks; n++) await fsp.rm(path.join(at, String(n)), { force: true });
      return { done: true, uploaded: range(meta.totalChunks), attachment: att };
    } finally {
      await got.staged.discard();
    }
  }

  async function finished(user: SessionUser, at: string, meta: Meta): Promise<AttachChunkAnswer | null> {
    const done = await readJson<{ attId: number }>(path.join(at, 'done.json'));
    if (!done) return null;
    const att = await attach.ownAttachment(user, done.attId);
    if (!att) throw invalid(CHUNK_MSG.gone);
    return { done: true, uploaded: range(meta.totalChunks), attachment: att };
  }

  return {
    /** GET attach/chunk: the chunks held for this upload ([] for an unknown one). */
    async status(user: SessionUser, uploadId: string): Promise<AttachChunkAnswer> {
      const at = folder(user, uploadId);
      const meta = await readJson<Meta>(path.join(at, 'meta.json'));
      if (!meta) return { done: false, uploaded: [] };
      return (await finished(user, at, meta)) ?? { done: false, uploaded: await held(at, meta.totalChunks) };
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
      const at = folder(user, f.uploadId);
      return withLock(at, async () => {
        const meta: Meta = {
          tableName: f.tableName,
          fileName: f.fileName,
          totalSize: f.totalSize,
          totalChunks: f.totalChunks,
        };
        const known = await readJson<Meta>(path.join(at, 'meta.json'));
        if (known && JSON.stringify(known) !== JSON.stringify(meta)) {
          drain();
          throw invalid(CHUNK_MSG.otherFile);
        }
        const done = await finished(user, at, meta);
        if (done) {
          drain();
          return done;
        }
        const file = path.join(at, String(f.chunkNumber));
        const want = chunkBytes(f.totalSize, f.totalChunks, f.chunkNumber);
        if (fs.existsSync(file)) {
          drain();
        } else {
          // Room first, bytes second: a refused chunk writes nothing.
          try {
            await hold(user, f);
          } catch (err) {
            drain();
            throw err;
          }
          await fsp.mkdir(at, { recursive: true });
          const tmp = `${file}.${randomUUID()}.tmp`;
          let size = 0;
          const meter = new Transform({
            transform(c: Buffer, _e, cb) {
              size += c.length;
              // Stop at once past the declared size: nothing more than one chunk reaches the disk.
              if (size > want) cb(invalid(CHUNK_MSG.size(f.chunkNumber, want, size)));
              else cb(null, c);
            },
          });
          try {
            await pipeline(body, meter, fs.createWriteStream(tmp, { flags: 'wx' }));
            if ((body as Readable & { truncated?: boolean }).truncated || size !== want)
              throw invalid(CHUNK_MSG.size(f.chunkNumber, want, size));
            await fsp.rename(tmp, file);
          } catch (err) {
            drain();
            await fsp.rm(tmp, { force: true });
            // The first chunk refused: nothing of the upload is held, so neither is its room.
            if (!known) await release(user, f.uploadId, at);
            throw err;
          }
          // The description is fixed by the first chunk that was stored, not by a refused one.
          if (!known) await fsp.writeFile(path.join(at, 'meta.json'), JSON.stringify(meta));
        }
        // Touch the folder: the sweep measures staleness by its time.
        const t = new Date(now());
        await fsp.utimes(at, t, t).catch(() => undefined);
        const uploaded = await held(at, f.totalChunks);
        if (f.chunkNumber !== f.totalChunks) return { done: false, uploaded };
        const missing = range(f.totalChunks).filter((n) => !uploaded.includes(n));
        if (missing.length) throw invalid(CHUNK_MSG.missing(missing));
        return assemble(user, at, meta, f.uploadId);
      });
    },

    /**
     * DELETE attach/chunk?uploadId=: drops the caller's own unfinished upload at once (its
     * chunks and held room); an assembled one is left (its attachment is deleted on its own).
     * Answers whether one was dropped, so repeating it is harmless.
     */
    async cancel(user: SessionUser, uploadId: string): Promise<{ cancelled: boolean }> {
      const at = folder(user, uploadId);
      return withLock(at, async () => {
        if (fs.existsSync(path.join(at, 'done.json'))) return { cancelled: false };
        const row = await db
          .selectFrom('attach_upload')
          .select('upload_id')
          .where('user_id', '=', user.id)
          .where('upload_id', '=', uploadId)
          .executeTakeFirst();
        const existed = Boolean(row) || fs.existsSync(at);
        await release(user, uploadId, at);
        return { cancelled: existed };
      });
    },

    /** Removes upload folders untouched for CHUNK_STALE_MS (finished or not), and their held room. */
    async sweep() {
      const before = now() - CHUNK_STALE_MS;
      await db.deleteFrom('attach_upload').where('updated_at', '<', before).execute();
      for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
        const p = path.join(dir, name);
        const st = await fsp.stat(p).catch(() => null);
        if (st && st.mtimeMs < before) await withLock(p, () => fsp.rm(p, { recursive: true, force: true }));
      }
    },
  };
}
export type ChunkUploads = ReturnType<typeof createChunkUploads>;

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
