import { describe, expect, it } from 'vitest';
import {
  overlayApproval,
  overlayCooperation,
  overlayCounts,
  overlayNotices,
  type Counts,
} from '../../src/app/lib/notice-overlay';
import type { ApprovalMessageRow, CooperationRow, NoticeRow } from '../../src/shared/api/notice';

/** Reads and clears made offline, drawn over the cached notice centre before they sync. */

const notice = (noticeId: number, status: '1' | '2' = '1'): NoticeRow => ({
  noticeId,
  noticeContent: `通知${noticeId}`,
  status,
  createTimeStr: '2026-11-22 10:00:00',
  source: 'system',
  link: null,
});
const coop = (cooperationId: number): CooperationRow => ({
  cooperationId,
  cooperationTitle: `协作${cooperationId}`,
  cooperationContent: '',
  cooperationType: '1',
  createTimeStr: '2026-11-22 10:00:00',
  userImg: '',
  userName: '',
  projectId: null,
  taskId: null,
  isDelete: 0,
});
const msg = (actvityId: number, status: '1' | '10'): ApprovalMessageRow => ({
  actvityId,
  title: `审批${actvityId}`,
  startTime: '2026-11-22 10:00:00',
  status,
  type: 'leave',
  userImg: '',
  userName: '',
});
type Status = 'pending' | 'sending' | 'done' | 'failed';
const op = (kind: string, meta: unknown = {}, status: Status = 'pending') => ({ kind, meta, status });

const COUNTS: Counts = {
  todoCount: 1,
  copytoCount: 2,
  approvalCount: 3,
  noticeCount: 2,
  cooperationCount: 2,
  total: 7,
  all: 0,
  uploadCount: 0,
  applyCount: 0,
};

describe('notice centre overlays', () => {
  it('marks a queued read notice read, and a queued clear empties the list', () => {
    const list = [notice(1), notice(2)];
    expect(overlayNotices(list, [op('notice.read', { id: 2 })]).map((n) => n.status)).toEqual(['1', '2']);
    expect(overlayNotices(list, [op('notice.clear')])).toEqual([]);
    // Writes apply in queue order: a read after a clear has nothing left to mark.
    expect(overlayNotices([notice(3)], [op('notice.clear'), op('notice.read', { id: 3 })])).toEqual([]);
    expect(overlayNotices(list, [])).toBe(list);
  });

  it('takes read collaboration items and read copies off their lists, never awaiting ones', () => {
    expect(overlayCooperation([coop(1), coop(2)], [op('cooperation.read', { id: 1 })])).toEqual([coop(2)]);
    expect(overlayCooperation([coop(1)], [op('cooperation.clear')])).toEqual([]);
    const msgs = [msg(5, '1'), msg(5, '10'), msg(6, '10')];
    expect(overlayApproval(msgs, [op('approval.read', { id: 5 })])).toEqual([msg(5, '1'), msg(6, '10')]);
  });

  it('counts down for writes not yet sent, and keeps totals consistent', () => {
    const c = overlayCounts(COUNTS, [
      op('notice.read', { id: 1, unread: true }),
      // Reading an already read notice changes no count.
      op('notice.read', { id: 2, unread: false }),
      op('cooperation.read', { id: 1 }, 'sending'),
      op('approval.read', { id: 5 }),
    ]);
    expect(c).toMatchObject({
      noticeCount: 1,
      cooperationCount: 1,
      copytoCount: 1,
      approvalCount: 2,
      total: 4,
    });
    // A write the server has (done) is in the server's counts already; a refused one changed nothing.
    expect(overlayCounts(COUNTS, [op('notice.clear', {}, 'done'), op('notice.clear', {}, 'failed')])).toBe(
      COUNTS,
    );
    // Never below zero.
    const many = Array.from({ length: 5 }, () => op('cooperation.read', { id: 9 }));
    expect(overlayCounts(COUNTS, many).cooperationCount).toBe(0);
    expect(overlayCounts(COUNTS, [op('notice.clear')])).toMatchObject({ noticeCount: 0, total: 5 });
  });
});
