import { z } from 'zod';
import { Id } from './fields';
import { f } from '../records/define';
// Links zod into the field builders, whose schemas this file reads (records/define.ts).
import '../records/schemas';
import { APPLY_TYPES, bsBookApproval } from '../records/book/books';

/**
 * Book lending's hand-written calls (README "Book lending"; office.md §7 `/book`): the
 * application (`bsBookApproval/add`), the 借阅 button's pre-check (`bsBookInfo/borrow`), the
 * one `receive` call for both kinds, and the applicant's details (`getUserInfo`). The request
 * fields are the record's own, with its labels and words.
 */

const field = (key: keyof typeof bsBookApproval.fields) => bsBookApproval.fields[key].schema;

export interface AddInput {
  bookId: number;
  applyType: number;
  quantity?: number;
  borrowDays?: number;
  reason?: string;
}
export const AddBody = z.object({
  bookId: field('bookId'),
  applyType: field('applyType'),
  quantity: field('quantity'),
  borrowDays: field('borrowDays'),
  reason: field('reason'),
}) as unknown as z.ZodType<AddInput>;

/**
 * `GET bsBookInfo/borrow?id=&applyType=`: may the caller ask for this row now (changes nothing).
 * Without applyType, the row's own way (领用 for a row given away, else 借阅).
 */
export const BorrowQuery = z.object({ id: Id, applyType: f.status('申请类型', APPLY_TYPES).schema });

export interface BorrowCheck {
  /** Whether the caller may send the application now. */
  allowed: boolean;
  /** Why not, in the words the add call would refuse with; '' when allowed. */
  reason: string;
  availableCount: number;
  /** Active applications and loans the caller holds, and the cap. */
  active: number;
  maxActive: number;
  maxBorrowDays: number;
  maxReceive: number;
  /** The due date if the book were picked up today for the longest loan (borrowing only). */
  defaultDueDate: string;
}

export interface UserInfo {
  id: number;
  name: string;
  deptId: number | null;
  deptName: string;
  active: number;
  overdue: number;
  rules: Record<string, number>;
}
