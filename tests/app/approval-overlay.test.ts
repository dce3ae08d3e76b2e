import { describe, expect, it } from 'vitest';
import type { InstDetail, InstPage } from '../../src/shared/api/workflow';
import { APPROVAL_KINDS, overlayDetail, overlayList, refusedFor } from '../../src/app/lib/approval-overlay';
import type { OutboxOp } from '../../src/app/lib/outbox';

type Op = Pick<OutboxOp, 'kind' | 'meta' | 'status'> & { id?: string };
const op = (kind: string, meta: object, status: OutboxOp['status'] = 'pending'): Op => ({
  kind,
  meta,
  status,
});

const row = (actvityId: number) => ({
  actvityId,
  title: `王芳的报销${actvityId}`,
  templateName: '报销',
  starterName: '王芳',
  userImage: '',
  status: 1,
  priority: 1,
  createTime: '今天 10:00',
});
const page: InstPage = { list: [row(1), row(2)], total: 2 };
const detail = { title: 't', status: 1, comment: [] } as unknown as InstDetail;

describe('approval overlays', () => {
  it('marks rows with a queued decision or comment 待同步, not rows with only a read', () => {
    const out = overlayList(page, [
      op(APPROVAL_KINDS.decide, { id: 1, action: 2 }),
      op(APPROVAL_KINDS.read, { id: 2 }),
    ]);
    expect(out.list.map((r) => r.syncPending ?? false)).toEqual([true, false]);
    expect(
      overlayList(page, [op(APPROVAL_KINDS.comment, { id: 2, comment: 'x' })]).list[1]!.syncPending,
    ).toBe(true);
  });

  it('leaves the list alone once writes are sent, refused, or are another feature’s', () => {
    for (const ops of [
      [op(APPROVAL_KINDS.decide, { id: 1, action: 2 }, 'done')],
      [op(APPROVAL_KINDS.decide, { id: 1, action: 2 }, 'failed')],
      [op('drive.rename', { id: 1 })],
    ])
      expect(overlayList(page, ops)).toBe(page);
  });

  it('draws a queued decision, comments and read over the detail of that request only', () => {
    const ops = [
      op(APPROVAL_KINDS.decide, { id: 7, action: 3 }),
      op(APPROVAL_KINDS.comment, { id: 7, comment: '请补充发票' }),
      op(APPROVAL_KINDS.comment, { id: 8, comment: '别的申请' }),
      op(APPROVAL_KINDS.read, { id: 7 }, 'done'),
    ];
    expect(overlayDetail(detail, 7, ops).queued).toEqual({
      action: 3,
      syncPending: true,
      comments: ['请补充发票'],
      read: true,
    });
    expect(overlayDetail(detail, 9, ops).queued).toEqual({ syncPending: false, comments: [], read: false });
  });

  it('a refused replay no longer counts as the decision; it is listed with its reason', () => {
    const refused = { ...op(APPROVAL_KINDS.decide, { id: 7, action: 2 }, 'failed'), error: '已被他人处理' };
    expect(overlayDetail(detail, 7, [refused]).queued.action).toBeUndefined();
    expect(refusedFor([refused, op(APPROVAL_KINDS.decide, { id: 7, action: 2 })], 7)).toEqual([refused]);
    expect(refusedFor([refused], 8)).toEqual([]);
  });
});
