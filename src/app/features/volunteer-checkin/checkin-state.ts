import type { MySession } from '../../../shared/api/volunteer-service';
import { isUnsent, type OutboxOp } from '../../lib/outbox';

/**
 * What the check-in page shows, from the server's row (as last synced) and the phone's own
 * check-ins and check-outs still in the outbox. Pure, so the overlay rules are tested apart.
 */

/** The outbox kinds of the phone's check-in and check-out. */
export const KIND_IN = 'volunteer.checkIn';
export const KIND_OUT = 'volunteer.checkOut';

/** What a queued check-in or check-out carries for the page (beside its request body). */
export interface CheckMeta {
  detailId: number;
  /** The time the phone recorded, corrected by the measured offset (what the server will place). */
  at: number;
}

export interface Mark {
  time: number;
  /** Still on the phone: 待同步. */
  pending: boolean;
}

export interface CheckState {
  checkIn: Mark | null;
  checkOut: Mark | null;
  absent: boolean;
  /** Minutes the server counted (0 before the check-out). */
  minutes: number;
  /** The hours are confirmed (they count). */
  confirmed: boolean;
  /** Refused writes of this session, kept with the server's reason until dismissed. */
  refused: OutboxOp[];
}

const CHECKIN_ABSENT = 3;
const CHECKIN_CONFIRMED = 4;

export function opsOfSession(ops: readonly OutboxOp[], detailId: number): OutboxOp[] {
  return ops.filter(
    (o) => (o.kind === KIND_IN || o.kind === KIND_OUT) && (o.meta as CheckMeta | null)?.detailId === detailId,
  );
}

export function checkState(row: MySession['checkIn'] | undefined, ops: readonly OutboxOp[]): CheckState {
  let checkIn: Mark | null = row?.checkInTime != null ? { time: row.checkInTime, pending: false } : null;
  let checkOut: Mark | null = row?.checkOutTime != null ? { time: row.checkOutTime, pending: false } : null;
  for (const o of ops) {
    if (o.status === 'failed') continue;
    const mark = { time: (o.meta as CheckMeta).at, pending: isUnsent(o) };
    // The server's time wins once it has one; until then the phone's own record is shown.
    if (o.kind === KIND_IN && !checkIn) checkIn = mark;
    if (o.kind === KIND_OUT && !checkOut) checkOut = mark;
  }
  return {
    checkIn,
    checkOut,
    absent: row?.status === CHECKIN_ABSENT && !checkIn,
    minutes: row?.serviceMinutes ?? 0,
    confirmed: row?.status === CHECKIN_CONFIRMED,
    refused: ops.filter((o) => o.status === 'failed'),
  };
}
