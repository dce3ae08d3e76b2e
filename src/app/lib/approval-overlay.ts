import type { InstDetail, InstPage, InstRow } from '../../shared/api/workflow';
import { isUnsent, refusedOf, type OutboxOp } from './outbox';

/**
 * The approvals' writes made offline drawn over their cached lists and details (pure; wired
 * in lib/approvals.ts). A queued agree or refuse shows as 待同步 on the row and in the panel
 * and hides the decision buttons; a queued comment shows in the comment list. A write the
 * server refused on replay (已被他人处理, 该申请已撤销) is `failed`: it is no longer drawn, the
 * views refresh to the server's truth, and the panel shows the refusal (`refusedFor`).
 */

export const APPROVAL_KINDS = {
  decide: 'approvals.decide',
  comment: 'approvals.comment',
  /** The notice centre's kind for the same call, so its counts and list overlay it too. */
  read: 'approval.read',
} as const;

export interface DecideMeta {
  id: number;
  action: 2 | 3;
  title: string;
}
export interface CommentMeta {
  id: number;
  comment: string;
  title: string;
}

type Op = Pick<OutboxOp, 'kind' | 'meta' | 'status'>;
const isOurs = (o: Op) => (Object.values(APPROVAL_KINDS) as string[]).includes(o.kind);
const metaId = (meta: unknown) => (meta as { id?: number } | null)?.id;
const idOf = (o: Op) => metaId(o.meta);
const unsent = isUnsent;

export type ProcessRow = InstRow & { syncPending?: boolean };

/** Rows with a decision or comment still on the device are marked 待同步. */
export function overlayList(page: InstPage, ops: readonly Op[]): { list: ProcessRow[]; total: number } {
  const waiting = new Set(
    ops.filter((o) => isOurs(o) && unsent(o) && o.kind !== APPROVAL_KINDS.read).map(idOf),
  );
  if (waiting.size === 0) return page;
  return {
    ...page,
    list: page.list.map((r) => (waiting.has(r.actvityId) ? { ...r, syncPending: true } : r)),
  };
}

export interface QueuedState {
  /** The decision taken on this device and not yet refreshed from the server. */
  action?: 2 | 3;
  /** True while some write of this request has not reached the server. */
  syncPending: boolean;
  comments: string[];
  read: boolean;
}
export type ProcessDetail = InstDetail & { queued: QueuedState };

export function overlayDetail(detail: InstDetail, id: number, ops: readonly Op[]): ProcessDetail {
  const mine = ops.filter((o) => isOurs(o) && idOf(o) === id && o.status !== 'failed');
  const queued: QueuedState = { syncPending: mine.some(unsent), comments: [], read: false };
  for (const o of mine) {
    if (o.kind === APPROVAL_KINDS.decide) queued.action = (o.meta as DecideMeta).action;
    // A sent comment is in the server's list once the view refreshes; until then draw it too.
    if (o.kind === APPROVAL_KINDS.comment && unsent(o)) queued.comments.push((o.meta as CommentMeta).comment);
    if (o.kind === APPROVAL_KINDS.read) queued.read = true;
  }
  return { ...detail, queued };
}

/** The refused replays of this request, oldest first: the panel shows each with its reason. */
export function refusedFor<T extends Op>(ops: readonly T[], id: number): T[] {
  return refusedOf(ops, Object.values(APPROVAL_KINDS), metaId, id);
}
