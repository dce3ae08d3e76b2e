import {
  availableOf,
  bsBookApproval,
  bsBookInfo,
  isOverdue,
  type BookRules,
} from '../../../shared/records/book/books';
import { plainValue } from '../../../shared/records/define';
import { CLC_CLASSES } from '../../../shared/records/validators';
import { tBooksReader } from '../../lib/i18n/books-reader';

const R = tBooksReader.rules;
const A = bsBookApproval.fields;
import { addDays, museumDate } from '../../../shared/rules/museum-time';

/**
 * The readers' side of book lending as plain rules (README "Book lending"; records-design §4):
 * what a catalogue row's button offers, how its copies read, which of an applicant's own
 * applications may be cancelled, asked again or renewed, and what a renewal may ask. The server
 * checks all of it again; these rules only decide what the pages show, so a reader is not
 * offered a button the server would refuse.
 */

/** 借阅 or 领用: the application a row's 流通方式 allows, or null for 仅阅览 (read in the room). */
export function applyTypeOf(row: Readonly<Record<string, unknown>>): 1 | 2 | null {
  const mode = Number(row.lendMode);
  return mode === 1 ? 1 : mode === 2 ? 2 : null;
}

/** Copies free to go out now (never below zero) and the holding: 可借 n / 馆藏 m. */
export function copiesOf(row: Readonly<Record<string, unknown>>): { free: number; total: number } {
  return { free: Math.max(0, availableOf(row)), total: Number(row.totalCount ?? 0) };
}

/**
 * What the 借阅/领用 button of a catalogue row is: offered (`ask`), or why not without asking
 * the server — the row reads in the room only, is not in circulation, or the device is offline
 * (a request needs the network and is never queued). Stock, caps and overdue loans are the
 * server's pre-check (`bsBookInfo/borrow`), whose words the dialog shows.
 */
export type AskState =
  | { kind: 'ask'; applyType: 1 | 2 }
  | { kind: 'readOnly' }
  | { kind: 'stopped' }
  | { kind: 'offline'; applyType: 1 | 2 };

export function askStateOf(row: Readonly<Record<string, unknown>>, online: boolean): AskState {
  const applyType = applyTypeOf(row);
  if (applyType === null) return { kind: 'readOnly' };
  if (Number(row.status ?? 1) !== 1) return { kind: 'stopped' };
  return online ? { kind: 'ask', applyType } : { kind: 'offline', applyType };
}

/** The largest 数量 a 领用 may ask: the rule's cap, and no more than the copies free. */
export function maxQuantityOf(maxReceive: number, free: number): number {
  return Math.max(1, Math.min(maxReceive, free));
}

/**
 * The due date if the book were picked up today for `days`, from the pre-check's
 * `defaultDueDate` (the server's museum today plus the longest loan), so the device's clock
 * and time zone play no part. What the reader can expect, not a promise: the loan counts from
 * the day of pick-up.
 */
export function expectedDueDate(defaultDueDate: string, maxBorrowDays: number, days: number): string {
  return defaultDueDate ? addDays(defaultDueDate, days - maxBorrowDays) : '';
}

/** A loan request's input as the dialog holds it; the problem with it, in words, or null. */
export function applyProblem(
  input: { applyType: 1 | 2; borrowDays: number | ''; quantity: number | ''; reason: string },
  limits: { maxBorrowDays: number; maxQuantity: number },
): string | null {
  if (input.applyType === 1) {
    if (input.borrowDays === '' || !Number.isInteger(input.borrowDays) || input.borrowDays < 1)
      return R.noDays;
    if (input.borrowDays > limits.maxBorrowDays) return R.maxDays(limits.maxBorrowDays);
  } else {
    if (input.quantity === '' || !Number.isInteger(input.quantity) || input.quantity < 1) return R.noQuantity;
    if (input.quantity > limits.maxQuantity) return R.maxQuantity(limits.maxQuantity);
  }
  if (input.reason.trim().length > 200) return R.reasonLong;
  return null;
}

/** The actions an applicant has on their own application (records-design §4.2). */
export type OwnAction = 'cancel' | 'reapply' | 'renew';

/**
 * The applicant's actions on one of their applications at `now`: 取消 while asked or approved
 * (1, 2), 重新申请 after a refusal or a cancellation (3, 4), 申请续借 while on loan (5), not
 * overdue and with renewals left. `renewNote` says why a loan cannot be renewed, for the card.
 */
