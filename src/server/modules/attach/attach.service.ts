import { Transform, type Readable } from 'node:stream';
import {
  ATTACH_MAX_BYTES,
  ATTACH_TOO_LARGE,
  IMAGE_MAX_BYTES,
  IMAGE_TOO_LARGE,
  downloadPath,
  imagePath,
  type Attachment,
} from '../../../shared/api/attach';
import type { Db } from '../../db/index';
import type { Selectable } from 'kysely';
import type { AttachmentTable } from '../../db/schema';
import { spoofProblem } from '../../../shared/drive/names';
import { forbidden, invalid, notFound } from '../../errors';
import {
  BlobTooLargeError,
  createLocalBlobStore,
  type BlobStore,
  type StagedBlob,
} from '../../storage/blob-store';
import type { SessionUser } from '../auth/auth.service';
import { createKeyedLock, type KeyedLock } from '../drive/keyed-lock';
import { sniffImage } from '../org/avatar';
import { formatSize } from '../../../shared/drive/file-types';
import { personalSpace } from '../drive/area';
import * as driveRepo from '../drive/drive.repo';
import * as repo from './attach.repo';

/**
 * What a table that takes attachments says about its records (the resolver map): who may
 * upload for it, who may read a record (and so its attachments), and whether a record is
 * published, which keeps its attachments from being deleted one by one. The approvals and
 * tasks issues register their tables the same way.
 */
export interface AttachOwner {
  canUpload(user: SessionUser): Promise<boolean>;
  canRead(user: SessionUser, recordId: number): Promise<boolean>;
  isPublished(recordId: number): Promise<boolean>;
}

type Row = Selectable<AttachmentTable>;

const NOT_READABLE = '附件不存在或无权查看';
const GONE = '附件不存在或已失效，请重新上传';
/** Unbound uploads (an editor closed without saving) are removed after a day. */
const UNBOUND_TTL_MS = 24 * 3600_000;

/** The per-person budget of attachment bytes not yet saved with a record (issue 16 §1). */
export const ATTACH_BUDGET_MSG = (left: number, need: number) =>
  `附件暂存空间不足：未提交的附件还可占用 ${formatSize(left)}，本次上传需要 ${formatSize(need)}；请先提交或删除未用的附件，或取消其他上传`;

/** The download name: the last segment of what the browser sent, without control characters. */
export function attachmentName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || '未命名文件').slice(0, 255);
}

/**
 * Why an attachment's name is refused, or null: invisible and text-direction characters would
 * let `evil\u202Etxt.exe` show as `evilexe.txt` to every reader of the record (issue 16 §3;
 * the drive's rule, shared/drive/names.ts). Checked before any byte is read where the name
 * comes first (multipart, chunks), and again when the row is written (also from the drive).
 */
export function attachNameProblem(raw: string | undefined): string | null {
  return spoofProblem(attachmentName(raw), '文件名称');
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return /^[a-z0-9]{1,10}$/.test(ext) ? ext : '';
}

export function toAttachment(row: Row): Attachment {
  return {
    attId: row.id,
    attName: row.name,
    attPath: row.inline ? imagePath(row.id) : downloadPath(row.id),
    attFileTypeStr: extensionOf(row.name),
    attSize: Number(row.size),
  };
}

/** Keeps the first bytes of a stream that passes through (to decide an image's type). */
function headKeeper(limit: number) {
  const chunks: Buffer[] = [];
  let kept = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (kept < limit) {
        chunks.push(chunk.subarray(0, limit - kept));
        kept += Math.min(chunk.length, limit - kept);
      }
      cb(null, chunk);
    },
  });
  return { stream, head: () => Buffer.concat(chunks) };
}

/**
 * Attachments (spec office.md §7): bytes in their own content-addressed store under
 * DATA_DIR/attachments, apart from the drive's, so neither side's clean-up can remove bytes
 * the other still uses. Rows name their bytes by the MD5 the server computed while writing.
 */
