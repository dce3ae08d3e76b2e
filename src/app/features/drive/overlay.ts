import dayjs from 'dayjs';
import type { FileEntry, RecoveryEntry, TreeNode } from '../../../shared/api/drive';
import { folderPath, freeName, joinName, splitName } from '../../../shared/drive/names';

/**
 * Queued drive writes drawn over cached views (the optimistic view of ARCHITECTURE.md §5).
 * Pure functions of (server data, queued writes) → what the user sees. Each one is idempotent
 * against a server answer that already contains the write, because a sent write is still drawn
 * until the refreshed listing arrives (lib/outbox.ts `done`). Refused writes are not passed in,
 * so the view falls back to the server's truth by itself.
 */

/** A list row as the drive shows it: the server's entry, plus recycle id and the pending mark. */
export type DriveItem = FileEntry & {
  recoveryFileId?: number;
  /** A queued write touches this row: shown as 待同步, and not actionable until it settles. */
  pending?: boolean;
};

export interface DriveListData {
  list: DriveItem[];
  total: number;
}

/** What each kind of queued drive write carries for the overlays. */
export interface DriveOpMeta {
  'drive.create': { filePath: string; fileName: string };
  'drive.rename': { userFileId: number; fileName: string; from: string };
  'drive.move': { items: FileEntry[]; to: string };
  'drive.copy': { items: FileEntry[]; to: string };
  'drive.delete': { ids: number[] };
  'drive.restore': { recoveryFileIds: number[] };
  'drive.purge': { recoveryFileIds: number[] };
}
export type DriveOpKind = keyof DriveOpMeta;

/** The part of an outbox row the overlays read. */
export interface QueuedDriveOp {
  kind: string;
  meta: unknown;
  seq: number;
}

function metaOf<K extends DriveOpKind>(op: QueuedDriveOp, kind: K): DriveOpMeta[K] | undefined {
  return op.kind === kind ? (op.meta as DriveOpMeta[K]) : undefined;
}

const fullName = (e: Pick<FileEntry, 'fileName' | 'extendName'>) => joinName(e.fileName, e.extendName);

/** Placeholder ids for rows that exist only in the queue: negative, unique per write and row. */
function placeholderId(seq: number, i: number) {
  return -(seq * 1000 + i + 1);
}

function renamed(entry: DriveItem, newFull: string): DriveItem {
  const { fileName, extendName } = entry.isDir ? { fileName: newFull, extendName: '' } : splitName(newFull);
  return { ...entry, fileName, extendName, pending: true };
}

/** A folder listing (`path`) with the queued writes drawn over it. */
export function overlayFolder(
  data: DriveListData,
  ops: readonly QueuedDriveOp[],
  path: string,
): DriveListData {
  if (ops.length === 0) return data;
  let list: DriveItem[] = data.list;
  const now = dayjs().format('YYYY-MM-DD HH:mm:ss');
  for (const op of ops) {
    const create = metaOf(op, 'drive.create');
    if (create && create.filePath === path) {
      if (!list.some((e) => e.isDir === 1 && e.fileName === create.fileName)) {
        list = [
          ...list,
          {
            userFileId: placeholderId(op.seq, 0),
            fileName: create.fileName,
            extendName: '',
            filePath: path,
            isDir: 1,
            fileSize: 0,
            uploadTime: now,
            deleteFlag: 0,
            deleteTime: null,
            deleteBatchNum: null,
            imageWidth: null,
            imageHeight: null,
            pending: true,
          },
        ];
      }
    }
    const rename = metaOf(op, 'drive.rename');
    if (rename)
      list = list.map((e) => (e.userFileId === rename.userFileId ? renamed(e, rename.fileName) : e));
    const move = metaOf(op, 'drive.move');
    if (move) {
      const ids = new Set(move.items.map((i) => i.userFileId));
      list = list.filter((e) => !ids.has(e.userFileId) || move.to === path);
      if (move.to === path) {
        const have = new Set(list.map((e) => e.userFileId));
        const arriving = move.items.filter((i) => !have.has(i.userFileId));
        list = [...list, ...arriving.map((i) => ({ ...i, filePath: path, pending: true }))];
      }
    }
    const copy = metaOf(op, 'drive.copy');
    if (copy && copy.to === path) {
      const taken = new Set(list.map(fullName));
      copy.items.forEach((item, i) => {
        // Folders merge into a same-named folder; files take the first free name(n) (issue 3).
        if (item.isDir && list.some((e) => e.isDir === 1 && e.fileName === item.fileName)) return;
        const name = item.isDir ? item.fileName : freeName(item.fileName, item.extendName, taken);
        taken.add(joinName(name, item.extendName));
        list = [
          ...list,
          { ...item, userFileId: placeholderId(op.seq, i), fileName: name, filePath: path, pending: true },
        ];
      });
    }
    const del = metaOf(op, 'drive.delete');
    if (del) {
      const ids = new Set(del.ids);
      list = list.filter((e) => !ids.has(e.userFileId));
    }
  }
  if (list === data.list) return data;
  return { list, total: data.total + (list.length - data.list.length) };
}

