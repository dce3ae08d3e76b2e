import { describe, expect, it } from 'vitest';
import {
  CATALOGUE_COLUMNS,
  CATALOGUE_FORM,
  QUEUE_STATUSES,
  librarianMay,
  pickupLapsed,
  queueMark,
  queueName,
} from '../../src/app/features/books/admin-rules';
import { bsBookApproval, bsBookInfo } from '../../src/shared/records/book/books';
import { formFields } from '../../src/shared/records/define';
import { parseMuseumDate } from '../../src/shared/rules/museum-time';

/**
 * The librarian's pages of book lending (features/books/admin-rules.ts): each catalogue page
 * asks its kind's fields (records-design §4.1), each queue row offers the decisions its state
 * allows (§4.2), and the 已逾期 / 过期未取 marks turn at the museum day's edge.
 */

const WORDS = { overdue: '已逾期', pickupLate: '过期未取' };
// 2026-03-10 00:00 and 23:59:59 in museum time.
const DAY = parseMuseumDate('2026-03-10')!;
const LAST_SECOND = DAY + 86_400_000 - 1000;

const asked = (kind: 1 | 2 | 3) => {
  const { hide, required } = CATALOGUE_FORM[kind];
  const fields = formFields(bsBookInfo)
    .filter(([k]) => k !== 'type' && !hide.includes(k))
    .map(([k]) => k);
  return { fields, required: [...required] };
};

describe('the catalogue pages ask each kind its own fields', () => {
  it('a book asks 责任者, 出版社 and ISBN, not a periodical’s issue', () => {
    const { fields, required } = asked(1);
    expect(fields).toEqual(expect.arrayContaining(['title', 'author', 'publisher', 'isbn', 'location']));
    expect(fields).not.toEqual(expect.arrayContaining(['year']));
    for (const k of ['issn', 'cn', 'frequency', 'year', 'volume', 'issue']) expect(fields).not.toContain(k);
    expect(required).toEqual(['author', 'publisher']);
  });

  it('a periodical is one row per issue: 年 and 期 required, ISSN and CN asked, no ISBN', () => {
    const { fields, required } = asked(2);
    expect(fields).toEqual(expect.arrayContaining(['issn', 'cn', 'frequency', 'year', 'volume', 'issue']));
    expect(fields).not.toContain('isbn');
    expect(required).toEqual(expect.arrayContaining(['year', 'issue', 'publisher', 'frequency']));
  });

  it('a publication defaults to 可领用 and asks no periodical fields', () => {
    const { fields } = asked(3);
    expect(fields).not.toContain('issue');
    expect(CATALOGUE_FORM[3].initial).toEqual({ lendMode: 2 });
  });

  it('what each page requires is what the record’s own check refuses', () => {
    const base = { title: '某', location: '资料室', totalCount: 1, lendMode: 1 };
    expect(bsBookInfo.check!({ ...base, type: 1, publisher: '某社' })?.field).toBe('author');
    expect(bsBookInfo.check!({ ...base, type: 2, publisher: '某社', issue: '3' })?.field).toBe('year');
    expect(bsBookInfo.check!({ ...base, type: 2, publisher: '某社', year: 2026 })?.field).toBe('issue');
    for (const kind of [1, 2, 3] as const)
      for (const k of CATALOGUE_FORM[kind].required)
        expect((bsBookInfo.fields as Record<string, unknown>)[k], k).toBeDefined();
  });

  it('shows the stock in order, 可借 after 在借', () => {
    for (const kind of [1, 2, 3] as const) {
      const cols = CATALOGUE_COLUMNS[kind];
      expect(cols.indexOf('available')).toBe(cols.indexOf('lentCount') + 1);
      expect(cols.indexOf('reservedCount')).toBe(cols.indexOf('totalCount') + 1);
    }
  });
});

