import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type {
  ByTypeQuery,
  FileEntry,
  FileList,
  GetFileListQuery,
  RecoveryEntry,
  SearchHit,
  SearchQuery,
  StorageInfo,
  TreeNode,
} from '../../../shared/api/drive';
import { CATEGORY_EXTS, formatSize, previewKind } from '../../../shared/drive/file-types';
import {
  ROOT,
  folderPath,
  freeName,
  isSelfOrInside,
  joinName,
  nameProblem,
  parentPath,
  pathProblem,
  splitName,
  topLevel,
} from '../../../shared/drive/names';
import type { Db } from '../../db/index';
import { AppError, conflict, invalid, notFound } from '../../errors';
import { ErrorCode } from '../../../shared/api/envelope';
import type { BlobStore, StagedBlob } from '../../storage/blob-store';
import { HEAD_BYTES, imageSize } from '../../storage/image-size';
import type { Area } from './area';
import * as repo from './drive.repo';
import type { FileRow } from './drive.repo';
import { createKeyedLock, type KeyedLock, withLocks } from './keyed-lock';
import { museumTime } from './time';

type Out<T extends z.ZodType> = z.output<T>;

export const NOT_FOUND = '文件不存在或已被删除';
export const SAME_NAME = '同名文件已存在';
export const TARGET_MISSING = '目标文件夹不存在或已被删除';
export const COPY_INTO_SELF = '原路径与目标路径冲突，不能复制';
export const MOVE_INTO_SELF = '原路径与目标路径冲突，不能移动';
export const RECOVERY_GONE = '该文件已被彻底删除或不存在';
export const RESTORE_GONE = '该文件已还原或已被彻底删除';
export const IN_BIN = '该文件在回收站中，请先还原后再移动';
export const REPLACE_ANCESTOR = '目标位置就是要复制或移动的项目本身或其上级文件夹，不能覆盖';

/**
 * The quota's refusal (存储空间不足…): an ordinary refusal for the drive's own calls, and
 * told apart by WebDAV, which answers it 507 Insufficient Storage (RFC 4918 §11.5).
 */
export class QuotaError extends AppError {
  constructor(message: string) {
    super(ErrorCode.invalid, message);
  }
}

/**
 * A replace that named the content it expected (`expectMd5`) found other content: somebody saved
 * the file meanwhile. Nothing was written; the caller decides (office saves make a copy).
 */
export class ContentChanged extends Error {
  constructor(
    readonly file: { filePath: string; fileName: string; extendName: string },
    readonly currentMd5: string,
  ) {
    super('content changed since it was opened');
  }
}

/** A row as every list answers it (shared/api/drive.ts FileEntry). */
export function toEntry(r: FileRow): FileEntry {
  return {
    userFileId: r.id,
    fileName: r.file_name,
    extendName: r.extend_name,
    filePath: r.file_path,
    isDir: r.is_dir ? 1 : 0,
    fileSize: Number(r.file_size),
    uploadTime: museumTime(Number(r.upload_time)),
    deleteFlag: r.delete_flag,
    deleteTime: r.delete_time === null ? null : museumTime(Number(r.delete_time)),
    deleteBatchNum: r.delete_batch_num,
    imageWidth: r.image_width,
    imageHeight: r.image_height,
  };
}

/** [start, end) offsets of every non-overlapping hit of `needle` in `full`, ASCII case-insensitive. */
export function highlightFields(full: string, needle: string): [number, number][] {
  const hay = repo.asciiLower(full);
  const n = repo.asciiLower(needle);
  const out: [number, number][] = [];
  if (!n) return out;
  for (let i = hay.indexOf(n); i >= 0; i = hay.indexOf(n, i + n.length)) out.push([i, i + n.length]);
  return out;
}

/** The path of a row when it is a folder. */
const pathOf = (r: Pick<FileRow, 'file_path' | 'file_name'>) => folderPath(r.file_path, r.file_name);

/** What a download sends: one blob, or a zip built on the fly from entries. */
export type DownloadPlan =
  | { kind: 'file'; name: string; md5: string; size: number; mtime: number }
  | { kind: 'zip'; name: string; entries: ZipEntry[] };
export type ZipEntry =
  | { dir: true; name: string; mtime: number }
  | { dir: false; name: string; md5: string; size: number; mtime: number };

/** What addFile needs: where the bytes go, under which name, and the bytes. */
export interface AddFileInput {
  area: Area;
  /** The folder, which is created (with its parents) when missing. */
  filePath: string;
  /** The full name, extension included; a clash gets name(1), name(2)… */
  fullName: string;
  /**
   * The bytes, or bytes already staged (and hashed by the server) in the drive's store: an
   * upload's assembled chunks. A staged blob is the caller's to discard afterwards.
   */
  content: Buffer | Readable | StagedBlob;
  /** Refuses a stream that grows past this many bytes. */
  maxBytes?: number;
  /** The MD5 and size the bytes must have (a chunked upload's claim); a mismatch stores nothing. */
  expect?: { md5: string; size: number };
  /** Runs inside the transaction that creates the row (the upload marks its session done there). */
  onCreated?: (trx: Db, userFileId: number) => Promise<void>;
  /**
   * Runs first inside that transaction, before the quota check: an upload releases the room its
   * session held, so the file's bytes replace the reservation and are never counted twice.
   */
  release?: (trx: Db) => Promise<void>;
  /** Refuse (目标文件夹不存在或已被删除) instead of creating a missing folder: a dialog's create. */
  requireFolder?: boolean;
  /**
   * Refuse (同名文件已存在) instead of taking name(1) when the name is taken, by a file or a
   * folder: a WebDAV PUT creates exactly the name its URL says.
   */
  exactName?: boolean;
}

const isStaged = (c: AddFileInput['content']): c is StagedBlob =>
  !Buffer.isBuffer(c) && typeof (c as StagedBlob).commit === 'function';

/** One item of addTree: its folder inside the tree, its name, and a file's temporary bytes. */
export interface TreeItem {
  dir: string[];
  name: string;
  isDir: boolean;
  file: string | null;
}

/** One item of placeExisting: as TreeItem, with content the server already holds. */
export interface ExistingTreeItem {
  dir: string[];
  name: string;
  isDir: boolean;
  blob: { md5: string; size: number } | null;
  dims: { width: number; height: number } | null;
}

/** A tree item with what placeTree writes for it. */
type PlacedItem = Omit<ExistingTreeItem, 'blob'> & { blob: { md5: string; size: number } | null };

/** Refused when the bytes of an upload do not hash to its identifier or have another size. */
export const CHECK_FAILED = '文件校验失败，请重新上传';

/** What the onFileStored hook is told about a new file. */
export interface StoredFile {
  area: Area;
  userFileId: number;
  md5: string;
  size: number;
  extendName: string;
}

