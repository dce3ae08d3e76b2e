import type { RecordNames, RecordRow } from '../../../shared/records/api';
import { bsBookApproval, isOverdue } from '../../../shared/records/book/books';
import { museumDate } from '../../../shared/rules/museum-time';
import { tBooksAdmin } from '../../lib/i18n/books-admin';

/**
 * The librarian's pages of book lending (README "Book lending"), what is their own and pure:
 * each catalogue page's cut of the form and columns, and each queue's columns, tabs, the
 * decisions a row offers and its marks. routes/books-admin.tsx mounts the records engine's list
 * with them; tests/app/books-admin.test.ts checks them.
 */

export type BookKind = 1 | 2 | 3;

/** Fields of one kind only (records-design §4.1): a periodical's issue, a book's ISBN. */
const PERIODICAL_ONLY = ['issn', 'cn', 'frequency', 'year', 'volume', 'issue'] as const;

/** The mixed form's hints that name a kind (图书必填, 期刊用): said by the asterisk on a kind's page. */
const KIND_HINTS = { author: '', publisher: '', frequency: '', year: '' };

/** Each catalogue page's form: the fields its kind has, and those it requires (the record's `check`). */
export const CATALOGUE_FORM: Record<
  BookKind,
  {
    hide: readonly string[];
    required: readonly string[];
    initial?: Record<string, unknown>;
    help: Record<string, string>;
  }
> = {
  // 图书: 责任者 and 出版社 required; ISBN asked (old books may have none).
  1: { hide: PERIODICAL_ONLY, required: ['author', 'publisher'], help: KIND_HINTS },
  // 期刊: one row per issue — 年 and 期 required, 刊期 always set; no ISBN or 版次 of a book;
  // 责任者 (a journal's 主编) may stay empty.
  2: {
    hide: ['isbn', 'edition'],
    required: ['publisher', 'frequency', 'year', 'issue'],
    help: { ...KIND_HINTS, author: tBooksAdmin.editorHint, issue: tBooksAdmin.issueHint },
  },
  // 出版物: the museum's own, given away by default (§4.1: a type-3 row defaults to 可领用).
  3: { hide: PERIODICAL_ONLY, required: [], initial: { lendMode: 2 }, help: KIND_HINTS },
};

const STOCK = ['totalCount', 'reservedCount', 'lentCount', 'available', 'lendMode', 'status'] as const;

/**
 * Each catalogue page's columns: what names a row, the stock next to it (on a tablet the table
 * scrolls sideways, and the stock is what the librarian looks for), then the rest.
 */
export const CATALOGUE_COLUMNS: Record<BookKind, readonly string[]> = {
  1: ['title', ...STOCK, 'author', 'isbn', 'location'],
  2: ['title', 'year', 'issue', ...STOCK, 'location'],
  3: ['title', ...STOCK, 'isbn', 'location'],
};

/** Filters a kind has no use for (a book has no 年 of an issue). */
export const CATALOGUE_HIDDEN_FILTERS: Record<BookKind, readonly string[]> = {
  1: ['year'],
  2: [],
  3: ['year'],
};

export type Queue = 'borrow' | 'receive' | 'delay';

/** What each queue lists: one kind of application, or the renewals asked for. */
export const QUEUE_FIXED: Record<Queue, Record<string, unknown>> = {
  borrow: { applyType: 1 },
  receive: { applyType: 2 },
  delay: { status: 6 },
};

/** The status tabs of each queue (a 领用 is never on loan, a borrowing never 已领用). */
export const QUEUE_STATUSES: Record<Queue, readonly number[]> = {
  borrow: [1, 2, 3, 4, 5, 6, 7],
  receive: [1, 2, 3, 4, 8],
  delay: [],
};

/** Each queue's columns: who asked for what and where it stands first (a tablet scrolls the rest). */
export const QUEUE_COLUMNS: Record<Queue, readonly string[]> = {
  borrow: [
    'bookId',
    'applicantId',
    'status',
    'dueDate',
    'pickupDeadline',
    'deptId',
    'borrowDays',
    'receiveTime',
    'returnTime',
  ],
  receive: ['bookId', 'applicantId', 'status', 'quantity', 'pickupDeadline', 'deptId', 'receiveTime'],
  delay: ['bookId', 'applicantId', 'dueDate', 'deferredDays', 'deferReason', 'deferCount', 'deptId'],
};

/** A 领用 has no due date, so it is never overdue; only a borrowing is renewed. */
export const QUEUE_HIDDEN_FILTERS: Record<Queue, readonly string[]> = {
  borrow: [],
  receive: ['dueDate', 'overdue'],
  delay: ['applyType'],
};

/** The 已逾期 tab's filter: the value the list's own 已逾期 select sends, so the two agree. */
export const OVERDUE_QUERY = { overdue: 'true' } as const;

/** Whether an approved application's 取书截止 has passed (museum days): the librarian may cancel it. */
export function pickupLapsed(row: RecordRow, now: number): boolean {
  const deadline = String(row.pickupDeadline ?? '');
  return Number(row.status) === 2 && deadline !== '' && museumDate(now) > deadline;
}

/**
 * The decisions a row of the librarian's queue offers (records-design §4.2): 通过/拒绝 on 待审批,
 * 确认取书 or 确认领取 by its kind, 取消 only past the pick-up deadline, 续借 decided, 归还, and
 * 删除 only once it is over. 重新申请 and 申请延期 are the applicant's. The server checks
 * every one again.
 */
export function librarianMay(action: string, row: RecordRow, now: number): boolean {
  switch (action) {
    case 'reapply':
    case 'applyDeferredDays':
      return false;
    case 'cancel':
      return pickupLapsed(row, now);
    case 'receiveLoan':
      return Number(row.applyType) === 1;
    case 'receiveGift':
      return Number(row.applyType) === 2;
    case 'delete':
      return bsBookApproval.canDelete?.(row as never) === null;
    default:
      return true;
  }
}

/** A row's mark: 已逾期 on a loan past its due date, 过期未取 on an approval not picked up in time. */
export function queueMark(
  row: RecordRow,
  now: number,
  words: { overdue: string; pickupLate: string },
): { label: string; color: string } | null {
  if (isOverdue(row, now)) return { label: words.overdue, color: 'red' };
  if (pickupLapsed(row, now)) return { label: words.pickupLate, color: 'orange' };
  return null;
}

/** An application as the librarian reads it: 赵磊借阅《中国陶瓷史》 (the record's own says #id). */
export function queueName(row: RecordRow, names: RecordNames): string {
  const who = names.users[String(row.applicantId)] ?? '';
  const book = names.refs?.[bsBookApproval.fields.bookId.ref!.record]?.[String(row.bookId)];
  const kind = Number(row.applyType) === 2 ? tBooksAdmin.receiveWord : tBooksAdmin.borrowWord;
  return book ? `${who}${kind}《${book}》` : bsBookApproval.describe(row);
}
