import type { PickerItem, PickerUser, ProjectProgress, TaskDetail } from '../../../shared/api/project';
import { museum } from '../../lib/api';

/**
 * The calls of task files, the move/associate picker, collaborators and progress
 * (src/shared/api/project.ts). Kept apart from project-data.ts, whose writes go through the
 * offline outbox: these all need the network (bytes, a drive copy, people) and say so.
 */
const post = <T = unknown>(path: string, body: unknown, silent = false) =>
  museum.post<T>(path, body, { idempotencyKey: crypto.randomUUID(), silent });

export const filesKeys = {
  picker: (fileType: '0' | '1', fileName: string) => ['project', 'picker', fileType, fileName] as const,
  members: (projectId: number, userName: string) => ['project', 'members', projectId, userName] as const,
  progress: ['project', 'progress'] as const,
};

export const filesCalls = {
  /** Binds an uploaded attachment (tableName 'project') to the task. */
  bindUpload: (taskId: number, relativeId: number) =>
    post<TaskDetail>('/projectTask/upload', { taskId, relativeId }, true),
  /** A file of my drive (`fileId`, copied) or of another task of the project (`attachmentId`). */
  associate: (taskId: number, from: { fileId: number } | { attachmentId: number }) =>
    post<TaskDetail>('/projectTask/addRelevanceFile', { taskId, ...from }, true),
  deleteFile: (taskId: number, relativeId: number) =>
    post('/projectTask/deleteRelative', { taskId, relativeId }),
  picker: (fileType: '0' | '1', fileName: string, signal?: AbortSignal) =>
    museum.post<PickerItem[]>(
      '/projectTask/taskGetFileList',
      { fileType, fileName },
      { signal, silent: true },
    ),
  /** Whether a file of my drive is already among the project's files (root only for now). */
  inProject: (projectId: number, fileId: number) =>
    museum.post<{ exists: boolean }>(
      '/projectFile/checkFileInProject',
      { projectId, fileId, parentId: -1 },
      { silent: true },
    ),
  searchPeople: (projectId: number, userName: string, signal?: AbortSignal) =>
    museum.post<PickerUser[]>(
      '/projectUser/getUser',
      { projectId, type: 1, userName },
      { signal, silent: true },
    ),
  addMembers: (projectId: number, userIds: number[]) => post('/projectUser/addUser', { projectId, userIds }),
  removeMember: (projectId: number, userId: number) => post('/projectUser/deleteUser', { projectId, userId }),
  progress: (signal?: AbortSignal) =>
    museum.get<ProjectProgress[]>('/project/progress', { signal, silent: true }),
};
