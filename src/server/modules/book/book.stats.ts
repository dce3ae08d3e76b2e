import type {
  BookTotal,
  ChartFour,
  ChartOne,
  ChartThree,
  ChartTwo,
  IsbnAnswer,
} from '../../../shared/api/books-stats';
import { bsBookInfo } from '../../../shared/records/book/books';
import { CLC_CLASSES, isbnProblem, normalizeIsbn } from '../../../shared/records/validators';
import { addDays, museumDate, parseMuseumDate } from '../../../shared/rules/museum-time';
import type { Db } from '../../db/index';
import { invalid } from '../../errors';
import * as repo from '../../records/records.repo';
import * as q from './book-stats.repo';
import type { RecordService } from '../../records/records.service';
import type { Access } from '../auth/access';
import type { SessionUser } from '../auth/auth.service';

/**
 * 借阅概览's figures (records-design §9: `total`, `chartOne` … `chartFour`) and the catalogue
 * form's ISBN look-up. README "Book lending" says what each counts. The figures read the two
 * tables directly, a few grouped queries each, so the panel stays one small call per chart
 * however long the reading room's history grows.
 *
 * Who: the panel's grant (借阅概览, `book.panel`): a call that backs a page answers exactly
 * those who may open it (auth/access.ts). The figures name no person (the department chart
 * counts loans, not borrowers). The ISBN look-up answers whoever may read the catalogue.
 */

const PANEL = 'book.panel';
const ON_LOAN = [5, 6];
const UNCLASSED = '未分类';
const NO_DEPT = '未分配部门';
const CLC_NAME = new Map(CLC_CLASSES.map((c) => [c.value, c.label]));

/** 'yyyy-MM' `n` months after `month`. */
function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const i = y * 12 + (m - 1) + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}

export function createBookStats(deps: {
  db: Db;
  access: Access;
  records: RecordService;
  now?: () => number;
}) {
  const { db, access, records } = deps;
  const now = deps.now ?? Date.now;

  return {
    /** `GET bsBookInfo/total`: the panel's counters. */
    async total(user: SessionUser): Promise<BookTotal> {
      await access.require(user, PANEL);
      const kinds = await q.heldByType(db);
      const kind = (t: number) => kinds.find((k) => k.type === t);
      const states = await q.applicationsByStatus(db);
      const state = (...s: number[]) =>
        states.filter((r) => s.includes(r.status)).reduce((a, r) => a + r.count, 0);
      // 已逾期: on loan and the due date before the museum's today (as the list's filter).
      const overdue = await q.overdueCount(db, addDays(museumDate(now()), -1));
      return {
        bookTitles: kind(1)?.titles ?? 0,
        bookCopies: kind(1)?.copies ?? 0,
        periodicalIssues: kind(2)?.titles ?? 0,
        publicationTitles: kind(3)?.titles ?? 0,
        onLoan: state(...ON_LOAN),
        overdue,
        pending: state(1),
        pendingDefer: state(6),
        awaitingPickup: state(2),
      };
    },

    /** `GET bsBookInfo/chartOne`: the holding by 中图法 class, the classes' order, 未分类 last. */
    async chartOne(user: SessionUser): Promise<ChartOne> {
      await access.require(user, PANEL);
      const rows = await q.heldByClassLetter(db);
      const by = new Map<string, { titles: number; copies: number }>();
      for (const r of rows) {
        // A letter outside the 22 classes (typed before the check existed) counts as unclassed.
        const code = CLC_NAME.has(r.code) ? r.code : '';
        const was = by.get(code) ?? { titles: 0, copies: 0 };
        by.set(code, { titles: was.titles + r.titles, copies: was.copies + r.copies });
      }
      const slices = [...CLC_CLASSES.map((c) => c.value), '']
        .filter((code) => by.has(code))
        .map((code) => ({
          code,
          name: code ? `${code} ${CLC_NAME.get(code)}` : UNCLASSED,
          ...by.get(code)!,
        }));
      return { slices };
    },

    /** `GET bsBookInfo/chartTwo`: borrowings and 领用 per museum month, the last 12 months. */
    async chartTwo(user: SessionUser): Promise<ChartTwo> {
      await access.require(user, PANEL);
      const thisMonth = museumDate(now()).slice(0, 7);
      const months = Array.from({ length: 12 }, (_, i) => addMonths(thisMonth, i - 11));
      const from = parseMuseumDate(`${months[0]}-01`)!;
      const to = parseMuseumDate(`${addMonths(thisMonth, 1)}-01`)!;
      const rows = await q.receivedBetween(db, from, to);
      const out: ChartTwo = {
        months,
        borrowings: months.map(() => 0),
        receipts: months.map(() => 0),
        receivedCopies: months.map(() => 0),
      };
      for (const r of rows) {
        const i = months.indexOf(museumDate(r.time).slice(0, 7));
        if (i < 0) continue;
        if (r.applyType === 1) out.borrowings[i]! += 1;
        else {
          out.receipts[i]! += 1;
          out.receivedCopies[i]! += r.quantity;
        }
      }
      return out;
    },

    /** `GET bsBookInfo/chartThree`: the ten books borrowed most. */
    async chartThree(user: SessionUser): Promise<ChartThree> {
      await access.require(user, PANEL);
      return { books: await q.topBorrowed(db, 10) };
    },

    /** `GET bsBookInfo/chartFour`: loans by department, most first. */
    async chartFour(user: SessionUser): Promise<ChartFour> {
      await access.require(user, PANEL);
      const rows = await q.borrowedByDept(db);
      const depts = rows
        .map((r) => ({ ...r, name: r.name ?? NO_DEPT }))
        .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'zh-CN'));
      return { depts };
    },

    /**
     * `GET bsBookInfo/isbn?isbn=`: what the catalogue already knows of a book by its ISBN (the
     * newest row carrying it), for the form to fill what is still empty. A malformed ISBN or a
     * wrong check digit is refused in words; an unknown one answers found: false.
     */
    async isbn(user: SessionUser, raw: string): Promise<IsbnAnswer> {
      const { conds } = await records.readScope(bsBookInfo, user);
      const problem = isbnProblem(raw);
      if (problem) throw invalid(`ISBN${problem}`);
      const isbn = normalizeIsbn(raw)!;
      // The definition's order is newest first.
      const found = (
        await repo.findAll(db, bsBookInfo, [...conds, { field: 'isbn', op: 'eq', value: isbn }], 1)
      )[0];
      if (!found)
        return {
          isbn,
          found: false,
          message: `馆藏中没有 ISBN 为 ${isbn} 的书，请手工填写`,
          sourceId: null,
          fill: null,
        };
      const s = (k: string) => String(found[k] ?? '');
      const n = (k: string) => (found[k] === null || found[k] === undefined ? null : Number(found[k]));
      return {
        isbn,
        found: true,
        message: '',
        sourceId: found.id,
        fill: {
          title: s('title'),
          subtitle: s('subtitle'),
          author: s('author'),
          publisher: s('publisher'),
          publishDate: s('publishDate'),
          clcNo: s('clcNo'),
          edition: s('edition'),
          pages: n('pages'),
          binding: n('binding'),
          price: n('price'),
        },
      };
    },
  };
}

export type BookStats = ReturnType<typeof createBookStats>;
