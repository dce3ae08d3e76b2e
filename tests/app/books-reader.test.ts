import { describe, expect, it } from 'vitest';
import {
  applyProblem,
  askStateOf,
  bookFactsOf,
  clcClassOf,
  copiesOf,
  expectedDueDate,
  loanDatesOf,
  maxQuantityOf,
  ownActionsOf,
  ownTabsOf,
  renewProblem,
} from '../../src/app/features/books/reader-rules';

/**
 * The readers' pages of book lending (features/books/reader-rules.ts): what a catalogue row's
 * button offers, how copies read, what a request may ask, and exactly which actions each state
 * of one's own application allows (records-design §4.2). The server checks every one again
 * (tests/server/books.test.ts); these decide what the pages offer.
 */

const at = (iso: string) => Date.parse(iso);
const RULES = { maxDefers: 1 };

describe('the catalogue row', () => {
  it('offers 借阅 or 领用 by its 流通方式, none for 仅阅览 or a stopped row, and says offline', () => {
    expect(askStateOf({ lendMode: 1, status: 1 }, true)).toEqual({ kind: 'ask', applyType: 1 });
    expect(askStateOf({ lendMode: 2, status: 1 }, true)).toEqual({ kind: 'ask', applyType: 2 });
    expect(askStateOf({ lendMode: 3, status: 1 }, true)).toEqual({ kind: 'readOnly' });
    expect(askStateOf({ lendMode: 1, status: 2 }, true)).toEqual({ kind: 'stopped' });
    // Offline the button stays, saying the request needs the network; nothing is queued.
    expect(askStateOf({ lendMode: 1, status: 1 }, false)).toEqual({ kind: 'offline', applyType: 1 });
    expect(askStateOf({ lendMode: 3, status: 1 }, false)).toEqual({ kind: 'readOnly' });
  });

  it('reads its copies as free of the holding, never below zero', () => {
    expect(copiesOf({ totalCount: 5, reservedCount: 1, lentCount: 2 })).toEqual({ free: 2, total: 5 });
    expect(copiesOf({ totalCount: 1, reservedCount: 1, lentCount: 1 })).toEqual({ free: 0, total: 1 });
    expect(copiesOf({})).toEqual({ free: 0, total: 0 });
  });

  it('lists the facts that are filled in, with the class of its 中图分类号 in words', () => {
    expect(clcClassOf('K876.41')).toBe('K 历史、地理');
    expect(clcClassOf('tp311')).toBe('T 工业技术');
    expect(clcClassOf('')).toBe('');
    const facts = bookFactsOf({
      type: 1,
      author: '王振',
      publisher: '',
      clcNo: 'K85',
      lendMode: 1,
      binding: 2,
      frequency: 4,
    });
    expect(facts).toEqual([
      { label: '责任者', value: '王振' },
      { label: '中图分类号', value: 'K85（K 历史、地理）' },
      { label: '装帧', value: '精装' },
      { label: '流通方式', value: '可借阅' },
    ]);
    // A periodical says its 刊期 and issue.
    expect(bookFactsOf({ type: 2, frequency: 4, year: 2024, issue: '1-6' })).toEqual([
      { label: '刊期', value: '月刊' },
      { label: '年', value: '2024' },
      { label: '期', value: '1-6' },
    ]);
  });
});

describe('a request', () => {
  const limits = { maxBorrowDays: 30, maxQuantity: 3 };
  const ask = (o: Partial<Parameters<typeof applyProblem>[0]>) =>
    applyProblem({ applyType: 1, borrowDays: 14, quantity: 1, reason: '', ...o }, limits);

  it('takes a loan of 1 to the rule’s longest days, and a receipt up to its quantity', () => {
    expect(ask({})).toBeNull();
    expect(ask({ borrowDays: 30 })).toBeNull();
    expect(ask({ borrowDays: 31 })).toBe('借期最长 30 天');
    expect(ask({ borrowDays: '' })).toBe('请填写借期(天)');
    expect(ask({ borrowDays: 0 })).toBe('请填写借期(天)');
    expect(ask({ borrowDays: 2.5 })).toBe('请填写借期(天)');
    expect(ask({ applyType: 2, quantity: 3 })).toBeNull();
    expect(ask({ applyType: 2, quantity: 4 })).toBe('本次最多领用 3 册');
    expect(ask({ applyType: 2, quantity: '' })).toBe('请填写领用数量');
    expect(ask({ reason: '字'.repeat(201) })).toBe('用途最多 200 个字');
  });

  it('caps a receipt at the rule and the copies free, and at least 1', () => {
    expect(maxQuantityOf(5, 2)).toBe(2);
    expect(maxQuantityOf(5, 9)).toBe(5);
    expect(maxQuantityOf(5, 0)).toBe(1);
  });

  it('shows the due date a shorter loan gives from the server’s default', () => {
    expect(expectedDueDate('2026-12-26', 30, 30)).toBe('2026-12-26');
    expect(expectedDueDate('2026-12-26', 30, 14)).toBe('2026-12-10');
    expect(expectedDueDate('', 30, 14)).toBe('');
  });
});