export function ownActionsOf(
  row: Readonly<Record<string, unknown>>,
  rules: Pick<BookRules, 'maxDefers'>,
  now: number,
): { actions: OwnAction[]; renewNote: string | null } {
  const status = Number(row.status);
  if (status === 1 || status === 2) return { actions: ['cancel'], renewNote: null };
  if (status === 3 || status === 4) return { actions: ['reapply'], renewNote: null };
  if (status !== 5 || Number(row.applyType) !== 1) return { actions: [], renewNote: null };
  if (isOverdue(row, now)) return { actions: [], renewNote: R.overdueNoRenew };
  if (rules.maxDefers <= 0) return { actions: [], renewNote: R.noRenew };
  const used = Number(row.deferCount ?? 0);
  if (used >= rules.maxDefers) return { actions: [], renewNote: R.renewUsed(used) };
  return { actions: ['renew'], renewNote: null };
}

/** A renewal's days and reason; the problem with them, in words, or null. */
export function renewProblem(days: number | '', reason: string, maxDeferDays: number): string | null {
  if (days === '' || !Number.isInteger(days) || days < 1) return R.noRenewDays;
  if (days > maxDeferDays) return R.maxRenewDays(maxDeferDays);
  if (!reason.trim()) return R.noRenewReason;
  if (reason.trim().length > 200) return R.renewReasonLong;
  return null;
}

/** The dates a reader's card shows for an application, by its state (label, date, warn). */
export function loanDatesOf(
  row: Readonly<Record<string, unknown>>,
  now: number,
): { label: string; value: string; warn?: boolean }[] {
  const status = Number(row.status);
  const out: { label: string; value: string; warn?: boolean }[] = [];
  const deadline = String(row.pickupDeadline ?? '');
  const due = String(row.dueDate ?? '');
  if (status === 2 && deadline)
    out.push({ label: A.pickupDeadline!.label, value: deadline, warn: museumDate(now) > deadline });
  if ((status === 5 || status === 6 || status === 7) && due)
    out.push({ label: A.dueDate!.label, value: due, warn: isOverdue(row, now) });
  if (status === 6 && row.deferredDays)
    out.push({ label: R.renewAsked, value: R.days(Number(row.deferredDays)) });
  return out;
}

/**
 * The tabs of 我的借阅 / 我的领用 after 全部: the states each kind can reach (a 领用 is never on
 * loan), with 已逾期 beside 借阅中 where a reader looks first.
 */
export function ownTabsOf(applyType: 1 | 2): readonly (number | 'overdue')[] {
  return applyType === 1 ? [1, 2, 5, 'overdue', 6, 7, 3, 4] : [1, 2, 8, 3, 4];
}

/** What a catalogue row's detail lists, in reading order (the holding and covers apart). */
const FACTS = [
  'subtitle',
  'author',
  'publisher',
  'publishDate',
  'isbn',
  'issn',
  'cn',
  'frequency',
  'year',
  'volume',
  'issue',
  'clcNo',
  'callNo',
  'edition',
  'pages',
  'binding',
  'location',
  'lendMode',
  'source',
  'entryDate',
  'keywords',
] as const;

const PERIODICAL_ONLY = new Set<string>(['issn', 'cn', 'frequency', 'year', 'volume', 'issue']);

/** The class of a 中图分类号 in words: `K85` → `K 历史、地理`. */
export function clcClassOf(clcNo: unknown): string {
  const letter = typeof clcNo === 'string' ? clcNo.trim().charAt(0).toUpperCase() : '';
  const c = CLC_CLASSES.find((x) => x.value === letter);
  return c ? `${c.value} ${c.label}` : '';
}

/** A catalogue row's facts as label and words, the empty ones left out. */
export function bookFactsOf(row: Readonly<Record<string, unknown>>): { label: string; value: string }[] {
  const out: { label: string; value: string }[] = [];
  const periodical = Number(row.type) === 2;
  for (const key of FACTS) {
    // A periodical's own fields (刊期 starts at 月刊 on every row) are said of periodicals only.
    if (!periodical && PERIODICAL_ONLY.has(key)) continue;
    const fd = bsBookInfo.fields[key]!;
    let value = plainValue(fd, row[key]);
    if (!value) continue;
    if (key === 'clcNo' && clcClassOf(value)) value = `${value}（${clcClassOf(value)}）`;
    out.push({ label: fd.label, value });
  }
  return out;
}
