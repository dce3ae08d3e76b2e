import type {
  BoardDetails,
  CommentRow,
  KidTask,
  ProjectBoard,
  TaskCard,
  TaskDetail,
} from '../../shared/api/project';
import { TASK_DONE } from '../../shared/api/project-state';
import { isUnsent, refusedOf, type OutboxOp } from './outbox';

/**
 * Project task writes made offline (or on a failed network) drawn over the cached board and
 * task views (pure; wired in lib/projects.ts). A queued title, deadline or done change shows
 * its new value, a ticked subtask is ticked, an added subtask and a comment are listed, a moved
 * card sits in its new board — each marked 待同步 until the server has it. A write the server
 * refused on replay (此任务已被删除, or 该任务已被…修改 when someone else changed it since) is
 * `failed`: it is no longer drawn, the views refresh to the server's truth, and the task dialog
 * shows the refusal (`projectRefusals`).
 */

export const PROJECT_KINDS = {
  /** updateProjectTask of one field: the title, the deadline or done. */
  field: 'project.field',
  /** updateKidTask collectStatus. */
  kid: 'project.kid',
  addKid: 'project.addKid',
  comment: 'project.comment',
  move: 'project.move',
} as const;
const KINDS: readonly string[] = Object.values(PROJECT_KINDS);

/** The fields a user may change offline (others need the network). */
export type OfflineField = 'taskName' | 'deadline' | 'collectStatus';

interface Base {
  projectId: number;
  taskId: number;
  /** The task's title when the write was made (the outbox panel's label). */
  taskName: string;
  /** The task's version the user saw; replays after our own earlier writes are rebased (projects.ts). */
  seen: number;
}
export type FieldMeta = Base & { field: OfflineField; value: string | number | null };
export type KidMeta = Base & { kidId: number; kidName: string; kidSeen: number; to: number };
export type AddKidMeta = Base & { kidName: string };
export type CommentMeta = Base & { html: string };
export type MoveMeta = Base & { blockId: number; blockName: string; sort: number };
export type ProjectMeta = FieldMeta | KidMeta | AddKidMeta | CommentMeta | MoveMeta;

type Op = Pick<OutboxOp, 'kind' | 'meta' | 'status'>;
const isOurs = (o: Op) => KINDS.includes(o.kind);
const taskIdOf = (meta: unknown) => (meta as Partial<Base> | null)?.taskId;

export type BoardCard = TaskCard & { syncPending?: boolean };
export type BoardView = Omit<ProjectBoard, 'blocks'> & {
  blocks: (Omit<ProjectBoard['blocks'][number], 'tasks'> & { tasks: BoardCard[] })[];
};

function overdue(deadline: string | null, collectStatus: number, today: string) {
  return deadline !== null && collectStatus !== TASK_DONE && deadline < today;
}

function applyField<T extends TaskCard>(task: T, m: FieldMeta, today: string): T {
  const next = { ...task, [m.field]: m.value };
  return { ...next, overdue: overdue(next.deadline, next.collectStatus, today) };
}

/** The board with queued writes applied, in queue order; cards with an unsent write are marked. */
export function overlayBoard(board: ProjectBoard, ops: readonly Op[], today: string): BoardView {
  const mine = ops.filter((o) => isOurs(o) && o.status !== 'failed');
  if (mine.length === 0) return board;
  const blocks = board.blocks.map((b) => ({ ...b, tasks: [...b.tasks] as BoardCard[] }));
  const find = (taskId: number) => {
    for (const b of blocks) {
      const i = b.tasks.findIndex((t) => t.taskId === taskId);
      if (i >= 0) return { b, i };
    }
    return undefined;
  };
  for (const o of mine) {
    const m = o.meta as ProjectMeta;
    const at = find(m.taskId);
    if (!at) continue;
    let card: BoardCard = { ...at.b.tasks[at.i]! };
    if (isUnsent(o)) card.syncPending = true;
    if (o.kind === PROJECT_KINDS.field) card = applyField(card, m as FieldMeta, today);
    if (o.kind === PROJECT_KINDS.kid) card.kidDone += (m as KidMeta).to === TASK_DONE ? 1 : -1;
    if (o.kind === PROJECT_KINDS.addKid) card.kidCount += 1;
    if (o.kind === PROJECT_KINDS.move) {
      const mv = m as MoveMeta;
      const to = blocks.find((b) => b.blockId === mv.blockId);
      if (to) {
        at.b.tasks.splice(at.i, 1);
        to.tasks.splice(Math.min(mv.sort, to.tasks.length), 0, { ...card, blockId: to.blockId });
        continue;
      }
    }
    at.b.tasks[at.i] = card;
  }
  return { ...board, blocks };
}

