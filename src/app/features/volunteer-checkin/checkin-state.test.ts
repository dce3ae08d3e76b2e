import { describe, expect, it } from 'vitest';
import type { OutboxOp } from '../../lib/outbox';
import { KIND_IN, KIND_OUT, checkState, opsOfSession } from './checkin-state';

let seq = 0;
function op(
  kind: string,
  detailId: number,
  at: number,
  status: OutboxOp['status'],
  error?: string,
): OutboxOp {
  seq++;
  return {
    seq,
    id: `op${seq}`,
    idempotencyKey: `k${seq}`,
    client: 'museum',
    path: '/v2/exhibitionDetailUser/check',
    body: {},
    label: '',
    kind,
    scope: [],
    meta: { detailId, at },
    status,
    createdAt: at,
    attempts: 0,
    ...(error ? { error } : {}),
  };
}

const waiting = { id: 1, status: 0, checkInTime: null, checkOutTime: null, serviceMinutes: 0 };

describe('the check-in state on the phone', () => {
  it('shows a queued check-in as 待同步 over the last synced row', () => {
    const s = checkState(waiting, [op(KIND_IN, 5, 1_000, 'pending')]);
    expect(s.checkIn).toEqual({ time: 1_000, pending: true });
    expect(s.checkOut).toBeNull();
    // Sent but the view not yet refreshed: the phone's time, no longer pending.
    expect(checkState(waiting, [op(KIND_IN, 5, 1_000, 'done')]).checkIn).toEqual({
      time: 1_000,
      pending: false,
    });
  });

  it("prefers the server's placed time once it has one", () => {
    const row = { ...waiting, status: 1, checkInTime: 900 };
    expect(checkState(row, [op(KIND_IN, 5, 1_000, 'done')]).checkIn).toEqual({ time: 900, pending: false });
    const out = checkState(row, [op(KIND_OUT, 5, 5_000, 'sending')]);
    expect(out.checkOut).toEqual({ time: 5_000, pending: true });
  });

  it('keeps refused writes apart, with their reason, and does not draw them as done', () => {
    const refused = op(KIND_IN, 5, 1_000, 'failed', '该场次已取消：闭馆，签到未计入');
    const s = checkState(waiting, [refused]);
    expect(s.checkIn).toBeNull();
    expect(s.refused).toEqual([refused]);
  });

  it('reads only this session’s check-ins from the outbox', () => {
    const mine = op(KIND_IN, 5, 1, 'pending');
    const ops = [mine, op(KIND_IN, 6, 1, 'pending'), op('drive.rename', 5, 1, 'pending')];
    expect(opsOfSession(ops, 5)).toEqual([mine]);
  });

  it('says absent only when nothing was recorded on the phone', () => {
    const absent = { ...waiting, status: 3 };
    expect(checkState(absent, []).absent).toBe(true);
    expect(checkState(absent, [op(KIND_IN, 5, 1, 'pending')]).absent).toBe(false);
  });
});
