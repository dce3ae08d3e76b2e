import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AreaQuery,
  BatchDeleteBody,
  BatchMoveBody,
  CopyMoveBody,
  CreateFolderBody,
  DeleteBody,
  FileDetail,
  FileEntry,
  FileList,
  RecoveryEntry,
  RenameBody,
  RestoreBody,
  SearchHit,
  StorageInfo,
  TreeNode,
} from '../../../shared/api/drive';
import { joinName, nameProblem } from '../../../shared/drive/names';
import { drive } from '../../lib/api';
import { useCachedQuery, type CachedView } from '../../lib/cached-query';
import { tDrive } from '../../lib/i18n/drive';
import { outboxEditors, submitWrite } from '../../lib/offline';
import type { NewOp, OutboxOp, SubmitResult } from '../../lib/outbox';
import type { AreaKey, DriveView } from './drive-view';
import {
  overlayCategory,
  overlayFolder,
  overlayRecycle,
  overlayTree,
  type DriveListData,
  type DriveOpKind,
  type DriveOpMeta,
} from './overlay';

/**
 * The drive's reads and writes over the contract in shared/api/drive.ts.
 *
 * Reads are cached on the device per user (lib/cached-query): keys are
 * `['drive', area, what, …]`, so one prefix `['drive', area]` names every view of an area —
 * the scope of every write there (what refreshes after it settles, and what its overlay is
 * drawn over). Writes all go through the outbox, online or not, so an offline change and an
 * online one follow the same path and the same order.
 */

/** Rows per request; the contract's maximum. A folder is read page after page, all of it. */
export const PAGE_SIZE = 1000;
/** Safety stop for the page loop (PAGE_SIZE × this = rows): far beyond any real folder. */
const MAX_PAGES = 500;

type Body<T extends z.ZodType> = z.input<T>;

export const driveKeys = {
  area: (area: AreaKey) => ['drive', area] as const,
  folder: (area: AreaKey, path: string) => ['drive', area, 'folder', path] as const,
  category: (area: AreaKey, fileType: number) => ['drive', area, 'category', fileType] as const,
  recycle: (area: AreaKey) => ['drive', area, 'recycle'] as const,
  tree: (area: AreaKey) => ['drive', area, 'tree'] as const,
  search: (area: AreaKey, q: string) => ['drive', area, 'search', q] as const,
  detail: (area: AreaKey, id: number) => ['drive', area, 'detail', id] as const,
  storage: ['drive', 'storage'] as const,
};

/** Reads every page of a list, reporting each partial result so the first rows show at once. */
export async function allPages<T>(
  read: (page: number) => Promise<{ list: T[]; total: number }>,
  progress: (partial: { list: T[]; total: number }) => void,
): Promise<{ list: T[]; total: number }> {
  const first = await read(1);
  let list = first.list;
  let total = first.total;
  for (let page = 2; list.length < total && page <= MAX_PAGES; page++) {
    progress({ list, total });
    const next = await read(page);
    if (next.list.length === 0) break;
    list = list.concat(next.list);
    total = next.total;
  }
  return { list, total: Math.max(total, list.length) };
}

const q = (area: AreaQuery, extra: Record<string, string | number>) => ({ ...area, ...extra });

// Overlays are module constants so the cached view's memo sees a stable function.
const recycleOverlay = (d: { list: RecoveryEntry[]; total: number }, ops: OutboxOp[]) =>
  overlayRecycle(d, ops);
const categoryOverlay = (d: DriveListData, ops: OutboxOp[]) => overlayCategory(d, ops);
const treeOverlay = (d: TreeNode, ops: OutboxOp[]) => overlayTree(d, ops);
const folderOverlays = new Map<string, (d: DriveListData, ops: OutboxOp[]) => DriveListData>();
function folderOverlay(path: string) {
  let fn = folderOverlays.get(path);
  if (!fn) {
    fn = (d, ops) => overlayFolder(d, ops, path);
    folderOverlays.set(path, fn);
  }
  return fn;
}

/** A folder created by a queued write is empty until the server says otherwise. */
function createdOffline(path: string) {
  return (ops: OutboxOp[]): DriveListData | undefined => {
    const made = ops.some((o) => {
      if (o.kind !== 'drive.create') return false;
      const m = o.meta as DriveOpMeta['drive.create'];
      return `${m.filePath}${m.fileName}/` === path;
    });
    return made ? { list: [], total: 0 } : undefined;
  };
}