export function createAttachService(opts: {
  db: Db;
  /** DATA_DIR/attachments, the local store's folder, unless `store` is given (the object store). */
  dir: string;
  store?: BlobStore;
  /** The lock per MD5; in-process unless given (Redis, every instance). */
  blobLock?: KeyedLock;
  /** The drive's blob store, read by fromDrive. */
  driveStore?: BlobStore;
  now?: () => number;
  /**
   * Bytes one person's attachments may hold before a record uses them: unbound uploads plus
   * the declared size of unfinished chunk uploads (ATTACH_PENDING_MB; default 1 GiB).
   */
  pendingBytes?: number;
}) {
  const { db } = opts;
  const now = opts.now ?? Date.now;
  const store: BlobStore = opts.store ?? createLocalBlobStore(opts.dir);
  const owners = new Map<string, AttachOwner>();
  // Per MD5: "commit bytes and insert a row" against "no row left, remove the bytes".
  const withBlobLock: KeyedLock = opts.blobLock ?? createKeyedLock();

  function ownerOf(table: string): AttachOwner {
    const owner = owners.get(table);
    if (!owner) throw invalid('不支持的附件类别（tableName）');
    return owner;
  }

  async function dropBytes(md5s: string[]) {
    for (const md5 of new Set(md5s)) {
      await withBlobLock(md5, async () => {
        if (!(await repo.md5InUse(db, md5))) await store.remove(md5);
      });
    }
  }

  async function mayRead(user: SessionUser, row: Row): Promise<boolean> {
    if (row.uploaded_by === user.id) return true;
    if (row.record_id === null) return false;
    const owner = owners.get(row.table_name);
    return owner ? owner.canRead(user, row.record_id) : false;
  }

  const pendingBytes = opts.pendingBytes ?? 1024 ** 3;

  /**
   * Refuses `bytes` more beyond the person's budget of attachments not yet saved with a record
   * (issue 16 §1): their unbound uploads plus what their unfinished chunk uploads declared,
   * `exceptUpload` aside (the one asking). Inside a transaction the person's row is locked
   * first, so the check and the caller's insert are one step against parallel uploads.
   */
  async function assertBudget(q: Db, userId: number, bytes: number, exceptUpload?: string) {
    if (q.isTransaction) await driveRepo.lockPerson(q, userId);
    const unbound = await q
      .selectFrom('attachment')
      .select((eb) => eb.fn.sum<number>('size').as('n'))
      .where('uploaded_by', '=', userId)
      .where('record_id', 'is', null)
      .executeTakeFirstOrThrow();
    let open = q
      .selectFrom('attach_upload')
      .select((eb) => eb.fn.sum<number>('total_size').as('n'))
      .where('user_id', '=', userId);
    if (exceptUpload) open = open.where('upload_id', '!=', exceptUpload);
    const held = Number(unbound.n ?? 0) + Number((await open.executeTakeFirstOrThrow()).n ?? 0);
    if (held + bytes > pendingBytes)
      throw invalid(ATTACH_BUDGET_MSG(Math.max(0, pendingBytes - held), bytes));
  }

  const service = {
    /** The attachments' own content store (the chunk uploads assemble into it). */
    store,
    assertBudget,
    /** Before reading a body: refuses at once when `bytes` cannot fit (the exact check is in keep). */
    precheckBudget: (user: SessionUser, bytes: number) => assertBudget(db, user.id, Math.max(1, bytes)),

    register(table: string, owner: AttachOwner) {
      owners.set(table, owner);
    },

    /**
     * Refuses an upload before its bytes are read: a caller who may upload for none of the
     * tables, or (when the form named it first) not for the named one.
     */
    async assertMayUpload(user: SessionUser, table?: string) {
      if (table !== undefined) {
        if (!(await ownerOf(table).canUpload(user))) throw forbidden('无权限上传此类附件');
        return;
      }
      for (const owner of owners.values()) if (await owner.canUpload(user)) return;
      throw forbidden('无权限上传附件');
    },

    /**
     * Streams one file to a temporary blob, hashing it. `image`: an editor image, at most
     * 10 MB, else at most 500 MB (the spec's message). The caller keeps it with `keep`, and
     * always calls `discard` afterwards.
     */
    async receive(bytes: Readable, opts: { image: boolean }) {
      const max = opts.image ? IMAGE_MAX_BYTES : ATTACH_MAX_BYTES;
      const head = headKeeper(16);
      // pipe() does not pass errors on: a failing source (the client went away) must fail the stage.
      bytes.once('error', (err) => head.stream.destroy(err));
      try {
        const staged = await store.stage(bytes.pipe(head.stream), { maxBytes: max });
        return { staged, head: head.head() };
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (err instanceof BlobTooLargeError || code === 'FST_REQ_FILE_TOO_LARGE')
          throw invalid(opts.image ? IMAGE_TOO_LARGE : ATTACH_TOO_LARGE);
        throw err;
      }
    },

    /** Records a received file, unbound, for `table` (checked by the caller with assertMayUpload). */
    async keep(
      user: SessionUser,
      got: { staged: StagedBlob; head: Buffer },
      input: { table: string; name: string | undefined; image: boolean; uploadId?: string },
    ): Promise<Attachment> {
      const { staged } = got;
      const nameErr = attachNameProblem(input.name);
      if (nameErr) throw invalid(nameErr);
      if (staged.size === 0) throw invalid('文件为空，请重新选择');
      const type = input.image ? sniffImage(got.head) : undefined;
      if (input.image && !type) throw invalid('只能插入 PNG、JPG、GIF、WebP 格式的图片');
      const id = await withBlobLock(staged.md5, async () => {
        await staged.commit();
        try {
          return await db.transaction().execute(async (trx) => {
            // Within the budget, and a chunk upload's held room becomes this row's, in one step.
            await assertBudget(trx, user.id, staged.size, input.uploadId);
            const id = await repo.insertAttachment(
              trx,
              {
                table_name: input.table,
                name: attachmentName(input.name),
                size: staged.size,
                md5: staged.md5,
                inline: input.image ? 1 : 0,
                mime: type?.mime ?? null,
                uploaded_by: user.id,
              },
              now(),
            );
            if (input.uploadId) {
              await trx
                .deleteFrom('attach_upload')
                .where('user_id', '=', user.id)
                .where('upload_id', '=', input.uploadId)
                .execute();
            }
            return id;
          });
        } catch (err) {
          if (!(await repo.md5InUse(db, staged.md5))) await store.remove(staged.md5);
          throw err;
        }
      });
      return toAttachment((await repo.findAttachment(db, id))!);
    },

    /** The row and its bytes when the caller may read it; anything else is 附件不存在或无权查看. */
    async openReadable(user: SessionUser, id: number, opts: { image: boolean }) {
      const row = await repo.findAttachment(db, id);
      if (!row || !(await mayRead(user, row))) throw notFound(NOT_READABLE);
      // Only editor images whose bytes were sniffed as an image are ever shown inline.
      if (opts.image && (!row.inline || !row.mime)) throw notFound('该附件不是图片');
      // `store` lets a caller send a range of the bytes (downloadFile: drive/download.ts's sender).
      return { row, open: () => store.open(row.md5), store };
    },

    /** attach/deleteAttachment: the uploader, while the record it belongs to is not published. */
    async remove(user: SessionUser, id: number) {
      const row = await repo.findAttachment(db, id);
      if (!row || row.uploaded_by !== user.id) throw notFound('附件不存在或无权删除');
      if (row.record_id !== null && (await owners.get(row.table_name)?.isPublished(row.record_id)))
        throw invalid('附件所属内容已发布，不能删除；请先撤回再修改');
      const md5 = await repo.deleteAttachment(db, id);
      if (md5) await dropBytes([md5]);
    },

    /**
     * Binds attachments to a record inside the caller's transaction, and deletes the record's
     * attachments that are no longer wanted. Each id must be the caller's own unbound upload
     * for this table, or already belong to this record. Answers the MD5s whose rows went:
     * pass them to `dropBytes` after the transaction commits.
     */
    async bindInTx(
      trx: Db,
      input: { user: SessionUser; table: string; recordId: number; ids: number[] },
    ): Promise<string[]> {
      const ids = [...new Set(input.ids)];
      await repo.lockAttachments(trx, ids);
      const rows = await repo.findAttachments(trx, ids);
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const id of ids) {
        const r = byId.get(id);
        const ok =
          r &&
          r.table_name === input.table &&
          (r.record_id === input.recordId || (r.record_id === null && r.uploaded_by === input.user.id));
        if (!ok) throw invalid(GONE);
      }
      await repo.bindAttachments(
        trx,
        ids.filter((id) => byId.get(id)!.record_id === null),
        input.recordId,
      );
      return repo.deleteAttachmentsOfRecord(trx, input.table, input.recordId, ids);
    },

    /** The caller's own attachment by id, or null (a repeated last chunk answers it again). */
    async ownAttachment(user: SessionUser, id: number): Promise<Attachment | null> {
      const row = await repo.findAttachment(db, id);
      return row && row.uploaded_by === user.id ? toAttachment(row) : null;
    },

    /**
     * attach/uploadMulti: keeps every received file, or none. Should one be refused (empty),
     * the ones kept before it are deleted again, so the caller sees one refusal and no leftovers.
     */
    async keepAll(
      user: SessionUser,
      gots: { staged: StagedBlob; head: Buffer; name: string | undefined }[],
      table: string,
    ): Promise<Attachment[]> {
      if (gots.some((g) => g.staged.size === 0)) throw invalid('文件为空，请重新选择');
      const kept: Attachment[] = [];
      try {
        for (const g of gots) kept.push(await service.keep(user, g, { table, name: g.name, image: false }));
        return kept;
      } catch (err) {
        const md5s: string[] = [];
        for (const a of kept) {
          const md5 = await repo.deleteAttachment(db, a.attId);
          if (md5) md5s.push(md5);
        }
        await dropBytes(md5s);
        throw err;
      }
    },

    /**
     * attach/fromDrive: a copy of a file of the caller's own drive as a new unbound attachment
     * (why a copy: shared/api/attach.ts). Looked up in the caller's personal space, or in
     * `space` when the caller already checked the right to read it (a project's documents).
     */
    async fromDrive(
      user: SessionUser,
      input: { table: string; userFileId: number; image: boolean; space?: string },
    ): Promise<Attachment> {
      await service.assertMayUpload(user, input.table);
      if (!opts.driveStore) throw invalid('暂不支持从网盘选择文件');
      const space = input.space ?? personalSpace(user.id);
      const file = await driveRepo.findAny(db, space, input.userFileId);
      if (!file) throw notFound('网盘中找不到该文件，请重新选择');
      if (file.is_dir) throw invalid('不能选择文件夹，请选择一个文件');
      if (file.delete_flag !== 0) throw invalid('该文件已删除（在回收站中），请重新选择');
      const blob = await driveRepo.blobOf(db, space, file.id);
      if (!blob) throw notFound('网盘中找不到该文件，请重新选择');
      if (Number(blob.size) > (input.image ? IMAGE_MAX_BYTES : ATTACH_MAX_BYTES))
        throw invalid(input.image ? IMAGE_TOO_LARGE : ATTACH_TOO_LARGE);
      const name = file.extend_name ? `${file.file_name}.${file.extend_name}` : file.file_name;
      const got = await service.receive(opts.driveStore.open(blob.md5), { image: input.image });
      try {
        return await service.keep(user, got, { table: input.table, name, image: input.image });
      } finally {
        await got.staged.discard();
      }
    },

    /**
     * Whether these ids may be used by a new record: each is the caller's own upload for
     * `table`, not yet used by a record, and (for `image`) an image decided from its bytes.
     * Answers the problem, or null. Read inside the caller's transaction.
     */
    async unboundProblem(
      trx: Db,
      input: { user: SessionUser; table: string; ids: number[]; image: boolean },
    ): Promise<'gone' | 'notImage' | null> {
      const rows = await repo.findAttachments(trx, input.ids);
      if (rows.length !== new Set(input.ids).size) return 'gone';
      for (const r of rows) {
        if (r.table_name !== input.table || r.uploaded_by !== input.user.id || r.record_id !== null)
          return 'gone';
      }
      if (input.image && rows.some((r) => !r.inline || !r.mime)) return 'notImage';
      return null;
    },
    /**
     * A new row for the bytes of an existing attachment, bound to another record, inside the
     * caller's transaction (a project file reused by another task). The bytes are shared by MD5;
     * each row is deleted on its own.
     */
    async copyInTx(trx: Db, input: { user: SessionUser; from: Row; table: string; recordId: number }) {
      const id = await repo.insertAttachment(
        trx,
        {
          table_name: input.table,
          name: input.from.name,
          size: Number(input.from.size),
          md5: input.from.md5,
          inline: input.from.inline,
          mime: input.from.mime,
          uploaded_by: input.user.id,
        },
        now(),
      );
      await repo.bindAttachments(trx, [id], input.recordId);
      return id;
    },
    /** Rows by id, for a record's own display. */
    rowsOf: (q: Db, ids: number[]) => repo.findAttachments(q, ids),

    /** The attachments of a record (files and editor images), oldest first. */
    listOf: (q: Db, table: string, recordId: number) => repo.attachmentsOf(q, table, recordId),
    deleteOfRecordInTx: (trx: Db, table: string, recordId: number) =>
      repo.deleteAttachmentsOfRecord(trx, table, recordId, []),
    dropBytes,

    /** Removes uploads never bound to a record within a day. */
    async sweep() {
      await dropBytes(await repo.deleteUnboundBefore(db, now() - UNBOUND_TTL_MS));
    },
  };
  return service;
}
export type AttachService = ReturnType<typeof createAttachService>;