/** A category listing (images, documents …) with queued renames and deletions drawn over it. */
export function overlayCategory(data: DriveListData, ops: readonly QueuedDriveOp[]): DriveListData {
  if (ops.length === 0) return data;
  let list: DriveItem[] = data.list;
  for (const op of ops) {
    const rename = metaOf(op, 'drive.rename');
    if (rename)
      list = list.map((e) => (e.userFileId === rename.userFileId ? renamed(e, rename.fileName) : e));
    const move = metaOf(op, 'drive.move');
    if (move) {
      const ids = new Set(move.items.map((i) => i.userFileId));
      list = list.map((e) => (ids.has(e.userFileId) ? { ...e, filePath: move.to, pending: true } : e));
    }
    const del = metaOf(op, 'drive.delete');
    if (del) {
      const ids = new Set(del.ids);
      list = list.filter((e) => !ids.has(e.userFileId));
    }
  }
  if (list === data.list) return data;
  return { list, total: data.total + (list.length - data.list.length) };
}

/** The recycle bin with queued restores and permanent deletions taken out. */
export function overlayRecycle(
  data: { list: RecoveryEntry[]; total: number },
  ops: readonly QueuedDriveOp[],
): { list: RecoveryEntry[]; total: number } {
  const gone = new Set<number>();
  for (const op of ops) {
    const m = metaOf(op, 'drive.restore') ?? metaOf(op, 'drive.purge');
    m?.recoveryFileIds.forEach((id) => gone.add(id));
  }
  if (gone.size === 0) return data;
  const list = data.list.filter((e) => !gone.has(e.recoveryFileId));
  return { list, total: data.total - (data.list.length - list.length) };
}

function mapTree(node: TreeNode, fn: (n: TreeNode) => TreeNode): TreeNode {
  const children = node.children.map((c) => mapTree(c, fn));
  return fn(children.every((c, i) => c === node.children[i]) ? node : { ...node, children });
}

function rebase(node: TreeNode, from: string, to: string): TreeNode {
  return {
    ...node,
    filePath: to + node.filePath.slice(from.length),
    children: node.children.map((c) => rebase(c, from, to)),
  };
}

/**
 * The folder tree (move/copy targets) with queued folder writes: a folder created offline can
 * be chosen as a target at once, since queued writes replay in order and targets are paths.
 */
export function overlayTree(root: TreeNode, ops: readonly QueuedDriveOp[]): TreeNode {
  let tree = root;
  for (const op of ops) {
    const create = metaOf(op, 'drive.create');
    if (create) {
      const path = folderPath(create.filePath, create.fileName);
      tree = mapTree(tree, (n) =>
        n.filePath === create.filePath && !n.children.some((c) => c.filePath === path)
          ? {
              ...n,
              children: [
                ...n.children,
                { id: placeholderId(op.seq, 0), label: create.fileName, filePath: path, children: [] },
              ],
            }
          : n,
      );
    }
    const rename = metaOf(op, 'drive.rename');
    if (rename) {
      tree = mapTree(tree, (n) => {
        if (n.id !== rename.userFileId) return n;
        const parent = n.filePath.slice(0, n.filePath.lastIndexOf('/', n.filePath.length - 2) + 1);
        return { ...rebase(n, n.filePath, folderPath(parent, rename.fileName)), label: rename.fileName };
      });
    }
    const del = metaOf(op, 'drive.delete');
    const move = metaOf(op, 'drive.move');
    const gone = new Set([...(del?.ids ?? []), ...(move?.items.map((i) => i.userFileId) ?? [])]);
    if (gone.size) {
      const moved: TreeNode[] = [];
      tree = mapTree(tree, (n) => {
        const keep = n.children.filter((c) => !gone.has(c.id));
        if (keep.length === n.children.length) return n;
        moved.push(...n.children.filter((c) => gone.has(c.id)));
        return { ...n, children: keep };
      });
      if (move) {
        tree = mapTree(tree, (n) =>
          n.filePath === move.to
            ? {
                ...n,
                children: [
                  ...n.children,
                  ...moved.map((m) => rebase(m, m.filePath, folderPath(move.to, m.label))),
                ],
              }
            : n,
        );
      }
    }
  }
  return tree;
}

/** Why a move or copy of `items` into `target` cannot work, or null (spec: 原路径与目标路径冲突). */
export function targetProblem(
  items: readonly FileEntry[],
  target: string,
  mode: 'move' | 'copy',
): 'self' | 'same' | null {
  for (const item of items) {
    if (item.isDir && target.startsWith(folderPath(item.filePath, item.fileName))) return 'self';
  }
  if (mode === 'move' && items.every((i) => i.filePath === target)) return 'same';
  return null;
}
