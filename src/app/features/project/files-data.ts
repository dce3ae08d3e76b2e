import type { PickerUser, ProjectProgress, TaskDetail } from '../../../shared/api/project';
import { museum } from '../../lib/api';

/**
 * The calls of task files, collaborators and progress (the picker's are in lib/project-docs.ts)
 * (src/shared/api/project.ts). Kept apart from project-data.ts, whose writes go through the
 * offline outbox: these all need the network (bytes, a drive copy, people) and say so.
 */
const post = <T = unknown>(path: string, body: unknown, silent = false) =>
  museum.post<T>(path, body, { idempotencyKey: crypto.randomUUID(), silent });

export const filesKeys = {
  members: (projectId: number, userName: string) => ['project', 'members', projectId, userName] as const,
  progress: ['project', 'progress'] as const,
};

export const filesCalls = {
  /** Binds an uploaded attachment (tableName 'project') to the task. */
  bindUpload: (taskId: number, relativeId: number) =>
    post<TaskDetail>('/projectTask/upload', { taskId, relativeId }, true),
  /**
   * A file of my drive (`fileId`, copied), a project document (`fileId` with `projectId`) or a
   * file of another task of the project (`attachmentId`).
   */
  associate: (
    taskId: number,
    from: { fileId: number } | { fileId: number; projectId: number } | { attachmentId: number },
  ) => post<TaskDetail>('/projectTask/addRelevanceFile', { taskId, ...from }, true),
  deleteFile: (taskId: number, relativeId: number) =>
    post('/projectTask/deleteRelative', { taskId, relativeId }),
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