export type QueuedKid = KidTask & { syncPending?: boolean; queued?: boolean };
export interface QueuedTaskState {
  /** True while some write of this task has not reached the server. */
  syncPending: boolean;
  /** Comments written on this device and not yet sent (HTML). */
  comments: string[];
}
export type TaskView = Omit<TaskDetail, 'kidsTasks'> & { kidsTasks: QueuedKid[]; queued: QueuedTaskState };

/** The task with its queued writes applied. Subtasks added offline have no id yet (negative, `queued`). */
export function overlayTask(detail: TaskDetail, ops: readonly Op[], today: string): TaskView {
  const mine = ops.filter((o) => isOurs(o) && o.status !== 'failed' && taskIdOf(o.meta) === detail.taskId);
  let task: TaskView = { ...detail, queued: { syncPending: mine.some(isUnsent), comments: [] } };
  let added = 0;
  for (const o of mine) {
    const m = o.meta as ProjectMeta;
    const unsent = isUnsent(o);
    if (o.kind === PROJECT_KINDS.field) task = applyField(task, m as FieldMeta, today);
    if (o.kind === PROJECT_KINDS.kid) {
      const k = m as KidMeta;
      task.kidsTasks = task.kidsTasks.map((kid) =>
        kid.kidId === k.kidId ? { ...kid, collectStatus: k.to, syncPending: unsent || kid.syncPending } : kid,
      );
    }
    // A sent subtask or comment is in the server's lists once the view refreshes; until then draw it.
    if (o.kind === PROJECT_KINDS.addKid && unsent)
      task.kidsTasks = [...task.kidsTasks, queuedKid((m as AddKidMeta).kidName, --added)];
    if (o.kind === PROJECT_KINDS.comment && unsent)
      task.queued = { ...task.queued, comments: [...task.queued.comments, (m as CommentMeta).html] };
    if (o.kind === PROJECT_KINDS.move) {
      const mv = m as MoveMeta;
      task = { ...task, blockId: mv.blockId, blockName: mv.blockName };
    }
  }
  return task;
}

function queuedKid(taskName: string, kidId: number): QueuedKid {
  return {
    kidId,
    taskName,
    collectStatus: 1,
    deadline: null,
    assigner: null,
    assignerName: '',
    assignerImage: '',
    sort: Number.MAX_SAFE_INTEGER,
    version: 0,
    syncPending: true,
    queued: true,
  };
}

/** The refused replays of this task, oldest first: the dialog shows each with its reason. */
export function projectRefusals<T extends Op>(ops: readonly T[], taskId: number): T[] {
  return refusedOf(ops, KINDS, taskIdOf, taskId);
}

/** Every project query lives under ['project', …]. */
export const projectKeys = {
  all: ['project'] as const,
  lists: ['project', 'list'] as const,
  /** 'all' for /project-list, 'exhibition' for /exhibition. */
  list: (type: 'all' | 'exhibition') => ['project', 'list', type] as const,
  board: (projectId: number) => ['project', 'board', projectId] as const,
  task: (taskId: number) => ['project', 'task', taskId] as const,
  /** A task's history; the view adds the task's version, so a change re-reads it. */
  history: (taskId: number) => ['project', 'history', taskId] as const,
  comments: (taskId: number) => ['project', 'comments', taskId] as const,
  people: (projectId: number) => ['project', 'people', projectId] as const,
  /** The board's offline copy of its open cards (storeBoardDetails). */
  offlineCopy: (projectId: number) => ['project', 'offline-copy', projectId] as const,
};

/** A list as the task dialog keeps it: the rows shown and how many the server has. */
export interface KeptList<T> {
  rows: T[];
  total: number;
}
export interface HistoryLine {
  ext1: string;
  updater: string;
  actionDescription: string;
}

/** The task dialog's data before queued writes are drawn over it. */
export const taskViewOf = (d: TaskDetail): TaskView => ({
  ...d,
  queued: { syncPending: false, comments: [] },
});

/** The device rows of a board's offline copy, keyed exactly as the task dialog reads them (pure). */
export function boardDetailViews(d: BoardDetails) {
  return d.tasks.flatMap((x) => [
    { queryKey: projectKeys.task(x.task.taskId), data: taskViewOf(x.task) },
    {
      queryKey: [...projectKeys.history(x.task.taskId), x.task.version],
      data: { rows: x.history, total: x.historyTotal } satisfies KeptList<HistoryLine>,
    },
    {
      queryKey: projectKeys.comments(x.task.taskId),
      data: { rows: x.comments, total: x.commentsTotal } satisfies KeptList<CommentRow>,
    },
  ]);
}