describe('my own applications', () => {
  const now = at('2026-03-10T12:00:00+08:00');
  const actions = (row: Record<string, unknown>, rules = RULES, when = now) =>
    ownActionsOf({ applyType: 1, ...row }, { ...rules }, when);

  it('allows exactly 取消 while asked or approved and 重新申请 after a refusal or cancellation', () => {
    expect(actions({ status: 1 }).actions).toEqual(['cancel']);
    expect(actions({ status: 2 }).actions).toEqual(['cancel']);
    expect(actions({ status: 3 }).actions).toEqual(['reapply']);
    expect(actions({ status: 4 }).actions).toEqual(['reapply']);
    for (const status of [6, 7, 8]) expect(actions({ status })).toEqual({ actions: [], renewNote: null });
    // A 领用 is never renewed, even "on loan".
    expect(actions({ status: 5, applyType: 2, dueDate: '2026-03-20' }).actions).toEqual([]);
  });

  it('allows 申请续借 on loan, not overdue, with renewals left, and says why not otherwise', () => {
    expect(actions({ status: 5, dueDate: '2026-03-20', deferCount: 0 })).toEqual({
      actions: ['renew'],
      renewNote: null,
    });
    expect(actions({ status: 5, dueDate: '2026-03-20', deferCount: 1 })).toEqual({
      actions: [],
      renewNote: '已续借 1 次，不能再续借',
    });
    expect(actions({ status: 5, dueDate: '2026-03-20', deferCount: 1 }, { maxDefers: 2 }).actions).toEqual([
      'renew',
    ]);
    expect(actions({ status: 5, dueDate: '2026-03-20' }, { maxDefers: 0 }).renewNote).toBe(
      '本馆借阅不能续借',
    );
  });

  it('turns overdue at the museum’s midnight after the due date, not before', () => {
    const row = { status: 5, dueDate: '2026-03-10', deferCount: 0 };
    expect(actions(row, RULES, at('2026-03-10T23:59:59+08:00')).actions).toEqual(['renew']);
    expect(actions(row, RULES, at('2026-03-11T00:00:00+08:00'))).toEqual({
      actions: [],
      renewNote: '已逾期，不能续借，请尽快归还',
    });
    // 00:30 in Shanghai is still the 10th in UTC: the museum's day counts.
    expect(actions(row, RULES, at('2026-03-10T16:30:00Z')).actions).toEqual([]);
  });

  it('shows 取书截止 while waiting to be picked up and 应还日期 (red when overdue) on loan', () => {
    expect(loanDatesOf({ status: 2, pickupDeadline: '2026-03-12' }, now)).toEqual([
      { label: '取书截止', value: '2026-03-12', warn: false },
    ]);
    expect(loanDatesOf({ status: 2, pickupDeadline: '2026-03-09' }, now)[0]!.warn).toBe(true);
    expect(loanDatesOf({ status: 5, dueDate: '2026-03-09' }, now)).toEqual([
      { label: '应还日期', value: '2026-03-09', warn: true },
    ]);
    expect(loanDatesOf({ status: 6, dueDate: '2026-03-20', deferredDays: 7 }, now)).toEqual([
      { label: '应还日期', value: '2026-03-20', warn: false },
      { label: '申请续借', value: '7 天' },
    ]);
    expect(loanDatesOf({ status: 1 }, now)).toEqual([]);
  });

  it('asks a renewal for 1 to the rule’s days, with a reason', () => {
    expect(renewProblem(7, '课题未完成', 15)).toBeNull();
    expect(renewProblem(15, '课题未完成', 15)).toBeNull();
    expect(renewProblem(16, '课题未完成', 15)).toBe('续借天数最多 15 天');
    expect(renewProblem('', '课题未完成', 15)).toBe('请填写续借天数');
    expect(renewProblem(0, '课题未完成', 15)).toBe('请填写续借天数');
    expect(renewProblem(7, '  ', 15)).toBe('请填写续借原因');
    expect(renewProblem(7, '字'.repeat(201), 15)).toBe('续借原因最多 200 个字');
  });

  it('tabs the states each kind can reach (a 领用 is never on loan), 已逾期 beside 借阅中', () => {
    expect(ownTabsOf(1)).toEqual([1, 2, 5, 'overdue', 6, 7, 3, 4]);
    expect(ownTabsOf(2)).toEqual([1, 2, 8, 3, 4]);
  });
});