export interface DriveServiceDeps {
  db: Db;
  store: BlobStore;
  defaultQuotaBytes: number;
  /**
   * The lock per blob key (store the bytes and point a row at them, against no row left,
   * remove the bytes); in-process unless given (a Redis lock shared by every instance).
   */
  blobLock?: KeyedLock;
  /**
   * Called after a file's row is committed (uploads and addFile). A no-op for now: the preview
   * issue fills it to read music tags (title, artist, cover) from the stored blob. Its errors
   * are swallowed: a failed tag read must never fail an upload.
   */
  onFileStored?: (file: StoredFile) => void | Promise<void>;
}

/**
 * The drive's rules (spec/drive.md; issue 3 "Semantics"): the collision rule for copy, move and
 * restore (files get name(n), folders merge), self-containment, the recycle bin in batches,
 * quota on every path that adds bytes, and blobs freed when nothing references them. Every
 * change of several rows is one transaction; a call either happens whole or not at all.
 */
export function createDriveService({
  db,
  store,
  defaultQuotaBytes,
  blobLock,
  onFileStored = () => undefined,
}: DriveServiceDeps) {
  const withBlobLock: KeyedLock = blobLock ?? createKeyedLock();

  async function stored(file: StoredFile) {
    try {
      await onFileStored(file);
    } catch {
      /* the hook is best effort (see DriveServiceDeps.onFileStored) */
    }
  }

  const IMAGE_EXTS = new Set(['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp']);

  /** An image's width and height from the head of its stored blob; null for other files. */
  async function dimsOf(fullName: string, md5: string, size: number) {
    if (size === 0 || !IMAGE_EXTS.has(splitName(fullName).extendName.toLowerCase())) return null;
    const parts: Buffer[] = [];
    try {
      for await (const c of store.open(md5, { start: 0, end: Math.min(size, HEAD_BYTES) - 1 })) {
        parts.push(c as Buffer);
      }
    } catch {
      return null;
    }
    return imageSize(Buffer.concat(parts));
  }

  /**
   * Inside a transaction: charges the quota, records the blob if new, creates missing folders
   * and the file row under the first free name (the collision rule).
   */
  async function placeFile(
    trx: Db,
    area: Area,
    filePath: string,
    fullName: string,
    blob: { md5: string; size: number },
    onCreated?: (trx: Db, userFileId: number) => Promise<void>,
    dims: { width: number; height: number } | null = null,
    release?: (trx: Db) => Promise<void>,
    exactName = false,
  ) {
    if (release) await release(trx);
    await assertRoom(trx, area, blob.size);
    const now = Date.now();
    const parent = await ensureFolders(trx, area, filePath, now);
    if (exactName) await assertNameFree(trx, area, parent, fullName);
    const placed = await insertFile(trx, area, parent, fullName, blob, now, dims);
    if (onCreated) await onCreated(trx, placed.userFileId);
    return placed;
  }

  /** Inside a transaction: the blob's row if new, and the file's row under its first free name. */
  async function insertFile(
    trx: Db,
    area: Area,
    parent: string,
    fullName: string,
    blob: { md5: string; size: number },
    now: number,
    dims: { width: number; height: number } | null,
  ) {
    const blobId =
      (await repo.findBlob(trx, blob.md5))?.id ?? (await repo.insertBlob(trx, blob.md5, blob.size));
    const split = splitName(fullName);
    const fileName = await free(trx, area.space, parent, split.fileName, split.extendName);
    const userFileId = await repo.insertEntry(trx, {
      space: area.space,
      file_path: parent,
      file_name: fileName,
      extend_name: split.extendName,
      is_dir: 0,
      blob_id: blobId,
      file_size: blob.size,
      upload_time: now,
      image_width: dims?.width ?? null,
      image_height: dims?.height ?? null,
      created_by: area.userId,
    });
    return {
      userFileId,
      filePath: parent,
      fileName,
      extendName: split.extendName,
      md5: blob.md5,
      size: blob.size,
    };
  }

  /** Refuses a full name a live file or folder of the folder already shows (exact placement). */
  async function assertNameFree(q: Db, area: Area, folder: string, fullName: string) {
    if ((await repo.findLiveByFullName(q, area.space, folder, fullName)).length) throw conflict(SAME_NAME);
  }

  /** Inside a transaction: puts a live item (a folder with its live subtree) into the bin as one batch. */
  async function binRow(q: Db, area: Area, r: FileRow, now: number): Promise<number> {
    const batch = randomUUID();
    const rid = await repo.insertRecovery(q, {
      space: area.space,
      user_file_id: r.id,
      delete_batch_num: batch,
      delete_time: now,
      deleted_by: area.userId,
    });
    const item = { id: r.id, folderPath: r.is_dir ? pathOf(r) : null };
    await repo.binItem(q, area.space, item, { flag: rid, time: now, batch });
    return rid;
  }

  /**
   * Inside a transaction: makes `fullName` free in folder `target` for `source` (copyTo, moveTo).
   * Whatever shows that name there goes into the recycle bin when `replace`, else the call is
   * refused; an item that holds the source itself is never binned to make room for it.
   */
  async function clearPlace(
    q: Db,
    area: Area,
    target: string,
    fullName: string,
    replace: boolean,
    source: FileRow,
    now: number,
  ): Promise<boolean> {
    const taken = await repo.findLiveByFullName(q, area.space, target, fullName);
    if (!taken.length) return false;
    if (!replace) throw conflict(SAME_NAME);
    for (const t of taken) {
      if (t.id === source.id || (t.is_dir && isSelfOrInside(pathOf(t), source.file_path))) {
        throw invalid(REPLACE_ANCESTOR);
      }
    }
    for (const t of taken) await binRow(q, area, t, now);
    return true;
  }

  function checkNames(fullName: string, filePath: string) {
    const nameErr = nameProblem(fullName, '文件名称');
    if (nameErr) throw invalid(nameErr);
    const pathErr = pathProblem(filePath);
    if (pathErr) throw invalid(pathErr);
  }

  // ------------------------------------------------------------ helpers inside transactions

  /** The first free name for `fileName.ext` in a folder (the collision rule). */
  async function free(q: Db, space: string, path: string, fileName: string, extendName: string) {
    const names = await repo.namesLike(q, space, path, fileName, extendName);
    return freeName(fileName, extendName, new Set(names.map((n) => joinName(n, extendName))));
  }

  async function folderExists(q: Db, space: string, path: string) {
    if (path === ROOT) return true;
    const name = path.slice(parentPath(path).length, -1);
    const row = await repo.findLiveByName(q, space, parentPath(path), name, '');
    return row?.is_dir === 1;
  }

  /** An empty listing is of an empty folder, or of none: say which. */
  async function mustExist(area: Area, path: string) {
    if (!(await folderExists(db, area.space, path))) throw notFound('文件夹不存在或已被删除');
  }

  async function assertTarget(q: Db, space: string, path: string) {
    if (!(await folderExists(q, space, path))) throw notFound(TARGET_MISSING);
  }

  /**
   * Makes sure every folder of `path` exists, creating missing ones. A segment taken by a file
   * of the same name gets a free folder name instead, so the answer is the path actually used.
   * Paths are only checked for shape (pathProblem), so a folder this makes is a new name and
   * meets the full rule (nameProblem: no spoofing characters, nothing Windows cannot store),
   * unless `restoring` brings back folders that existed before (made under older rules).
   */
  async function ensureFolders(
    q: Db,
    area: Area,
    path: string,
    now: number,
    restoring = false,
  ): Promise<string> {
    let cur = ROOT;
    for (const seg of path.split('/').filter(Boolean)) {
      const existing = await repo.findLiveByName(q, area.space, cur, seg, '');
      if (existing?.is_dir === 1) {
        cur = folderPath(cur, seg);
        continue;
      }
      const problem = restoring ? null : nameProblem(seg, '文件夹名称');
      if (problem) throw invalid(problem);
      const name = existing ? await free(q, area.space, cur, seg, '') : seg;
      await repo.insertEntry(q, newFolder(area, cur, name, now));
      cur = folderPath(cur, name);
    }
    return cur;
  }

  function newFolder(area: Area, path: string, name: string, now: number): repo.NewFileRow {
    return {
      space: area.space,
      file_path: path,
      file_name: name,
      extend_name: '',
      is_dir: 1,
      blob_id: null,
      file_size: 0,
      upload_time: now,
      created_by: area.userId,
    };
  }

  /**
   * The live rows of a selection, in the order asked. Any id not live in the area fails the
   * whole call; items inside another selected folder are dropped, as they travel with it.
   */
  async function selection(q: Db, area: Area, ids: number[]): Promise<FileRow[]> {
    const rows = await repo.findLiveMany(q, area.space, ids);
    if (rows.length !== new Set(ids).size) throw notFound(NOT_FOUND);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const ordered = [...new Set(ids)].map((id) => byId.get(id)!);
    return topLevel(
      ordered,
      (r) => (r.is_dir === 1 ? pathOf(r) : null),
      (r) => r.file_path,
    );
  }

  async function quotaBytes(q: Db, userId: number) {
    return (await repo.quotaOf(q, userId)) ?? defaultQuotaBytes;
  }

  /**
   * Refuses adding `bytes` to a personal drive that has less room. Shared areas have no quota.
   * Room held by the person's unfinished uploads is not free (issue 16 §1), except that of
   * `exceptSession` (the upload asking). Inside a transaction the person's row is locked
   * first, so the check and the caller's write are one step against any other.
   */
  async function assertRoom(q: Db, area: Area, bytes: number, exceptSession?: string) {
    if (area.quotaUserId === null || bytes <= 0) return;
    if (q.isTransaction) await repo.lockPerson(q, area.quotaUserId);
    const total = await quotaBytes(q, area.quotaUserId);
    const used = await repo.usedBytes(q, area.space);
    const reserved = await repo.reservedBytes(q, area.space, exceptSession);
    if (used + reserved + bytes > total) {
      // Name the held room too: cancelling an upload that is not needed is what frees it.
      const held =
        reserved > 0 ? `（其中 ${formatSize(reserved)} 被未完成的上传占用，取消不需要的上传可腾出空间）` : '';
      throw new QuotaError(
        `存储空间不足：还剩 ${formatSize(Math.max(0, total - used - reserved))}，需要 ${formatSize(bytes)}${held}`,
      );
    }
  }

  /** Removes the bytes of blobs whose rows are gone, unless an upload brought them back meanwhile. */
  async function removeBlobs(md5s: string[]) {
    for (const md5 of md5s) {
      await withBlobLock(md5, async () => {
        if (!(await repo.findBlob(db, md5))) await store.remove(md5);
      });
    }
  }

  /**
   * A merge target must not contain the item being placed: merging a folder into one of its own
   * ancestors (or itself, when copying into its own parent) would pour it into itself. The
   * collision rule then gives it a free name instead.
   */
  function canMergeInto(existing: FileRow | undefined, source: FileRow): existing is FileRow {
    return existing?.is_dir === 1 && !isSelfOrInside(pathOf(existing), pathOf(source));
  }

  // ------------------------------------------------------------ trees (unzip)

  /**
   * Inside a transaction: the rows of a tree under `input.target` (made first with
   * `createTarget`), charging `bytes` to the quota; folders merge with live folders of their
   * name, files follow the collision rule. Answers the target and the top-level names.
   */
  async function placeTree(
    trx: Db,
    area: Area,
    input: { target: string; createTarget?: boolean; items: PlacedItem[] },
    bytes: number,
  ) {
    const now = Date.now();
    let target = input.target;
    if (input.createTarget) {
      await assertTarget(trx, area.space, parentPath(target));
      target = await ensureFolders(trx, area, target, now);
    } else {
      await assertTarget(trx, area.space, target);
    }
    await assertRoom(trx, area, bytes);
    const names: string[] = [];
    // Archive folder (segments joined by '/') → the drive folder it became.
    const made = new Map<string, string>([['', target]]);
    const folder = async (segs: string[]): Promise<string> => {
      let key = '';
      let cur = target;
      for (const seg of segs) {
        key = key ? `${key}/${seg}` : seg;
        const known = made.get(key);
        if (known) {
          cur = known;
          continue;
        }
        const existing = await repo.findLiveByName(trx, area.space, cur, seg, '');
        let name = seg;
        if (existing?.is_dir !== 1) {
          if (existing) name = await free(trx, area.space, cur, seg, '');
          // Deep trees (an archive's, a share's) may outgrow the longest path the drive keeps.
          const tooLong = pathProblem(folderPath(cur, name));
          if (tooLong) throw invalid(tooLong);
          await repo.insertEntry(trx, newFolder(area, cur, name, now));
        }
        if (cur === target) names.push(name);
        cur = folderPath(cur, name);
        made.set(key, cur);
      }
      return cur;
    };
    const files: StoredFile[] = [];
    for (const item of input.items) {
      if (item.isDir) {
        await folder([...item.dir, item.name]);
        continue;
      }
      const blob = item.blob;
      if (!blob) continue;
      const parent = await folder(item.dir);
      const placed = await insertFile(trx, area, parent, item.name, blob, now, item.dims);
      if (parent === target) names.push(joinName(placed.fileName, placed.extendName));
      files.push({
        area,
        userFileId: placed.userFileId,
        md5: blob.md5,
        size: blob.size,
        extendName: placed.extendName,
      });
    }
    return { filePath: target, names, files };
  }

  // ------------------------------------------------------------ copy, move, restore

  async function copyNode(q: Db, area: Area, row: FileRow, target: string, now: number) {
    if (row.is_dir === 0) {
      const name = await free(q, area.space, target, row.file_name, row.extend_name);
      await repo.insertEntry(q, {
        space: area.space,
        file_path: target,
        file_name: name,
        extend_name: row.extend_name,
        is_dir: 0,
        blob_id: row.blob_id,
        file_size: row.file_size,
        upload_time: now,
        image_width: row.image_width,
        image_height: row.image_height,
        created_by: area.userId,
      });
      return;
    }
    const existing = await repo.findLiveByName(q, area.space, target, row.file_name, '');
    if (canMergeInto(existing, row)) {
      for (const child of await repo.liveChildren(q, area.space, pathOf(row))) {
        await copyNode(q, area, child, pathOf(existing), now);
      }
      return;
    }
    const name = existing ? await free(q, area.space, target, row.file_name, '') : row.file_name;
    await repo.insertEntry(q, newFolder(area, target, name, now));
    await repo.copySubtree(q, area.space, pathOf(row), folderPath(target, name), now, area.userId);
  }

  async function moveNode(q: Db, area: Area, row: FileRow, target: string) {
    if (row.is_dir === 0) {
      const name = await free(q, area.space, target, row.file_name, row.extend_name);
      await repo.updateEntry(q, area.space, row.id, { file_path: target, file_name: name });
      return;
    }
    const existing = await repo.findLiveByName(q, area.space, target, row.file_name, '');
    if (canMergeInto(existing, row)) {
      for (const child of await repo.liveChildren(q, area.space, pathOf(row))) {
        await moveNode(q, area, child, pathOf(existing));
      }
      // Emptied by the merge. Recycled items that were inside keep their path; restoring them
      // recreates the folder.
      await repo.deleteRow(q, area.space, row.id);
      return;
    }
    const name = existing ? await free(q, area.space, target, row.file_name, '') : row.file_name;
    await repo.updateEntry(q, area.space, row.id, { file_path: target, file_name: name });
    await repo.rewritePrefix(q, area.space, pathOf(row), folderPath(target, name), 'all');
  }

  async function restoreNode(q: Db, area: Area, row: FileRow, target: string, batch: string) {
    if (row.is_dir === 0) {
      const name = await free(q, area.space, target, row.file_name, row.extend_name);
      await repo.updateEntry(q, area.space, row.id, { file_path: target, file_name: name, unbin: true });
      return;
    }
    const existing = await repo.findLiveByName(q, area.space, target, row.file_name, '');
    if (existing?.is_dir === 1) {
      for (const child of await repo.batchChildren(q, area.space, batch, pathOf(row))) {
        await restoreNode(q, area, child, pathOf(existing), batch);
      }
      await repo.deleteRow(q, area.space, row.id);
      return;
    }
    const name = existing ? await free(q, area.space, target, row.file_name, '') : row.file_name;
    await repo.updateEntry(q, area.space, row.id, { file_path: target, file_name: name, unbin: true });
    await repo.rewritePrefix(q, area.space, pathOf(row), folderPath(target, name), { batch });
  }

  // ------------------------------------------------------------ zips

  async function zipEntriesOf(q: Db, area: Area, rows: FileRow[]): Promise<ZipEntry[]> {
    const entries: ZipEntry[] = [];
    const taken = new Set<string>();
    for (const row of rows) {
      // Items picked from different folders may share a name; inside one zip they must not.
      const top = freeName(row.file_name, row.is_dir ? '' : row.extend_name, taken);
      const topName = row.is_dir ? top : joinName(top, row.extend_name);
      taken.add(topName);
      const mtime = Number(row.upload_time);
      if (row.is_dir === 0) {
        const blob = await repo.blobOf(q, area.space, row.id);
        if (!blob) throw notFound(NOT_FOUND);
        entries.push({ dir: false, name: topName, md5: blob.md5, size: Number(blob.size), mtime });
        continue;
      }
      entries.push({ dir: true, name: `${topName}/`, mtime });
      const base = pathOf(row);
      for (const d of await repo.liveSubtreeWithBlobs(q, area.space, base)) {
        const rel = `${topName}/${d.file_path.slice(base.length)}`;
        const t = Number(d.upload_time);
        if (d.is_dir === 1) entries.push({ dir: true, name: `${rel}${d.file_name}/`, mtime: t });
        else if (d.md5)
          entries.push({
            dir: false,
            name: rel + joinName(d.file_name, d.extend_name),
            md5: d.md5,
            size: Number(d.file_size),
            mtime: t,
          });
      }
    }
    return entries;
  }

  // ------------------------------------------------------------ the calls

  const service = {
    /**
     * A folder's page, folders first: the folder's stored counts (one row, whatever its size)
     * and one page query read from the nearer end, never one per row.
     */
    async list(area: Area, q: Out<typeof GetFileListQuery>): Promise<FileList> {
      if (q.currentPage === 1) {
        // The page a folder opens on: counts and rows in one statement (listFirstPage).
        const first = await repo.listFirstPage(db, area.space, q.filePath, q);
        if (first.total === 0) await mustExist(area, q.filePath);
        return { list: first.rows.map(toEntry), total: first.total };
      }
      const { total, dirs } = await repo.folderCounts(db, area.space, q.filePath);
      if (total === 0) await mustExist(area, q.filePath);
      const offset = (q.currentPage - 1) * q.pageCount;
      const dirOffset = Math.min(offset, dirs);
      const dirLimit = Math.max(0, Math.min(offset + q.pageCount, dirs) - dirOffset);
      const rows = await repo.listFolderPage(db, area.space, q.filePath, {
        sort: q.sort,
        order: q.order,
        dirOffset,
        dirLimit,
        fileOffset: Math.max(0, offset - dirs),
        fileLimit: q.pageCount - dirLimit,
        dirs,
        files: total - dirs,
      });
      return { list: rows.map(toEntry), total };
    },

    /** Files of a category across every folder of the caller's own drive. */
    async byType(area: Area, q: Out<typeof ByTypeQuery>): Promise<FileList> {
      const type = q.fileType as 1 | 2 | 3 | 4 | 5;
      const exts = type === 5 ? Object.values(CATEGORY_EXTS).flat() : CATEGORY_EXTS[type];
      const { rows, total } = await repo.listCategory(db, area.space, {
        exts,
        exclude: type === 5,
        sort: q.sort,
        order: q.order,
        limit: q.pageCount,
        offset: (q.currentPage - 1) * q.pageCount,
      });
      return { list: rows.map(toEntry), total };
    },

    /** The newest files, wherever they are in the drive. */
    async recent(area: Area, limit: number): Promise<FileEntry[]> {
      return (await repo.recentFiles(db, area.space, limit)).map(toEntry);
    },

    /** The folder tree; a node's id is its folder's userFileId and its filePath the folder's own path. */
    async tree(area: Area): Promise<TreeNode> {
      const root: TreeNode = { id: 0, label: ROOT, filePath: ROOT, children: [] };
      const byPath = new Map<string, TreeNode>([[ROOT, root]]);
      // Sorted by path, a parent's row always comes before its children's rows.
      for (const r of await repo.allFolders(db, area.space)) {
        const parent = byPath.get(r.file_path);
        if (!parent) continue;
        const node: TreeNode = { id: r.id, label: r.file_name, filePath: pathOf(r), children: [] };
        parent.children.push(node);
        byPath.set(node.filePath, node);
      }
      return root;
    },

    /**
     * One entry of the area; entries in its recycle bin too when `withBinned` (the bin's details
     * dialog shows deleteTime), which the caller grants to those who may see that bin.
     */
    async detail(area: Area, id: number, withBinned: boolean): Promise<FileEntry> {
      const row = await repo.findAny(db, area.space, id);
      if (!row || (row.delete_flag !== 0 && !withBinned)) throw notFound(NOT_FOUND);
      return toEntry(row);
    },

    /** Live entries whose full name contains the text; hits as offsets, never HTML. */
    async search(area: Area, q: Out<typeof SearchQuery>): Promise<{ list: SearchHit[]; total: number }> {
      const { rows, total } = await repo.search(
        db,
        area.space,
        q.fileName,
        q.pageCount,
        (q.currentPage - 1) * q.pageCount,
      );
      const list = rows.map((r) => ({
        ...toEntry(r),
        highlightFields: highlightFields(joinName(r.file_name, r.extend_name), q.fileName),
      }));
      return { list, total };
    },

    /** A new folder; its parent must exist and the name must be free. */
    async createFolder(area: Area, b: { fileName: string; filePath: string }) {
      return db.transaction().execute(async (trx) => {
        await assertTarget(trx, area.space, b.filePath);
        if (await repo.findLiveByName(trx, area.space, b.filePath, b.fileName, '')) throw conflict(SAME_NAME);
        const userFileId = await repo.insertEntry(trx, newFolder(area, b.filePath, b.fileName, Date.now()));
        return { userFileId };
      });
    },

    /** Renames an item; a folder's whole subtree follows in the same transaction. */
    async rename(area: Area, b: { userFileId: number; fileName: string }) {
      await db.transaction().execute(async (trx) => {
        const row = await repo.findLive(trx, area.space, b.userFileId);
        if (!row) throw notFound(NOT_FOUND);
        // A folder's name is all name: `v1.2` stays `v1.2`, with no extension split off.
        const next = row.is_dir ? { fileName: b.fileName, extendName: '' } : splitName(b.fileName);
        if (next.fileName === row.file_name && next.extendName === row.extend_name) return;
        const clash = await repo.findLiveByName(
          trx,
          area.space,
          row.file_path,
          next.fileName,
          next.extendName,
        );
        if (clash && clash.id !== row.id) throw conflict(SAME_NAME);
        await repo.updateEntry(trx, area.space, row.id, {
          file_name: next.fileName,
          extend_name: next.extendName,
        });
        if (row.is_dir) {
          await repo.rewritePrefix(
            trx,
            area.space,
            pathOf(row),
            folderPath(row.file_path, next.fileName),
            'all',
          );
        }
      });
    },

    /** Copies items into a folder: blobs are shared, the quota is charged by logical size. */
    async copy(area: Area, ids: number[], target: string) {
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        const rows = await selection(trx, area, ids);
        await assertTarget(trx, area.space, target);
        let bytes = 0;
        for (const r of rows) {
          if (r.is_dir && isSelfOrInside(pathOf(r), target)) throw invalid(COPY_INTO_SELF);
          bytes += r.is_dir ? await repo.liveSubtreeBytes(trx, area.space, pathOf(r)) : Number(r.file_size);
        }
        await assertRoom(trx, area, bytes);
        for (const r of rows) await copyNode(trx, area, r, target, now);
      });
    },

    /** Live folders (and with `files`, files whose name contains `name`) of some spaces: a picker's tree. */
    liveTreeOf(spaces: string[], opts: { files: boolean; name: string }) {
      return repo.liveTreeOf(db, spaces, opts);
    },

    /** The path of folder `folderId` of the area (-1: the root); any other id: TARGET_MISSING. */
    async folderPathOf(area: Area, folderId: number, q: Db = db): Promise<string> {
      if (folderId === -1) return ROOT;
      const row = await repo.findLive(q, area.space, folderId);
      if (row?.is_dir !== 1) throw notFound(TARGET_MISSING);
      return pathOf(row);
    },

    /**
     * Whether an item of the same name as `id` (of area `from`) is in folder `folderId` of area
     * `to`: asked before moveAcross, which would otherwise give the item a free name.
     */
    async clashAcross(from: Area, to: Area, id: number, folderId: number): Promise<boolean> {
      const row = await repo.findLive(db, from.space, id);
      if (!row) throw (await repo.findAny(db, from.space, id)) ? invalid(IN_BIN) : notFound(NOT_FOUND);
      const target = await service.folderPathOf(to, folderId);
      return (await repo.findLiveByName(db, to.space, target, row.file_name, row.extend_name)) !== undefined;
    },

    /**
     * Moves items of area `from` (a folder with its live subtree) into folder `folderId` of area
     * `to`, all or nothing, in one transaction; ids keep. A name taken there gets the first free
     * name (as a move in the drive does; the UI asks first). Bytes leave `from`'s quota and are
     * charged to `to`'s, if it has one. `then` writes the caller's own lines (a history entry)
     * in the same transaction. Answers the names used.
     */
    async moveAcross(
      from: Area,
      to: Area,
      ids: number[],
      folderId: number,
      then?: (trx: Db, names: string[]) => Promise<unknown>,
    ): Promise<string[]> {
      return db.transaction().execute(async (trx) => {
        const live = await repo.findLiveMany(trx, from.space, ids);
        if (live.length !== new Set(ids).size) {
          for (const id of ids) {
            if (live.some((r) => r.id === id)) continue;
            throw (await repo.findAny(trx, from.space, id)) ? invalid(IN_BIN) : notFound(NOT_FOUND);
          }
        }
        const rows = await selection(trx, from, ids);
        const target = await service.folderPathOf(to, folderId, trx);
        let bytes = 0;
        for (const r of rows) {
          bytes += r.is_dir ? await repo.liveSubtreeBytes(trx, from.space, pathOf(r)) : Number(r.file_size);
        }
        await assertRoom(trx, to, bytes);
        const names: string[] = [];
        for (const r of rows) {
          const name = await free(trx, to.space, target, r.file_name, r.extend_name);
          await repo.moveRowToSpace(trx, from.space, r.id, to.space, { file_path: target, file_name: name });
          if (r.is_dir) {
            await repo.moveLiveSubtreeToSpace(trx, from.space, to.space, pathOf(r), folderPath(target, name));
          }
          names.push(joinName(name, r.extend_name));
        }
        await then?.(trx, names);
        return names;
      });
    },

    /** Moves items into a folder, all or nothing; moving into the current folder changes nothing. */
    async move(area: Area, ids: number[], target: string) {
      await db.transaction().execute(async (trx) => {
        const rows = await selection(trx, area, ids);
        await assertTarget(trx, area.space, target);
        for (const r of rows) {
          if (r.is_dir && isSelfOrInside(pathOf(r), target)) throw invalid(MOVE_INTO_SELF);
        }
        for (const r of rows) if (r.file_path !== target) await moveNode(trx, area, r, target);
      });
    },

    // ---- WebDAV (server/modules/dav): the same rules, with the exact names a URL gives.

    /**
     * The live entries a folder shows as `fullName`: a file `name.ext` and a folder of that
     * name may both exist, so up to two rows, folders first.
     */
    async entryNamed(area: Area, folder: string, fullName: string): Promise<FileRow[]> {
      const rows = await repo.findLiveByFullName(db, area.space, folder, fullName);
      return rows.sort((a, b) => b.is_dir - a.is_dir);
    },

    /** A page of a folder's live entries with their content keys (folders first, by name). */
    childrenPage: (area: Area, folder: string, offset: number, limit: number) =>
      repo.folderPageWithBlobs(db, area.space, folder, offset, limit),

    /** A live file's content key and size, or undefined. */
    contentOf: (area: Area, userFileId: number) => repo.blobOf(db, area.space, userFileId),

    /**
     * Copies one item into folder `target` under exactly `fullName` (WebDAV COPY), in one
     * transaction: an item showing that name there is put into the recycle bin first when
     * `replace` (else 同名文件已存在), a folder comes with its live subtree unless `shallow`,
     * blobs are shared and the quota is charged the bytes copied. `then` runs last in the same
     * transaction with the new row's id. Answers that id and whether something was replaced.
     */
    async copyTo(
      area: Area,
      userFileId: number,
      target: string,
      fullName: string,
      opts: { replace: boolean; shallow?: boolean; then?: (trx: Db, newId: number) => Promise<void> },
    ): Promise<{ userFileId: number; replaced: boolean }> {
      const now = Date.now();
      return db.transaction().execute(async (trx) => {
        const row = await repo.findLive(trx, area.space, userFileId);
        if (!row) throw notFound(NOT_FOUND);
        const next = row.is_dir ? { fileName: fullName, extendName: '' } : splitName(fullName);
        const problem = nameProblem(fullName, row.is_dir ? '文件夹名称' : '文件名称');
        if (problem) throw invalid(problem);
        await assertTarget(trx, area.space, target);
        if (row.is_dir && isSelfOrInside(pathOf(row), target)) throw invalid(COPY_INTO_SELF);
        const replaced = await clearPlace(trx, area, target, fullName, opts.replace, row, now);
        const bytes = row.is_dir
          ? opts.shallow
            ? 0
            : await repo.liveSubtreeBytes(trx, area.space, pathOf(row))
          : Number(row.file_size);
        await assertRoom(trx, area, bytes);
        let newId: number;
        if (row.is_dir) {
          newId = await repo.insertEntry(trx, newFolder(area, target, next.fileName, now));
          if (!opts.shallow) {
            await repo.copySubtree(
              trx,
              area.space,
              pathOf(row),
              folderPath(target, next.fileName),
              now,
              area.userId,
            );
          }
        } else {
          newId = await repo.insertEntry(trx, {
            space: area.space,
            file_path: target,
            file_name: next.fileName,
            extend_name: next.extendName,
            is_dir: 0,
            blob_id: row.blob_id,
            file_size: row.file_size,
            upload_time: now,
            image_width: row.image_width,
            image_height: row.image_height,
            created_by: area.userId,
          });
        }
        await opts.then?.(trx, newId);
        return { userFileId: newId, replaced };
      });
    },

    /**
     * Moves (and renames) one item into folder `target` under exactly `fullName` (WebDAV MOVE),
     * in one transaction: its id stays, a folder's whole subtree follows (recycled descendants
     * too, as rename and move do), and an item showing that name there is put into the recycle
     * bin first when `replace` (else 同名文件已存在). Answers whether something was replaced.
     */
    async moveTo(
      area: Area,
      userFileId: number,
      target: string,
      fullName: string,
      opts: { replace: boolean },
    ): Promise<{ replaced: boolean }> {
      const now = Date.now();
      return db.transaction().execute(async (trx) => {
        const row = await repo.findLive(trx, area.space, userFileId);
        if (!row) throw notFound(NOT_FOUND);
        const next = row.is_dir ? { fileName: fullName, extendName: '' } : splitName(fullName);
        if (
          row.file_path === target &&
          row.file_name === next.fileName &&
          row.extend_name === next.extendName
        ) {
          return { replaced: false };
        }
        const problem = nameProblem(fullName, row.is_dir ? '文件夹名称' : '文件名称');
        if (problem) throw invalid(problem);
        await assertTarget(trx, area.space, target);
        if (row.is_dir && isSelfOrInside(pathOf(row), target)) throw invalid(MOVE_INTO_SELF);
        const replaced = await clearPlace(trx, area, target, fullName, opts.replace, row, now);
        await repo.updateEntry(trx, area.space, row.id, {
          file_path: target,
          file_name: next.fileName,
          extend_name: next.extendName,
        });
        if (row.is_dir) {
          await repo.rewritePrefix(trx, area.space, pathOf(row), folderPath(target, next.fileName), 'all');
        }
        return { replaced };
      });
    },

    /**
     * Deletes items: mode 1 puts each selected item with its live subtree into the bin as one
     * batch with one bin entry (answering the entries' ids); mode 2 removes them for good and
     * frees the blobs nothing references any more.
     */
    async remove(area: Area, ids: number[], mode: number): Promise<number[]> {
      const now = Date.now();
      const { recoveryIds, freed } = await db.transaction().execute(async (trx) => {
        const rows = await selection(trx, area, ids);
        const recoveryIds: number[] = [];
        const blobIds: number[] = [];
        for (const r of rows) {
          const item = { id: r.id, folderPath: r.is_dir ? pathOf(r) : null };
          if (mode === 2) {
            blobIds.push(...(await repo.deleteLiveItem(trx, area.space, item)));
            continue;
          }
          recoveryIds.push(await binRow(trx, area, r, now));
        }
        return { recoveryIds, freed: await repo.deleteOrphanBlobs(trx, blobIds) };
      });
      await removeBlobs(freed);
      return recoveryIds;
    },

    /** The area's recycle bin: the top item of each batch, newest first. */
    async recoveryList(area: Area): Promise<{ list: RecoveryEntry[]; total: number }> {
      const rows = await repo.listRecovery(db, area.space);
      return {
        list: rows.map((r) => ({ ...toEntry(r), recoveryFileId: r.recovery_id })),
        total: rows.length,
      };
    },

    /** Empties bin entries for good (whole batches); all or nothing. */
    async purge(area: Area, recoveryIds: number[]) {
      const freed = await db.transaction().execute(async (trx) => {
        const recs = await repo.findRecoveriesByIds(trx, area.space, recoveryIds);
        if (recs.length !== new Set(recoveryIds).size) throw notFound(RECOVERY_GONE);
        const blobIds: number[] = [];
        for (const rec of recs) {
          await repo.deleteRecovery(trx, area.space, rec.id);
          blobIds.push(...(await repo.deleteBatch(trx, area.space, rec.delete_batch_num)));
        }
        return repo.deleteOrphanBlobs(trx, blobIds);
      });
      await removeBlobs(freed);
    },

    /**
     * Brings a batch back where it was, recreating missing parent folders; the top item follows
     * the collision rule (a file gets name(n), a folder merges into a live one of its name).
     * The batch's own stored place is the truth; `filePath` of the request only names it.
     */
    async restore(area: Area, b: { deleteBatchNum: string }) {
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        const rec = await repo.findRecoveryByBatch(trx, area.space, b.deleteBatchNum);
        const top = rec && (await repo.findAny(trx, area.space, rec.user_file_id));
        if (!rec || !top) throw notFound(RESTORE_GONE);
        await repo.deleteRecovery(trx, area.space, rec.id);
        const parent = await ensureFolders(trx, area, top.file_path, now, true);
        await restoreNode(trx, area, top, parent, b.deleteBatchNum);
      });
    },

    /** What filetransfer/downloadfile sends: a file's blob, or a zip plan of folders and items. */
    async download(area: Area, q: { userFileId?: number; userFileIds?: string }): Promise<DownloadPlan> {
      const ids = q.userFileIds ? q.userFileIds.split(',').map(Number) : q.userFileId ? [q.userFileId] : [];
      if (!ids.length) throw invalid('请选择要下载的文件');
      const rows = await selection(db, area, ids);
      const first = rows[0]!;
      if (rows.length === 1 && first.is_dir === 0 && !q.userFileIds) {
        const blob = await repo.blobOf(db, area.space, first.id);
        if (!blob) throw notFound(NOT_FOUND);
        return {
          kind: 'file',
          name: joinName(first.file_name, first.extend_name),
          md5: blob.md5,
          size: Number(blob.size),
          mtime: Number(first.upload_time),
        };
      }
      const firstName = joinName(first.file_name, first.extend_name);
      const name = rows.length === 1 ? `${firstName}.zip` : `${firstName}等${rows.length}个文件.zip`;
      return { kind: 'zip', name, entries: await zipEntriesOf(db, area, rows) };
    },

    /**
     * Saves edited text (file/update): the text editors' use of replaceContent, which refuses
     * an unchanged save and anything that is not a text file.
     */
    async updateContent(area: Area, q: { userFileId: number; fileContent: string }) {
      const r = await this.replaceContent(area, q.userFileId, Buffer.from(q.fileContent, 'utf8'), {
        editable: (ext) => previewKind(ext) === 'text',
        unchanged: 'refuse',
      });
      return { fileSize: r.fileSize };
    },

    /**
     * Points one file at new bytes (text edits, office saves). Blobs are immutable and shared by
     * MD5, so this changes what this one entry holds and never what other files or people see
     * (copy on write). The size difference is charged to the quota; content left unreferenced is
     * freed. `editable` says which extensions may change this way; equal bytes are refused or,
     * with `unchanged: 'ignore'`, answered as a no-op (`changed: false`).
     *
     * `expectMd5` makes it a compare-and-swap: when the file no longer holds that content (and
     * not already the new bytes either), nothing is written and ContentChanged is thrown. The
     * check and the write are one transaction under the entry's row lock.
     */
    async replaceContent(
      area: Area,
      userFileId: number,
      content: Buffer | Readable,
      opts: {
        editable: (extendName: string) => boolean;
        unchanged: 'refuse' | 'ignore';
        maxBytes?: number;
        expectMd5?: string;
      },
    ) {
      const row = await repo.findLive(db, area.space, userFileId);
      if (!row || row.is_dir === 1) throw notFound(NOT_FOUND);
      if (!opts.editable(row.extend_name)) throw invalid('该文件不能在线编辑');
      const opened = await repo.blobOf(db, area.space, row.id);
      if (!opened) throw notFound(NOT_FOUND);
      let old = opened;
      let already = false;
      const staged = await store.stage(content, { maxBytes: opts.maxBytes });
      const changed = (current: string) =>
        new ContentChanged(
          { filePath: row.file_path, fileName: row.file_name, extendName: row.extend_name },
          current,
        );
      try {
        if (staged.md5 === old.md5) {
          if (opts.unchanged === 'refuse') throw invalid('文件内容未修改，无需保存');
          return { fileSize: staged.size, md5: staged.md5, changed: false };
        }
        if (opts.expectMd5 !== undefined && old.md5 !== opts.expectMd5) throw changed(old.md5);
        const freed = await withBlobLock(staged.md5, async () => {
          await staged.commit();
          try {
            return await db.transaction().execute(async (trx) => {
              if (opts.expectMd5 !== undefined) {
                // Read again under the row lock: another save may have landed since.
                await repo.lockEntry(trx, area.space, row.id);
                const now = await repo.blobOf(trx, area.space, row.id);
                if (!now) throw notFound(NOT_FOUND);
                if (now.md5 === staged.md5) {
                  already = true; // another save of these very bytes landed first
                  return [];
                }
                if (now.md5 !== opts.expectMd5) throw changed(now.md5);
                old = now;
              }
              await assertRoom(trx, area, staged.size - Number(old.size));
              const blobId =
                (await repo.findBlob(trx, staged.md5))?.id ??
                (await repo.insertBlob(trx, staged.md5, staged.size));
              const before = await repo.findBlob(trx, old.md5);
              await repo.updateEntry(trx, area.space, row.id, {
                blob_id: blobId,
                file_size: staged.size,
                upload_time: Date.now(),
                image_width: null,
                image_height: null,
              });
              return repo.deleteOrphanBlobs(trx, before ? [before.id] : []);
            });
          } catch (err) {
            if (!(await repo.findBlob(db, staged.md5))) await store.remove(staged.md5);
            throw err;
          }
        });
        await removeBlobs(freed);
        return { fileSize: staged.size, md5: staged.md5, changed: !already };
      } finally {
        await staged.discard();
      }
    },

    /** One file of the area for the previewers, with how it is previewed. */
    async preview(area: Area, userFileId: number) {
      const plan = await this.download(area, { userFileId });
      if (plan.kind !== 'file') throw invalid('文件夹不能预览，请打开后查看');
      const dot = plan.name.lastIndexOf('.');
      const kind = previewKind(dot > 0 ? plan.name.slice(dot + 1) : '');
      if (!kind) throw invalid('该文件暂不支持在线查看，请下载后查看');
      return { plan, kind };
    },

    /** Bytes used (live and binned files) in the caller's own drive, and the quota. */
    async storage(userId: number, space: string): Promise<StorageInfo> {
      return { storageSize: await repo.usedBytes(db, space), totalStorageSize: await quotaBytes(db, userId) };
    },

    userExists: (userId: number) => repo.userExists(db, userId),

    /** An administrator sets one person's quota in bytes. */
    async setQuota(userId: number, totalBytes: number) {
      if (!(await repo.userExists(db, userId))) throw notFound('该员工不存在，请刷新后重试');
      await repo.setQuota(db, userId, totalBytes);
    },

    /**
     * Stores bytes as a new file (the upload, unzip and office issues call this). The MD5 is
     * computed here while writing; equal bytes share one blob. Missing folders are created, a
     * clashing name gets name(n), and the quota is checked against the real size.
     */
    async addFile(input: AddFileInput) {
      checkNames(input.fullName, input.filePath);
      const { area, content } = input;
      const given = isStaged(content);
      const staged = given ? content : await store.stage(content, { maxBytes: input.maxBytes });
      try {
        if (input.expect && (staged.md5 !== input.expect.md5 || staged.size !== input.expect.size)) {
          throw invalid(CHECK_FAILED);
        }
        const placed = await withBlobLock(staged.md5, async () => {
          // Bytes first, row second: a row never points at bytes that are not there yet.
          await staged.commit();
          try {
            const dims = await dimsOf(input.fullName, staged.md5, staged.size);
            return await db.transaction().execute(async (trx) => {
              if (input.requireFolder) await assertTarget(trx, area.space, input.filePath);
              return placeFile(
                trx,
                area,
                input.filePath,
                input.fullName,
                staged,
                input.onCreated,
                dims,
                input.release,
                input.exactName,
              );
            });
          } catch (err) {
            if (!(await repo.findBlob(db, staged.md5))) await store.remove(staged.md5);
            throw err;
          }
        });
        await stored({ area, ...placed });
        return placed;
      } finally {
        if (!given) await staged.discard();
      }
    },

    /**
     * Creates a file from bytes the server already holds (instant upload, when the caller owns
     * that content). Fails with CHECK_FAILED when the blob is not there (any more).
     */
    async addExisting(input: Omit<AddFileInput, 'content' | 'maxBytes' | 'expect'> & { md5: string }) {
      checkNames(input.fullName, input.filePath);
      const placed = await withBlobLock(input.md5, async () => {
        // Under the blob's lock its bytes cannot be removed, so reading them first is safe.
        const known = await repo.findBlob(db, input.md5);
        const dims = known ? await dimsOf(input.fullName, known.md5, Number(known.size)) : null;
        return db.transaction().execute(async (trx) => {
          const blob = await repo.findBlob(trx, input.md5);
          if (!blob) throw invalid(CHECK_FAILED);
          const b = { md5: blob.md5, size: Number(blob.size) };
          return placeFile(
            trx,
            input.area,
            input.filePath,
            input.fullName,
            b,
            input.onCreated,
            dims,
            input.release,
          );
        });
      });
      await stored({ area: input.area, ...placed });
      return placed;
    },

    /**
     * Imports a tree of files held in temporary files (unzip) under `target`, all or nothing:
     * every file is hashed into the blob store first, then every row is written in ONE
     * transaction (quota on the real total, folders merge, files follow the collision rule).
     * On failure no row stays and bytes nothing references are removed. With `createTarget`
     * the target folder itself is made (merging into one of its name) under its existing
     * parent; otherwise the target must exist. Answers the top-level names as created.
     */
    async addTree(input: {
      area: Area;
      target: string;
      createTarget?: boolean;
      items: TreeItem[];
      onStaged?: (files: number, bytes: number) => void;
    }): Promise<{ filePath: string; names: string[] }> {
      const { area, items } = input;
      for (const it of items) {
        checkNames(it.name, ROOT);
        for (const seg of it.dir) checkNames(seg, ROOT);
      }
      const staged: { item: TreeItem; blob: StagedBlob }[] = [];
      try {
        let bytes = 0;
        for (const item of items) {
          if (item.isDir || !item.file) continue;
          const blob = await store.stage(fs.createReadStream(item.file));
          staged.push({ item, blob });
          bytes += blob.size;
          input.onStaged?.(staged.length, bytes);
        }
        const md5s = staged.map((s) => s.blob.md5);
        const result = await withLocks(withBlobLock, md5s, async () => {
          for (const s of staged) await s.blob.commit();
          try {
            const content = new Map<TreeItem, PlacedItem>();
            for (const s of staged) {
              const dims = await dimsOf(s.item.name, s.blob.md5, s.blob.size);
              content.set(s.item, { ...s.item, blob: s.blob, dims });
            }
            const placed = items.map((it) => content.get(it) ?? { ...it, blob: null, dims: null });
            return await db
              .transaction()
              .execute((trx) => placeTree(trx, area, { ...input, items: placed }, bytes));
          } catch (err) {
            for (const md5 of new Set(md5s)) if (!(await repo.findBlob(db, md5))) await store.remove(md5);
            throw err;
          }
        });
        for (const f of result.files) await stored(f);
        return { filePath: result.filePath, names: result.names };
      } finally {
        for (const s of staged) await s.blob.discard();
      }
    },

    /**
     * Places a tree whose content the server already holds (saving a share) into an existing
     * folder of the area, in one transaction: no byte is copied (blobs are shared), the quota is
     * charged the files' sizes, folders merge and files follow the collision rule. Under the
     * blobs' locks, so content being freed meanwhile is refused rather than pointed at.
     */
    async placeExisting(area: Area, target: string, items: ExistingTreeItem[]) {
      const md5s = items.flatMap((it) => (it.blob ? [it.blob.md5] : []));
      const bytes = items.reduce((n, it) => n + (it.blob?.size ?? 0), 0);
      const result = await withLocks(withBlobLock, md5s, () =>
        db.transaction().execute(async (trx) => {
          for (const md5 of new Set(md5s)) {
            if (!(await repo.findBlob(trx, md5))) throw notFound(NOT_FOUND);
          }
          return placeTree(trx, area, { target, items }, bytes);
        }),
      );
      for (const f of result.files) await stored(f);
    },

    /** The bytes a personal drive can still take (held uploads aside); null in the shared areas. */
    async room(area: Area): Promise<number | null> {
      if (area.quotaUserId === null) return null;
      const used = (await repo.usedBytes(db, area.space)) + (await repo.reservedBytes(db, area.space));
      return (await quotaBytes(db, area.quotaUserId)) - used;
    },

    /** Whether a live folder is at `path` in the area ('/' always is). */
    folderExists: (area: Area, path: string) => folderExists(db, area.space, path),

    /**
     * Refuses, before any byte is sent, an upload the area's quota cannot take. `exceptSession`:
     * the upload's own session, whose held room is its own.
     */
    async checkRoom(area: Area, bytes: number, exceptSession?: string) {
      await assertRoom(db, area, bytes, exceptSession);
    },

    /** Inside the caller's transaction: as checkRoom, with the person's row locked first. */
    assertRoomIn: (trx: Db, area: Area, bytes: number, exceptSession?: string) =>
      assertRoom(trx, area, bytes, exceptSession),
  };
  return service;
}
export type DriveService = ReturnType<typeof createDriveService>;