/** The listing the view shows: a folder, a category or the recycle bin. */
export function useDriveList(view: DriveView, enabled = true): CachedView<DriveListData> {
  const { area, areaQuery, kind, filePath, fileType } = view;
  const folder = useCachedQuery<DriveListData>({
    queryKey: driveKeys.folder(area, filePath),
    enabled: enabled && kind === 'folder',
    fetch: ({ signal, progress }) =>
      allPages(
        (page) =>
          drive.get<FileList>('/file/getfilelist', {
            query: q(areaQuery, { filePath, currentPage: page, pageCount: PAGE_SIZE }),
            signal,
            silent: true,
          }),
        progress,
      ),
    overlay: folderOverlay(filePath),
    offlineFallback: createdOffline(filePath),
  });
  const category = useCachedQuery<DriveListData>({
    queryKey: driveKeys.category(area, fileType),
    enabled: enabled && kind === 'category',
    fetch: ({ signal, progress }) =>
      allPages(
        (page) =>
          drive.get<FileList>('/file/selectfilebyfiletype', {
            query: { fileType, currentPage: page, pageCount: PAGE_SIZE },
            signal,
            silent: true,
          }),
        progress,
      ),
    overlay: categoryOverlay,
  });
  const recycle = useCachedQuery<{ list: RecoveryEntry[]; total: number }>({
    queryKey: driveKeys.recycle(area),
    enabled: enabled && kind === 'recycle',
    fetch: ({ signal }) =>
      drive.get<{ list: RecoveryEntry[]; total: number }>('/recoveryfile/list', {
        query: { ...areaQuery },
        signal,
        silent: true,
      }),
    overlay: recycleOverlay,
  });
  if (kind === 'recycle') return recycle as CachedView<DriveListData>;
  return kind === 'category' ? category : folder;
}

export function useFolderTree(view: Pick<DriveView, 'area' | 'areaQuery'>, enabled: boolean) {
  return useCachedQuery<TreeNode>({
    queryKey: driveKeys.tree(view.area),
    enabled,
    fetch: ({ signal }) =>
      drive.get<TreeNode>('/file/getfiletree', { query: { ...view.areaQuery }, signal, silent: true }),
    overlay: treeOverlay,
  });
}

export function useSearch(view: Pick<DriveView, 'area' | 'areaQuery'>, text: string) {
  return useCachedQuery<{ list: SearchHit[]; total: number }>({
    queryKey: driveKeys.search(view.area, text),
    enabled: text.length > 0,
    fetch: ({ signal }) =>
      drive.get<{ list: SearchHit[]; total: number }>('/file/search', {
        query: q(view.areaQuery, { fileName: text, currentPage: 1, pageCount: PAGE_SIZE }),
        signal,
        silent: true,
      }),
  });
}

/**
 * file/detail: the entry of one item, with image size and, for music, its tags. Through a share
 * (`shareBatchNum` in the area) it reads with the share's grant and is not kept on the device:
 * a visitor's reads leave nothing behind.
 */
export function useDetail(view: { area: AreaKey; areaQuery: ReadArea }, id: number | null) {
  const batch = view.areaQuery.shareBatchNum;
  const wanted = id !== null && id > 0;
  const own = useCachedQuery<FileDetail>({
    queryKey: driveKeys.detail(view.area, id ?? 0),
    enabled: wanted && batch === undefined,
    // The dialog already shows the row; a failed detail read only means fewer fields.
    toastErrors: false,
    fetch: ({ signal }) =>
      drive.get<FileDetail>('/file/detail', {
        query: q(view.areaQuery, { userFileId: id ?? 0 }),
        signal,
        silent: true,
      }),
  });
  const shared = useQuery({
    queryKey: ['share', batch, 'detail', id ?? 0],
    enabled: wanted && batch !== undefined,
    retry: false,
    queryFn: ({ signal }) =>
      drive.get<FileDetail>('/file/detail', {
        query: { userFileId: id ?? 0, shareBatchNum: batch },
        signal,
        silent: true,
        quietExpiry: true,
      }),
  });
  return { data: batch === undefined ? own.data : shared.data };
}

