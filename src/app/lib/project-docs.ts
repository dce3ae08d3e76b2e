import type { FileEntry, FileList } from '../../shared/api/drive';
import type { PickerItem } from '../../shared/api/project';
import { drive, museum } from './api';

/**
 * A project's documents (项目文档): the drive's own /wangpan calls with `projectId` (the server
 * resolves the area from it and checks the project's rights; server/drive/area.ts), and the
 * project calls around them: the move/associate picker, the name check before a move, and
 * moving items of my drive into a project folder. Used by the project board's 项目文档 view,
 * the picker (components/project-file-picker) and the drive's 移动到项目. All need the network;
 * the folder listing is cached for offline reading by its view (useCachedQuery).
 */
const key = () => ({ idempotencyKey: crypto.randomUUID() });

export const docKeys = {
  /** Under 'drive': a finished upload invalidates ['drive'], so the folder refreshes by itself. */
  folder: (projectId: number, path: string) => ['drive', 'project', projectId, 'folder', path] as const,
  picker: (fileType: '0' | '1', fileName: string) => ['project', 'picker', fileType, fileName] as const,
};

/** Where an item lives: a project's root (parentId -1) or one of its folders. */
export interface DocTarget {
  projectId: number;
  parentId: number;
}

/** The project and folder a picker item names (a project: its root). */
export function targetOf(item: PickerItem): DocTarget | null {
  if (item.projectId === null || item.type === 0) return null;
  return { projectId: item.projectId, parentId: item.type === 2 ? -1 : item.fileId! };
}

export const docCalls = {
  list: async (projectId: number, filePath: string, signal?: AbortSignal): Promise<FileEntry[]> =>
    (
      await drive.get<FileList>('/file/getfilelist', {
        query: { projectId, filePath, currentPage: 1, pageCount: 1000 },
        signal,
        silent: true,
      })
    ).list,
  createFolder: (projectId: number, filePath: string, fileName: string) =>
    drive.post<{ userFileId: number }>(
      '/file/createfile',
      { projectId, filePath, fileName, isDir: 1 },
      { ...key(), silent: true },
    ),
  rename: (projectId: number, userFileId: number, fileName: string) =>
    drive.post('/file/renamefile', { projectId, userFileId, fileName }, { ...key(), silent: true }),
  /** Permanent (deleteMode 2): a project has no recycle bin. */
  remove: (projectId: number, userFileId: number) =>
    drive.post('/file/deletefile', { projectId, userFileId, deleteMode: 2 }, key()),
  downloadUrl: (projectId: number, userFileId: number) =>
    `/wangpan/filetransfer/downloadfile?projectId=${projectId}&userFileId=${userFileId}`,
  picker: (fileType: '0' | '1', fileName: string, signal?: AbortSignal) =>
    museum.post<PickerItem[]>(
      '/projectTask/taskGetFileList',
      { fileType, fileName },
      { signal, silent: true },
    ),
  /** Whether an item of my drive would meet a same-named item in the target folder. */
  clash: (to: DocTarget, fileId: number) =>
    museum.post<{ exists: boolean }>('/projectFile/checkFileInProject', { ...to, fileId }, { silent: true }),
  moveFromDrive: (to: DocTarget, fileIds: number[]) =>
    museum.post<{ names: string[] }>('/projectFile/moveFromDrive', { ...to, fileIds }, key()),
};