describe('the queues offer the decisions each state allows', () => {
  const row = (fields: Record<string, unknown>) => ({ id: 1, applyType: 1, ...fields }) as never;
  const offered = (r: never, now = DAY) =>
    Object.entries(bsBookApproval.transitions!)
      .filter(
        ([key, tr]) =>
          tr.from.includes(Number((r as { status: number }).status)) && librarianMay(key, r, now),
      )
      .map(([key]) => key)
      .concat(librarianMay('delete', r, now) ? ['delete'] : []);

  it('待审批: 通过 and 拒绝 only (cancelling is the applicant’s)', () => {
    expect(offered(row({ status: 1 }))).toEqual(['pass', 'refuse']);
  });

  it('待领取: 确认取书 or 确认领取 by kind; 取消 only after the pick-up deadline', () => {
    expect(offered(row({ status: 2, pickupDeadline: '2026-03-10' }), LAST_SECOND)).toEqual(['receiveLoan']);
    expect(offered(row({ status: 2, pickupDeadline: '2026-03-09' }))).toEqual(['cancel', 'receiveLoan']);
    expect(offered(row({ status: 2, applyType: 2, pickupDeadline: '2026-03-10' }))).toEqual(['receiveGift']);
  });

  it('借阅中: 归还; 延期审批中: 续借 decided or 归还; the applicant’s renewal and reapply never', () => {
    expect(offered(row({ status: 5 }))).toEqual(['returnBook']);
    expect(offered(row({ status: 6 }))).toEqual(['delay', 'returnBook']);
    expect(offered(row({ status: 3 }))).toEqual(['delete']);
    expect(offered(row({ status: 4 }))).toEqual(['delete']);
  });

  it('deletes only what is over (3, 4, 7, 8)', () => {
    const may = (status: number) => librarianMay('delete', row({ status }), DAY);
    expect([1, 2, 3, 4, 5, 6, 7, 8].filter(may)).toEqual([3, 4, 7, 8]);
  });

  it('shows the statuses of its kind only', () => {
    expect(QUEUE_STATUSES.borrow).not.toContain(8);
    expect(QUEUE_STATUSES.receive).not.toContain(5);
  });
});

describe('the row marks turn at the museum day’s edge', () => {
  it('已逾期 once the museum’s today is past the due date, on loan or renewing', () => {
    const loan = { id: 1, status: 5, dueDate: '2026-03-09' } as never;
    expect(queueMark(loan, DAY - 1000, WORDS)).toBeNull();
    expect(queueMark(loan, DAY, WORDS)).toEqual({ label: '已逾期', color: 'red' });
    expect(queueMark({ id: 1, status: 6, dueDate: '2026-03-09' } as never, DAY, WORDS)?.label).toBe('已逾期');
    expect(queueMark({ id: 1, status: 7, dueDate: '2026-03-09' } as never, DAY, WORDS)).toBeNull();
  });

  it('过期未取 once the pick-up deadline has passed', () => {
    const approved = { id: 1, status: 2, pickupDeadline: '2026-03-09' } as never;
    expect(pickupLapsed(approved, DAY - 1000)).toBe(false);
    expect(queueMark(approved, DAY, WORDS)).toEqual({ label: '过期未取', color: 'orange' });
  });
});

describe('an application is named as the librarian reads it', () => {
  it('by applicant, kind and book, falling back on the record’s own name', () => {
    const names = { users: { '7': '赵磊' }, depts: {}, refs: { bsBookInfo: { '3': '中国陶瓷史' } } };
    expect(queueName({ id: 4, applicantId: 7, bookId: 3, applyType: 1 } as never, names)).toBe(
      '赵磊借阅《中国陶瓷史》',
    );
    expect(queueName({ id: 5, applicantId: 7, bookId: 3, applyType: 2 } as never, names)).toBe(
      '赵磊领用《中国陶瓷史》',
    );
    expect(queueName({ id: 6, applicantId: 7, bookId: 9, applyType: 1 } as never, names)).toBe('借阅申请 #6');
  });
});
