import type { z } from 'zod';
import type {
  AddTaskBody,
  BoardDetails,
  CommentRow,
  PickerUser,
  ProjectAddBody,
  ProjectBoard,
  ProjectRow,
  ProjectUpdateBody,
  TaskDetail,
  TaskField,
} from '../../../shared/api/project';
import { museum } from '../../lib/api';
import { projectKeys, projectWrites, type HistoryLine, type TaskRef } from '../../lib/projects';

/** History line of a task (the spec's shape: ext1 the time). */
export type { HistoryLine };

export { projectKeys };

/**
 * A write with its own idempotency key. `inPlace`: a form shows the server's words beside the
 * field, so the client does not toast them too; every other refusal is toasted by the client.
 */
const post = <T = unknown>(path: string, body: unknown, inPlace = false) =>
  museum.post<T>(path, body, { idempotencyKey: crypto.randomUUID(), silent: inPlace });

/** Reads and the writes that need the network; the ones that work offline are in lib/projects.ts. */
export const projectCalls = {
  /** `archived` 1 lists the archived projects (the list's 已归档 tab), else the working ones. */
  list: (type: 'exhibition' | undefined, signal?: AbortSignal, archived: 0 | 1 = 0) =>
    museum.get<ProjectRow[]>('/project/list', { query: { type, archived }, signal, silent: true }),
  board: (projectId: number, signal?: AbortSignal) =>
    museum.get<ProjectBoard>('/project/board', { query: { projectId }, signal, silent: true }),
  /** Every open card's detail, history and comments, for the board's offline copy (bounded). */
  boardDetails: (projectId: number, signal?: AbortSignal) =>
    museum.get<BoardDetails>('/projectTask/boardDetails', { query: { projectId }, signal, silent: true }),
  create: (body: z.input<typeof ProjectAddBody>) => post<ProjectRow>('/project/add', body),
  /** Every field of the project; `ownerId` must be a collaborator (the server says so otherwise). */
  update: (body: z.input<typeof ProjectUpdateBody>) => post<ProjectRow>('/project/update', body, true),
  archive: (projectId: number, archived: 0 | 1) =>
    post<ProjectRow>('/project/archive', { projectId, archived }),
  addBlock: (projectId: number, name: string) =>
    post<{ blockId: number }>('/projectBlock/add', { projectId, name }, true),
  renameBlock: (blockId: number, name: string) => post('/projectBlock/rename', { blockId, name }, true),
  deleteBlock: (blockId: number) => post('/projectBlock/delete', { blockId }),
  /** Every board of the project in the new order (the server refuses a stale list). */
  sortBlocks: (projectId: number, blockIds: number[]) => post('/projectBlock/sort', { projectId, blockIds }),
  addTask: (body: z.input<typeof AddTaskBody>) => post<TaskDetail>('/projectTask/addProjectTask', body, true),
  task: (taskId: number, signal?: AbortSignal) =>
    museum.post<TaskDetail>('/projectTask/getProjectTask', { taskId }, { signal, silent: true }),
  /** Changes the one field `ext1` names; `version` is the task's version the dialog saw. */
  updateTask: (taskId: number, field: TaskField, value: unknown, version: number) =>
    post<TaskDetail>('/projectTask/updateProjectTask', { taskId, ext1: field, [field]: value, version }),
  /**
   * Moves a card to index `sort` of a board. With `seen` (the card as the user saw it and the
   * board's name) it goes through the outbox: offline it waits as 待同步 and replays once; the
   * server's refusal rejects with OutboxRefusal (the caller shows it). Without, it is sent at once.
   */
  moveTask: (taskId: number, blockId: number, sort: number, seen?: { task: TaskRef; blockName: string }) =>
    seen
      ? projectWrites.move(seen.task, { blockId, name: seen.blockName }, sort)
      : post<TaskDetail>('/projectTask/moveProjectTask', { taskId, parentId: blockId, sort }),
  /** Deletes the task and its subtasks (spec §5: the confirmation says so). */
  deleteTask: (taskId: number) => post('/projectTask/deleteTask', { taskId }),
  /** Changes a subtask's deadline or assignee (online only); a completed subtask is refused. */
  updateKid: (
    kidId: number,
    field: 'deadline' | 'assigner',
    value: string | number | null,
    version: number,
  ) => post<TaskDetail>('/projectTask/updateKidTask', { kidId, ext1: field, [field]: value, version }),
  deleteKid: (kidId: number) => post('/projectTask/deleteKidTask', { kidId }),
  history: (taskId: number, signal?: AbortSignal) =>
    museum.post<HistoryLine[]>('/projectTask/getProjectHistoryList', { taskId }, { signal, silent: true }),
  comments: (taskId: number, signal?: AbortSignal) =>
    museum.post<CommentRow[]>(
      '/projectTask/getProjectConmentsList',
      { ownerId: taskId },
      { signal, silent: true },
    ),
  deleteComment: (commentId: number) => post('/projectTask/deleteProjectConments', { commentId }),
  people: (projectId: number, signal?: AbortSignal) =>
    museum.post<PickerUser[]>(
      '/projectUser/getUserCooperation',
      { projectId, type: 1 },
      { signal, silent: true },
    ),
};