export function useStorage(enabled = true) {
  return useCachedQuery<StorageInfo>({
    queryKey: driveKeys.storage,
    enabled,
    // A side-menu meter: when it cannot load it stays away rather than toast.
    toastErrors: false,
    fetch: ({ signal }) => drive.get<StorageInfo>('/filetransfer/getstorage', { signal, silent: true }),
  });
}

/**
 * The flags of a read: an area of the caller's (AreaQuery), or a share link (`shareBatchNum`),
 * whose grant cookie the server checks for preview and download (shared/api/drive.ts).
 */
export type ReadArea = AreaQuery & { shareBatchNum?: string };

/** The address that downloads one item, or several as one zip (a navigation: cookie auth, streamed). */
export function downloadUrl(areaQuery: ReadArea, ids: readonly number[]): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(areaQuery)) if (v !== undefined) params.set(k, String(v));
  if (ids.length === 1) params.set('userFileId', String(ids[0]));
  else params.set('userFileIds', ids.join(','));
  return `/wangpan/filetransfer/downloadfile?${params.toString()}`;
}

/**
 * A file's bytes for the previewers (`filetransfer/preview`), authorised by the session cookie
 * so <img>, <audio> and <video> can load it. `min` asks for the thumbnail.
 */
export function previewUrl(areaQuery: ReadArea, userFileId: number, min = false): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(areaQuery)) if (v !== undefined) params.set(k, String(v));
  params.set('userFileId', String(userFileId));
  if (min) params.set('isMin', '1');
  return `/wangpan/filetransfer/preview?${params.toString()}`;
}

// ——— Writes ———

function op<K extends DriveOpKind>(
  view: Pick<DriveView, 'area'>,
  kind: K,
  path: string,
  body: unknown,
  label: string,
  meta: DriveOpMeta[K],
): NewOp {
  return {
    client: 'drive',
    path,
    body,
    label,
    kind,
    meta,
    // Every view of the area (listings, tree, categories, search) and the storage meter.
    scope: [[...driveKeys.area(view.area)], [...driveKeys.storage]],
  };
}

const nameOf = (e: Pick<FileEntry, 'fileName' | 'extendName'>) => joinName(e.fileName, e.extendName);
const pathName = (path: string) => (path === '/' ? tDrive.rootName : path.slice(1, -1));
function what(items: readonly FileEntry[]) {
  return items.length === 1 ? tDrive.remove.one(nameOf(items[0]!)) : tDrive.remove.many(items.length);
}

/** The contract's limit of items per batch call (and per batch download). */
export const BATCH_MAX = 1000;

/** A selection beyond one batch goes as several writes, in order; queued if any got queued. */
async function inChunks<T>(items: T[], write: (chunk: T[]) => Promise<SubmitResult>): Promise<SubmitResult> {
  let last: SubmitResult | undefined;
  let queued = false;
  for (let i = 0; i < items.length; i += BATCH_MAX) {
    last = await write(items.slice(i, i + BATCH_MAX));
    queued ||= last.queued;
  }
  return queued ? { queued: true, op: last!.op } : last!;
}

