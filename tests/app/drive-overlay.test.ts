import { describe, expect, it } from 'vitest';
import type { FileEntry, TreeNode } from '../../src/shared/api/drive';
import {
  overlayCategory,
  overlayFolder,
  overlayRecycle,
  overlayTree,
  targetProblem,
  type QueuedDriveOp,
} from '../../src/app/features/drive/overlay';

/** Queued writes drawn over cached views: what an offline change looks like before it syncs. */

let nextId = 1;
function entry(fileName: string, filePath = '/', isDir: 0 | 1 = 1, extendName = ''): FileEntry {
  return {
    userFileId: nextId++,
    fileName,
    extendName,
    filePath,
    isDir,
    fileSize: 0,
    uploadTime: '2026-01-01 00:00:00',
    deleteFlag: 0,
    deleteTime: null,
    deleteBatchNum: null,
    imageWidth: null,
    imageHeight: null,
  };
}
let seq = 1;
const op = (kind: string, meta: unknown): QueuedDriveOp => ({ kind, meta, seq: seq++ });
const names = (d: { list: { fileName: string; extendName: string }[] }) =>
  d.list.map((e) => (e.extendName ? `${e.fileName}.${e.extendName}` : e.fileName));

describe('overlayFolder', () => {
  const a = entry('a');
  const report = entry('报告', '/', 0, 'docx');
  const data = { list: [a, report], total: 2 };

  it('adds a folder created offline, marked pending, once', () => {
    const ops = [op('drive.create', { filePath: '/', fileName: '新建' })];
    const out = overlayFolder(data, ops, '/');
    expect(names(out)).toEqual(['a', '报告.docx', '新建']);
    expect(out.list[2]).toMatchObject({ pending: true, isDir: 1 });
    expect(out.list[2]!.userFileId).toBeLessThan(0);
    expect(out.total).toBe(3);
    // Once the server's listing has it, it is not drawn twice.
    const server = { list: [...data.list, entry('新建')], total: 3 };
    expect(names(overlayFolder(server, ops, '/'))).toEqual(['a', '报告.docx', '新建']);
    // Other folders are untouched.
    expect(overlayFolder(data, ops, '/a/')).toBe(data);
  });

  it('renames in place keeping the extension of files', () => {
    const out = overlayFolder(
      data,
      [op('drive.rename', { userFileId: report.userFileId, fileName: '总结.pdf', from: '报告.docx' })],
      '/',
    );
    expect(out.list[1]).toMatchObject({ fileName: '总结', extendName: 'pdf', pending: true });
  });

  it('moves out of the source and into the target', () => {
    const ops = [op('drive.move', { items: [report], to: '/a/' })];
    expect(names(overlayFolder(data, ops, '/'))).toEqual(['a']);
    const target = overlayFolder({ list: [], total: 0 }, ops, '/a/');
    expect(target.list).toEqual([{ ...report, filePath: '/a/', pending: true }]);
  });

  it('copies with the first free name(n) for files and merges folders', () => {
    const ops = [op('drive.copy', { items: [report, a], to: '/' })];
    const out = overlayFolder(data, ops, '/');
    expect(names(out)).toEqual(['a', '报告.docx', '报告(1).docx']);
  });

  it('removes deleted entries', () => {
    const out = overlayFolder(data, [op('drive.delete', { ids: [a.userFileId] })], '/');
    expect(names(out)).toEqual(['报告.docx']);
    expect(out.total).toBe(1);
  });

  it('applies writes in their order', () => {
    const ops = [
      op('drive.create', { filePath: '/', fileName: 'x' }),
      op('drive.rename', { userFileId: a.userFileId, fileName: 'b', from: 'a' }),
      op('drive.delete', { ids: [report.userFileId] }),
    ];
    expect(names(overlayFolder(data, ops, '/'))).toEqual(['b', 'x']);
  });
});

describe('other views', () => {
  it('category views show renames, moves and deletions', () => {
    const img = entry('照片', '/', 0, 'jpg');
    const other = entry('图', '/', 0, 'png');
    const out = overlayCategory({ list: [img, other], total: 2 }, [
      op('drive.rename', { userFileId: img.userFileId, fileName: '文物.jpg', from: '照片.jpg' }),
      op('drive.delete', { ids: [other.userFileId] }),
    ]);
    expect(names(out)).toEqual(['文物.jpg']);
  });

  it('the recycle bin drops restored and purged entries', () => {
    const list = [1, 2, 3].map((recoveryFileId) => ({ ...entry(`f${recoveryFileId}`), recoveryFileId }));
    const out = overlayRecycle({ list, total: 3 }, [
      op('drive.restore', { recoveryFileIds: [1] }),
      op('drive.purge', { recoveryFileIds: [3] }),
    ]);
    expect(out.list.map((e) => e.recoveryFileId)).toEqual([2]);
    expect(out.total).toBe(1);
  });

  it('the folder tree shows new, renamed, moved and deleted folders', () => {
    const tree: TreeNode = {
      id: 0,
      label: '/',
      filePath: '/',
      children: [
        {
          id: 1,
          label: 'a',
          filePath: '/a/',
          children: [{ id: 2, label: 'b', filePath: '/a/b/', children: [] }],
        },
        { id: 3, label: 'c', filePath: '/c/', children: [] },
      ],
    };
    const out = overlayTree(tree, [
      op('drive.create', { filePath: '/c/', fileName: 'new' }),
      op('drive.rename', { userFileId: 1, fileName: 'A', from: 'a' }),
      op('drive.move', { items: [{ ...entry('b', '/a/'), userFileId: 2 }], to: '/c/' }),
    ]);
    const paths: string[] = [];
    const walk = (n: TreeNode) => {
      paths.push(n.filePath);
      n.children.forEach(walk);
    };
    walk(out);
    expect(paths).toEqual(['/', '/A/', '/c/', '/c/new/', '/c/b/']);
  });
});

describe('targetProblem', () => {
  const folder = entry('a');
  it('refuses a folder into itself or below it', () => {
    expect(targetProblem([folder], '/a/', 'move')).toBe('self');
    expect(targetProblem([folder], '/a/b/', 'copy')).toBe('self');
    expect(targetProblem([folder], '/ab/', 'move')).toBe(null);
  });
  it('says a move to where the items already are does nothing', () => {
    expect(targetProblem([folder], '/', 'move')).toBe('same');
    expect(targetProblem([folder], '/', 'copy')).toBe(null);
  });
});
