import type { BookQueueCounts } from '../../shared/api/books-admin';
import type { PendingStaffCount } from '../../shared/api/registration';
import type {
  ApprovalMessageRow,
  CooperationRow,
  NoticeRow,
  ResourceCounts,
  SidebarCounts,
} from '../../shared/api/notice';
import type { OutboxOp } from './outbox';

/**
 * The notice centre's queued reads and clears drawn over its cached lists and counts, so a
 * read made offline shows at once (pure; lib/notices.ts wires them to the views).
 */

/**
 * The badges' counts; `pendingStaffCount` only for those who decide registrations, the book
 * queues' only for the librarian.
 */
export type Counts = SidebarCounts & ResourceCounts & Partial<PendingStaffCount> & Partial<BookQueueCounts>;
export type NoticeOpKind =
  'notice.read' | 'notice.clear' | 'cooperation.read' | 'cooperation.clear' | 'approval.read';

type Op = Pick<OutboxOp, 'kind' | 'meta' | 'status'>;

const kindIs = (op: Op, ...kinds: NoticeOpKind[]) => (kinds as string[]).includes(op.kind);
/** Writes not yet on the server (sent ones are already in the server's answer once it refreshes). */
const unsent = (ops: Op[]) => ops.filter((o) => o.status === 'pending' || o.status === 'sending');

export function overlayNotices(list: NoticeRow[], ops: Op[]): NoticeRow[] {
  let out = list;
  for (const op of ops) {
    if (kindIs(op, 'notice.clear')) out = [];
    if (kindIs(op, 'notice.read')) {
      const id = (op.meta as { id: number }).id;
      out = out.map((n) => (n.noticeId === id ? { ...n, status: '2' as const } : n));
    }
  }
  return out;
}

export function overlayCooperation(list: CooperationRow[], ops: Op[]): CooperationRow[] {
  let out = list;
  for (const op of ops) {
    if (kindIs(op, 'cooperation.clear')) out = [];
    if (kindIs(op, 'cooperation.read')) {
      const id = (op.meta as { id: number }).id;
      out = out.filter((c) => c.cooperationId !== id);
    }
  }
  return out;
}

export function overlayApproval(list: ApprovalMessageRow[], ops: Op[]): ApprovalMessageRow[] {
  const read = new Set(
    ops.filter((o) => kindIs(o, 'approval.read')).map((o) => (o.meta as { id: number }).id),
  );
  return read.size ? list.filter((m) => !(m.status === '10' && read.has(m.actvityId))) : list;
}

export function overlayCounts(c: Counts, all: Op[]): Counts {
  const ops = unsent(all);
  if (ops.length === 0) return c;
  let { noticeCount, cooperationCount, copytoCount } = c;
  for (const op of ops) {
    const meta = op.meta as { id?: number; unread?: boolean };
    if (kindIs(op, 'notice.clear')) noticeCount = 0;
    if (kindIs(op, 'notice.read') && meta.unread) noticeCount--;
    if (kindIs(op, 'cooperation.clear')) cooperationCount = 0;
    if (kindIs(op, 'cooperation.read')) cooperationCount--;
    if (kindIs(op, 'approval.read')) copytoCount--;
  }
  noticeCount = Math.max(0, noticeCount);
  cooperationCount = Math.max(0, cooperationCount);
  copytoCount = Math.max(0, copytoCount);
  const approvalCount = c.todoCount + copytoCount;
  return {
    ...c,
    noticeCount,
    cooperationCount,
    copytoCount,
    approvalCount,
    total: approvalCount + noticeCount + cooperationCount,
  };
}