export const driveWrites = {
  createFolder(view: DriveView, filePath: string, fileName: string) {
    const body: Body<typeof CreateFolderBody> = { ...view.areaQuery, fileName, filePath, isDir: 1 };
    return submitWrite(
      op(view, 'drive.create', '/file/createfile', body, tDrive.labels.create(fileName, pathName(filePath)), {
        filePath,
        fileName,
      }),
    );
  },

  rename(view: DriveView, item: FileEntry, fileName: string) {
    const body: Body<typeof RenameBody> = { ...view.areaQuery, userFileId: item.userFileId, fileName };
    return submitWrite(
      op(view, 'drive.rename', '/file/renamefile', body, tDrive.labels.rename(nameOf(item), fileName), {
        userFileId: item.userFileId,
        fileName,
        from: nameOf(item),
      }),
    );
  },

  moveOrCopy(view: DriveView, mode: 'move' | 'copy', items: FileEntry[], to: string): Promise<SubmitResult> {
    if (items.length > BATCH_MAX)
      return inChunks(items, (chunk) => driveWrites.moveOrCopy(view, mode, chunk, to));
    const label = (mode === 'move' ? tDrive.labels.move : tDrive.labels.copy)(what(items), pathName(to));
    const kind = mode === 'move' ? 'drive.move' : 'drive.copy';
    if (items.length === 1) {
      const body: Body<typeof CopyMoveBody> = {
        ...view.areaQuery,
        userFileId: items[0]!.userFileId,
        filePath: to,
      };
      return submitWrite(op(view, kind, `/file/${mode}file`, body, label, { items, to }));
    }
    const body: Body<typeof BatchMoveBody> = {
      ...view.areaQuery,
      files: items.map((i) => ({ userFileId: i.userFileId })),
      filePath: to,
    };
    return submitWrite(op(view, kind, `/file/batch${mode}file`, body, label, { items, to }));
  },

  remove(view: DriveView, items: FileEntry[]): Promise<SubmitResult> {
    if (items.length > BATCH_MAX) return inChunks(items, (chunk) => driveWrites.remove(view, chunk));
    const deleteMode = view.deleteForever ? 2 : 1;
    const label = (view.deleteForever ? tDrive.labels.removeForever : tDrive.labels.remove)(what(items));
    const meta = { ids: items.map((i) => i.userFileId) };
    if (items.length === 1) {
      const body: Body<typeof DeleteBody> = {
        ...view.areaQuery,
        userFileId: items[0]!.userFileId,
        deleteMode,
      };
      return submitWrite(op(view, 'drive.delete', '/file/deletefile', body, label, meta));
    }
    const body: Body<typeof BatchDeleteBody> = {
      ...view.areaQuery,
      files: items.map((i) => ({ userFileId: i.userFileId })),
      deleteMode,
    };
    return submitWrite(op(view, 'drive.delete', '/file/batchdeletefile', body, label, meta));
  },

  /** Restores bin entries, one call each (the spec has no batch restore), in order. */
  async restore(view: DriveView, entries: RecoveryEntry[]) {
    const results = [];
    for (const e of entries) {
      const body: Body<typeof RestoreBody> = {
        ...view.areaQuery,
        deleteBatchNum: e.deleteBatchNum ?? '',
        filePath: e.filePath,
      };
      results.push(
        await submitWrite(
          op(view, 'drive.restore', '/recoveryfile/restorefile', body, tDrive.labels.restore(what([e])), {
            recoveryFileIds: [e.recoveryFileId],
          }),
        ),
      );
    }
    return results;
  },

  /** Deletes bin entries permanently. */
  purge(view: DriveView, entries: RecoveryEntry[]): Promise<SubmitResult> {
    if (entries.length > BATCH_MAX) return inChunks(entries, (chunk) => driveWrites.purge(view, chunk));
    const label = tDrive.labels.removeForever(what(entries));
    const meta = { recoveryFileIds: entries.map((e) => e.recoveryFileId) };
    if (entries.length === 1)
      return submitWrite(
        op(
          view,
          'drive.purge',
          '/recoveryfile/deleterecoveryfile',
          { ...view.areaQuery, recoveryFileId: entries[0]!.recoveryFileId },
          label,
          meta,
        ),
      );
    return submitWrite(
      op(
        view,
        'drive.purge',
        '/recoveryfile/batchdelete',
        { ...view.areaQuery, recoveryFileIds: entries.map((e) => ({ recoveryFileId: e.recoveryFileId })) },
        label,
        meta,
      ),
    );
  },
};

// A rename or new folder refused for its name (同名文件已存在) can be corrected and retried
// from the 待同步 panel; the write keeps its place in the queue and its idempotency key.
outboxEditors.set('drive.rename', {
  field: tDrive.rename.label,
  value: (o) => (o.meta as DriveOpMeta['drive.rename']).fileName,
  validate: (v) => nameProblem(v, '文件名称'),
  apply: (o, v) => {
    const meta = o.meta as DriveOpMeta['drive.rename'];
    return {
      body: { ...(o.body as object), fileName: v },
      label: tDrive.labels.rename(meta.from, v),
      meta: { ...meta, fileName: v },
    };
  },
});
outboxEditors.set('drive.create', {
  field: tDrive.newFolder.label,
  value: (o) => (o.meta as DriveOpMeta['drive.create']).fileName,
  validate: (v) => nameProblem(v, '文件夹名称'),
  apply: (o, v) => {
    const meta = o.meta as DriveOpMeta['drive.create'];
    return {
      body: { ...(o.body as object), fileName: v },
      label: tDrive.labels.create(v, pathName(meta.filePath)),
      meta: { ...meta, fileName: v },
    };
  },
});
