import type { z } from 'zod';
import type {
  AddTaskBody,
  CommentRow,
  PickerUser,
  ProjectAddBody,
  ProjectBoard,
  ProjectRow,
  TaskDetail,
  TaskField,
} from '../../../shared/api/project';
import { museum } from '../../lib/api';

/** History line of a task (the spec's shape: ext1 the time). */
export interface HistoryLine {
  ext1: string;
  updater: string;
  actionDescription: string;
}

/** The calls of the project screens (src/shared/api/project.ts); every query lives under ['project', …]. */
export const projectKeys = {
  all: ['project'] as const,
  list: ['project', 'list'] as const,
  board: (projectId: number) => ['project', 'board', projectId] as const,
  task: (taskId: number) => ['project', 'task', taskId] as const,
  people: (projectId: number) => ['project', 'people', projectId] as const,
};

const key = () => crypto.randomUUID();
/** Writes answer in place (forms, dialogs): the caller shows the server's words. */
const quiet = { silent: true } as const;

export const projectCalls = {
  list: (signal?: AbortSignal) => museum.get<ProjectRow[]>('/project/list', { signal, silent: true }),
  board: (projectId: number, signal?: AbortSignal) =>
    museum.get<ProjectBoard>('/project/board', { query: { projectId }, signal, silent: true }),
  create: (body: z.input<typeof ProjectAddBody>) =>
    museum.post<ProjectRow>('/project/add', body, { idempotencyKey: key(), ...quiet }),
  archive: (projectId: number, archived: 0 | 1) =>
    museum.post<ProjectRow>('/project/archive', { projectId, archived }, { idempotencyKey: key(), ...quiet }),
  addBlock: (projectId: number, name: string) =>
    museum.post<{ blockId: number }>(
      '/projectBlock/add',
      { projectId, name },
      { idempotencyKey: key(), ...quiet },
    ),
  renameBlock: (blockId: number, name: string) =>
    museum.post<unknown>('/projectBlock/rename', { blockId, name }, { idempotencyKey: key(), ...quiet }),
  deleteBlock: (blockId: number) =>
    museum.post<unknown>('/projectBlock/delete', { blockId }, { idempotencyKey: key(), ...quiet }),
  addTask: (body: z.input<typeof AddTaskBody>) =>
    museum.post<TaskDetail>('/projectTask/addProjectTask', body, { idempotencyKey: key(), ...quiet }),
  task: (taskId: number, signal?: AbortSignal) =>
    museum.post<TaskDetail>('/projectTask/getProjectTask', { taskId }, { signal, silent: true }),
  /** Changes the one field `ext1` names; `version` is the task's version the dialog saw. */
  updateTask: (taskId: number, field: TaskField, value: unknown, version: number) =>
    museum.post<TaskDetail>(
      '/projectTask/updateProjectTask',
      { taskId, ext1: field, [field]: value, version },
      { idempotencyKey: key(), ...quiet },
    ),
  moveTask: (taskId: number, blockId: number, sort: number) =>
    museum.post<TaskDetail>(
      '/projectTask/moveProjectTask',
      { taskId, parentId: blockId, sort },
      { idempotencyKey: key(), ...quiet },
    ),
  addKid: (parentId: number, taskName: string) =>
    museum.post<{ kidId: number }>(
      '/projectTask/addKidTask',
      { parentId, taskName },
      { idempotencyKey: key(), ...quiet },
    ),
  toggleKid: (kidId: number, collectStatus: number, version: number) =>
    museum.post<unknown>(
      '/projectTask/updateKidTask',
      { kidId, ext1: 'collectStatus', collectStatus, version },
      { idempotencyKey: key(), ...quiet },
    ),
  deleteKid: (kidId: number) =>
    museum.post<unknown>('/projectTask/deleteKidTask', { kidId }, { idempotencyKey: key(), ...quiet }),
  history: (taskId: number, signal?: AbortSignal) =>
    museum.post<HistoryLine[]>('/projectTask/getProjectHistoryList', { taskId }, { signal, silent: true }),
  comments: (taskId: number, signal?: AbortSignal) =>
    museum.post<CommentRow[]>(
      '/projectTask/getProjectConmentsList',
      { ownerId: taskId },
      { signal, silent: true },
    ),
  addComment: (taskId: number, commentContent: string) =>
    museum.post<CommentRow[]>(
      '/projectTask/addProjectConmentsList',
      { ownerId: taskId, commentContent },
      { idempotencyKey: key(), ...quiet },
    ),
  deleteComment: (commentId: number) =>
    museum.post<unknown>(
      '/projectTask/deleteProjectConments',
      { commentId },
      { idempotencyKey: key(), ...quiet },
    ),
  people: (projectId: number, signal?: AbortSignal) =>
    museum.post<PickerUser[]>(
      '/projectUser/getUserCooperation',
      { projectId, type: 1 },
      { signal, silent: true },
    ),
};
