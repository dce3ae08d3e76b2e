import type { GateList, GateOrder, GateVisitor } from '../../../shared/api/reservation-gate';
import { admissionProblem } from '../../../shared/records/reservation/admission';
import { formatMuseumMinute } from '../../../shared/rules/museum-time';
import { isUnsent, type OutboxOp } from '../../lib/outbox';

/**
 * What the gate page shows, from today's list as last synced and this tablet's check-ins still
 * in the outbox (one write per visitor). Pure, so the rules are tested apart from the page.
 */

/** The outbox kind of one visitor's check-in at the gate. */
export const KIND_GATE = 'reservation.gateCheckIn';

/** The device-cache and query key of today's list (the check-ins' scope). */
export const gateKey = ['reservation-gate', 'list'] as const;

export interface GateMeta {
  orderId: number;
  visitorId: number;
  orderNo: string;
  name: string;
  /** The moment recorded on the tablet, corrected by its clock offset. */
  at: number;
}

export type GateVisitorView = GateVisitor & {
  /** Admitted on this tablet, not yet confirmed by the server: 待同步. */
  pending: boolean;
};
export type GateOrderView = Omit<GateOrder, 'visitors'> & { visitors: GateVisitorView[] };
export type GateView = Omit<GateList, 'orders'> & { orders: GateOrderView[] };

/** The list with this tablet's check-ins drawn over it (queued, in flight or just sent). */
export function overlayGate(list: GateList, ops: readonly OutboxOp[]): GateView {
  const mine = new Map<number, OutboxOp>();
  for (const o of ops)
    if (o.kind === KIND_GATE && o.status !== 'failed') mine.set((o.meta as GateMeta).visitorId, o);
  return {
    ...list,
    orders: list.orders.map((order) => ({
      ...order,
      visitors: order.visitors.map((v) => {
        const op = mine.get(v.id);
        // The server's time wins once it has one; until then the tablet's own record is shown.
        if (!op || v.checkStatus === 1) return { ...v, pending: false };
        return { ...v, checkStatus: 1, checkTime: (op.meta as GateMeta).at, pending: isUnsent(op) };
      }),
    })),
  };
}

export interface GateCounts {
  /** Individual visitors admitted / expected today (cancelled and voided orders not expected). */
  entered: number;
  expected: number;
  pending: number;
  teamEntered: number;
  teamExpected: number;
}

export function gateCounts(view: GateView): GateCounts {
  const c: GateCounts = { entered: 0, expected: 0, pending: 0, teamEntered: 0, teamExpected: 0 };
  for (const o of view.orders) {
    if (o.status === 3 || o.status === 5) continue;
    for (const v of o.visitors) {
      c.expected++;
      if (v.checkStatus === 1) c.entered++;
      if (v.pending) c.pending++;
    }
  }
  for (const t of view.teams) {
    c.teamExpected += t.visitorCount;
    if (t.status === 3) c.teamEntered += t.actualCount ?? 0;
  }
  return c;
}

/**
 * The entry code in what the scanner read: the code itself (22 base64url characters), or a
 * link or text that ends with it (a QR may carry the booking page's address).
 */
export function codeOf(scanned: string): string {
  const text = scanned.trim();
  const tail = /([A-Za-z0-9_-]{22})$/.exec(text);
  return tail ? tail[1]! : text;
}

const hm = (ms: number) => formatMuseumMinute(ms).slice(11);

export interface Verdict {
  order: GateOrderView;
  /** Visitors who may still come in (not yet admitted, here or elsewhere). */
  open: GateVisitorView[];
  /** Why nobody of this order can come in now, or null. */
  problem: string | null;
}

/**
 * The tablet's check of a found order at `at` (the server's words, shared): its status, day
 * and window, and a code already used here: everyone admitted (by the list or this tablet).
 */
export function verdictOf(view: GateView, order: GateOrderView, at: number): Verdict {
  const open = order.visitors.filter((v) => v.checkStatus === 0);
  let problem = admissionProblem({ ...order, date: view.date }, at, view.arrivalToleranceMinutes);
  if (!problem && !open.length) {
    const last = order.visitors
      .filter((v) => v.checkStatus === 1 && v.checkTime != null)
      .sort((a, b) => (b.checkTime ?? 0) - (a.checkTime ?? 0))[0];
    problem = last
      ? `该入馆码已使用：全部参观人已入馆（${hm(last.checkTime!)}${last.pending ? '，待同步' : ''}），不能重复核销`
      : '没有可入馆的参观人';
  }
  return { order, open, problem };
}

export function findByCodeHash(view: GateView, hash: string): GateOrderView | undefined {
  return view.orders.find((o) => o.codeHash === hash);
}

export function findByIdHash(
  view: GateView,
  hash: string,
): { order: GateOrderView; visitor: GateVisitorView } | undefined {
  // A person may hold a cancelled order and a live one the same day: the live one first.
  const hits = view.orders.flatMap((order) =>
    order.visitors.filter((v) => v.idHash === hash).map((visitor) => ({ order, visitor })),
  );
  return hits.find((h) => h.order.status !== 3 && h.order.status !== 5) ?? hits[0];
}

/** Refused check-ins of this tablet, oldest first, kept until dismissed. */
export function refusedGate(ops: readonly OutboxOp[]): OutboxOp[] {
  return ops.filter((o) => o.kind === KIND_GATE && o.status === 'failed');
}
