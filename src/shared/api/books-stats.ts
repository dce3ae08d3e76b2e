import { z } from 'zod';

/**
 * The book panel's calls (README "Book lending"; research/records-design.md §9) and the ISBN
 * look-up of the catalogue's form: `GET /singleMuseum/book/bsBookInfo/total`, `chartOne` …
 * `chartFour` and `isbn`. Counts are of catalogue rows that are not weeded (剔除) and of
 * applications as they stand now; days and months are the museum's (Asia/Shanghai).
 */

/** 借阅概览's counters. */
export interface BookTotal {
  /** 图书: titles (rows of type 1) and copies held (馆藏数). */
  bookTitles: number;
  bookCopies: number;
  /** 期刊: issues held (one row per issue). */
  periodicalIssues: number;
  /** 出版物: titles. */
  publicationTitles: number;
  /** Loans out now (借阅中 and 延期审批中). */
  onLoan: number;
  /** Of those, past their due date in museum time (已逾期). */
  overdue: number;
  /** Applications waiting for a decision (待审批), borrowing and 领用 alike. */
  pending: number;
  /** Renewals waiting for a decision (延期审批中). */
  pendingDefer: number;
  /** Approved and not yet picked up (已通过(待领取)). */
  awaitingPickup: number;
}

/** chartOne: the holding by the 22 classes of the 中图法 (first letter of 中图分类号). */
export interface ClcSlice {
  /** The class letter, or '' for rows without a (valid) class number. */
  code: string;
  /** 'K 历史、地理', or 未分类. */
  name: string;
  /** Rows (种; a periodical issue counts once). */
  titles: number;
  /** Copies held (册). */
  copies: number;
}
export interface ChartOne {
  slices: ClcSlice[];
}

/** chartTwo: picked-up borrowings and 领用 per museum month, the last 12 months, oldest first. */
export interface ChartTwo {
  /** 'yyyy-MM'. */
  months: string[];
  /** Loans picked up that month. */
  borrowings: number[];
  /** 领用 handed out that month (applications; copies in `receivedCopies`). */
  receipts: number[];
  receivedCopies: number[];
}

/** chartThree: the ten books borrowed most (loans picked up, ever), most first. */
export interface ChartThree {
  /** `label`: the title, and a periodical's year and issue (its issues share one title). */
  books: { id: number; title: string; label: string; count: number }[];
}

/** chartFour: loans picked up, ever, by the borrower's department at the time of asking. */
export interface ChartFour {
  depts: { deptId: number | null; name: string; count: number }[];
}

/** `GET bsBookInfo/isbn?isbn=`: ISBN-10 or -13, hyphens and spaces allowed. */
export const IsbnQuery = z.object({ isbn: z.string().trim().min(1).max(30) });

/** What the form may fill from the newest catalogue row with that ISBN. */
export interface IsbnFill {
  title: string;
  subtitle: string;
  author: string;
  publisher: string;
  publishDate: string;
  clcNo: string;
  edition: string;
  pages: number | null;
  binding: number | null;
  price: number | null;
}

export interface IsbnAnswer {
  /** The ISBN as stored (13 digits). */
  isbn: string;
  /** True when a row of the catalogue carries it. */
  found: boolean;
  /** Why nothing is filled (未找到…), '' when found. */
  message: string;
  /** The row it came from (the newest with that ISBN). */
  sourceId: number | null;
  fill: IsbnFill | null;
}
