import type { QueryClient } from '@tanstack/react-query';
import type { BoardDetails, ProjectBoard, TaskDetail } from '../../shared/api/project';
import { TASK_DONE } from '../../shared/api/project-state';
import { museumDate } from '../../shared/rules/museum-time';
import { museum } from './api';
import { storeViews } from './cached-query';
import { tProject } from './i18n/project';
import { currentDb, outbox, submitWrite } from './offline';
import type { NewOp, OutboxEvent } from './outbox';
import {
  PROJECT_KINDS,
  overlayBoard,
  overlayTask,
  type AddKidMeta,
  type CommentMeta,
  type FieldMeta,
  type KidMeta,
  type MoveMeta,
  type OfflineField,
  type ProjectMeta,
  boardDetailViews,
  projectKeys,
} from './project-overlay';

export { projectKeys, taskViewOf, type HistoryLine, type KeptList } from './project-overlay';

/**
 * The project task writes that work offline (issue 9): a title, deadline or done change, a
 * subtask tick, a new subtask, a comment and a card move go through the outbox (lib/outbox.ts)
 * like the approvals' decisions (lib/approvals.ts): offline, or when the network fails, they
 * are queued with their idempotency key, drawn over the cached board and task as 待同步
 * (lib/project-overlay.ts) and replayed once, in order. Each carries the version the user saw:
 * the task's for a field change, the subtask's for a tick (the server refuses a stale one
 * naming who changed it). A refused replay is kept with its reason and the views refresh to
 * the server's truth.
 *
 * Our own queued writes must not refuse each other: every write bumps the task's version, so
 * the second of two offline edits would look stale. When a write is sent, the later queued
 * writes of the same task that saw the same version are moved to the server's new version —
 * only when that version is exactly one step on (nobody else wrote in between; if someone did,
 * the later writes stay on the old version and are refused naming them). Writes already tried
 * once keep their body, since the server may hold an answer under their key.
 */

/**
 * Keeps every open card of a board on the device as if each had been opened online (issue 17
 * §3: a subtask can be ticked in the storeroom without having opened the card before): its
 * detail, its history (keyed by its version, as the dialog reads it) and its comments, under
 * the dialog's own keys. The server bounds the answer (shared/api/project.ts BoardDetails).
 * Answers how many cards are kept and how many are open.
 */
export async function storeBoardDetails(qc: QueryClient, d: BoardDetails) {
  const stored = await storeViews(qc, boardDetailViews(d));
  return { kept: stored ? d.tasks.length : 0, open: d.openTotal };
}

/** The board and task views with the queued writes drawn over them (stable functions). */
export const boardOverlay = (b: ProjectBoard, ops: Parameters<typeof overlayBoard>[1]) =>
  overlayBoard(b, ops, museumDate(Date.now()));
export const taskOverlay = (d: TaskDetail, ops: Parameters<typeof overlayTask>[1]) =>
  overlayTask(d, ops, museumDate(Date.now()));

/** What a write needs to know of its task: where it is drawn, its label and the version seen. */
export interface TaskRef {
  projectId: number;
  taskId: number;
  taskName: string;
  version: number;
}

const base = (task: TaskRef) => ({
  projectId: task.projectId,
  taskId: task.taskId,
  taskName: task.taskName,
  seen: task.version,
});

function queue(task: TaskRef, op: Omit<NewOp, 'client' | 'scope'>) {
  const scope = [
    [...projectKeys.board(task.projectId)],
    [...projectKeys.task(task.taskId)],
    [...projectKeys.history(task.taskId)],
    [...projectKeys.comments(task.taskId)],
    [...projectKeys.lists],
  ];
  return submitWrite({ ...op, client: 'museum', scope });
}

const O = tProject.offline.ops;

/**
 * Resolve `{queued}` (true when it waits for the network) or reject with the server's words
 * (OutboxRefusal).
 */
