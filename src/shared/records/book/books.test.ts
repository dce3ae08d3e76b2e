import { describe, expect, it } from 'vitest';
import {
  BOOK_RULE_DEFAULTS,
  availableOf,
  bookRulesOf,
  bsBookApproval,
  bsBookInfo,
  dueDateOf,
  isOverdue,
} from './books';

/** Museum time is UTC+8: 2026-12-01 23:59:59 there is 15:59:59 UTC. */
const at = (utc: string) => Date.parse(`${utc}Z`);

describe('overdue at the edge of the museum day', () => {
  const loan = { status: 5, dueDate: '2026-12-01' };

  it('is not overdue until the due day is over in museum time, whatever the server clock says', () => {
    expect(isOverdue(loan, at('2026-12-01T15:59:59'))).toBe(false); // 23:59:59 in the museum
    expect(isOverdue(loan, at('2026-12-01T16:00:00'))).toBe(true); // 00:00 the next day
    // Already 12-02 in UTC terms would be wrong: 2026-11-30 23:00 UTC is 12-01 07:00 in the museum.
    expect(isOverdue(loan, at('2026-11-30T23:00:00'))).toBe(false);
  });

  it('counts only loans held (借阅中, 延期审批中)', () => {
    const late = at('2026-12-10T04:00:00');
    expect(isOverdue({ ...loan, status: 6 }, late)).toBe(true);
    for (const status of [1, 2, 3, 4, 7, 8]) expect(isOverdue({ ...loan, status }, late)).toBe(false);
    expect(isOverdue({ status: 5, dueDate: '' }, late)).toBe(false);
  });

  it('dates a loan from the museum day it was picked up', () => {
    expect(dueDateOf(at('2026-12-01T16:30:00'), 30)).toBe('2027-01-01');
    expect(dueDateOf(at('2026-12-01T15:30:00'), 1)).toBe('2026-12-02');
  });
});

describe('stock and rules', () => {
  it('lends what the holding keeps beyond reservations and loans', () => {
    expect(availableOf({ totalCount: 5, reservedCount: 2, lentCount: 1 })).toBe(2);
  });

  it('reads empty rules as their defaults (30 days, one renewal of at most 15)', () => {
    expect(bookRulesOf(undefined)).toEqual(BOOK_RULE_DEFAULTS);
    expect(bookRulesOf({ maxActive: 3, maxDefers: 0, pickupDays: null })).toEqual({
      ...BOOK_RULE_DEFAULTS,
      maxActive: 3,
      maxDefers: 0,
    });
  });

  it('keeps the holding above what is out, and each kind to its fields', () => {
    const before = { id: 1, createTime: 0, createBy: null, updateTime: 0, updateBy: null };
    expect(bsBookInfo.canUpdate!({ ...before, reservedCount: 1, lentCount: 2 }, { totalCount: 2 })).toEqual({
      field: 'totalCount',
      message: '馆藏数不能少于已借出和待领取的 3 册',
    });
    expect(bsBookInfo.check!({ type: 2, publisher: '某社', year: 2026, issue: '' })?.field).toBe('issue');
    expect(bsBookInfo.check!({ type: 3, title: '本馆图录' })).toBeNull();
    expect(bsBookInfo.derive!({ isbn: '7-02-000220-X' }).isbn).toMatch(/^9787020002/);
  });

  it('extends a loan only when the renewal is agreed', () => {
    const row = {
      ...{ id: 1, createTime: 0, createBy: null, updateTime: 0, updateBy: null },
      dueDate: '2026-12-30',
      deferredDays: 5,
      deferCount: 0,
    };
    const delay = bsBookApproval.transitions!.delay!;
    expect(delay.set!(row, { agree: true })).toEqual({ dueDate: '2027-01-04', deferCount: 1 });
    expect(delay.set!(row, { agree: false, comment: '不同意' })).toEqual({});
    expect(delay.guard!(row, { agree: false })).toBe('不同意延期时请填写原因');
  });
});