export const projectWrites = {
  field: (task: TaskRef, field: OfflineField, value: string | number | null) =>
    queue(task, {
      path: '/projectTask/updateProjectTask',
      body: { taskId: task.taskId, ext1: field, [field]: value, version: task.version },
      label:
        field === 'taskName'
          ? O.taskName(task.taskName, String(value))
          : field === 'deadline'
            ? O.deadline(task.taskName, value as string | null)
            : O.collectStatus(task.taskName, value === TASK_DONE),
      kind: PROJECT_KINDS.field,
      meta: { ...base(task), field, value } satisfies FieldMeta,
    }),
  toggleKid: (task: TaskRef, kid: { kidId: number; taskName: string; version: number }, to: number) =>
    queue(task, {
      path: '/projectTask/updateKidTask',
      body: { kidId: kid.kidId, ext1: 'collectStatus', collectStatus: to, version: kid.version },
      label: O.kid(task.taskName, kid.taskName, to === TASK_DONE),
      kind: PROJECT_KINDS.kid,
      meta: {
        ...base(task),
        kidId: kid.kidId,
        kidName: kid.taskName,
        kidSeen: kid.version,
        to,
      } satisfies KidMeta,
    }),
  addKid: (task: TaskRef, kidName: string) =>
    queue(task, {
      path: '/projectTask/addKidTask',
      body: { parentId: task.taskId, taskName: kidName },
      label: O.addKid(task.taskName, kidName),
      kind: PROJECT_KINDS.addKid,
      meta: { ...base(task), kidName } satisfies AddKidMeta,
    }),
  comment: (task: TaskRef, html: string) =>
    queue(task, {
      path: '/projectTask/addProjectConmentsList',
      body: { ownerId: task.taskId, commentContent: html },
      label: O.comment(task.taskName),
      kind: PROJECT_KINDS.comment,
      meta: { ...base(task), html } satisfies CommentMeta,
    }),
  move: (task: TaskRef, block: { blockId: number; name: string }, sort: number) =>
    queue(task, {
      path: '/projectTask/moveProjectTask',
      body: { taskId: task.taskId, parentId: block.blockId, sort },
      label: O.move(task.taskName, block.name),
      kind: PROJECT_KINDS.move,
      meta: { ...base(task), blockId: block.blockId, blockName: block.name, sort } satisfies MoveMeta,
    }),
};

const KINDS: string[] = Object.values(PROJECT_KINDS);
const isDetail = (d: unknown): d is TaskDetail =>
  typeof d === 'object' && d !== null && 'version' in d && 'kidsTasks' in d;

/** Rebase step (see the module comment); exported for the outbox listener only. */
async function rebaseAfter(e: OutboxEvent) {
  // A comment does not change the task's version.
  if (e.type !== 'sent' || !KINDS.includes(e.op.kind) || e.op.kind === PROJECT_KINDS.comment) return;
  const m = e.op.meta as ProjectMeta;
  const db = currentDb();
  if (!db) return;
  const later = (await db.outbox.where('status').equals('pending').toArray()).filter(
    (o) => o.attempts === 0 && KINDS.includes(o.kind) && (o.meta as ProjectMeta).taskId === m.taskId,
  );
  if (later.length === 0) return;
  // addKidTask answers only the new id: read the task's version (the one-step check keeps it honest).
  const detail = isDetail(e.data)
    ? e.data
    : await museum
        .post<TaskDetail>('/projectTask/getProjectTask', { taskId: m.taskId }, { silent: true })
        .catch(() => undefined);
  if (!detail) return;
  const oneStep = (after: number, seen: number) => after === seen || after === seen + 1;
  const taskOk = oneStep(detail.version, m.seen);
  const sentKid = e.op.kind === PROJECT_KINDS.kid ? (m as KidMeta) : undefined;
  const kidAfter = sentKid && detail.kidsTasks.find((k) => k.kidId === sentKid.kidId);
  const kidOk = sentKid && kidAfter && oneStep(kidAfter.version, sentKid.kidSeen);
  for (const o of later) {
    let meta = o.meta as ProjectMeta;
    let body = o.body as Record<string, unknown>;
    if (taskOk && meta.seen === m.seen) {
      meta = { ...meta, seen: detail.version };
      if (o.kind === PROJECT_KINDS.field) body = { ...body, version: detail.version };
    }
    const k = meta as KidMeta;
    if (kidOk && o.kind === PROJECT_KINDS.kid && k.kidId === sentKid.kidId && k.kidSeen === sentKid.kidSeen) {
      meta = { ...k, kidSeen: kidAfter.version };
      body = { ...body, version: kidAfter.version };
    }
    if (meta !== o.meta && o.seq !== undefined) await db.outbox.update(o.seq, { meta, body });
  }
}

let started = false;
/** Registers the rebase step before any replay runs (main.tsx, next to startOffline). */
export function startProjectSync() {
  if (started) return;
  started = true;
  outbox.subscribe(rebaseAfter);
}
