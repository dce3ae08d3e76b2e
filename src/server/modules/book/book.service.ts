import type { AddInput, BorrowCheck, UserInfo } from '../../../shared/api/books';
import {
  ACTIVE_STATES,
  ON_LOAN,
  availableOf,
  bookRule,
  bookRulesOf,
  bsBookApproval,
  bsBookInfo,
  dueDateOf,
  isOverdue,
  type BookRules,
} from '../../../shared/records/book/books';
import { addDays, museumDate } from '../../../shared/rules/museum-time';
import type { Db } from '../../db/index';
import { invalid, notFound } from '../../errors';
import * as repo from '../../records/records.repo';
import type { RecordService } from '../../records/records.service';
import type { Access } from '../auth/access';
import type { NoticeService } from '../notice/notice.service';
import type { SessionUser } from '../auth/auth.service';
import { approverIds } from '../registration/registration.repo';
import * as stock from './book.repo';

/**
 * Book lending's rules (README "Book lending"; research/records-design.md §4): the application
 * with its guards, the 借阅 button's pre-check, and the effects of the engine's transitions
 * (stock reserved on pass, consumed on pick-up, given back on cancel and return; the renewal's
 * limits; the pick-up deadline). The records are the engine's (shared/records/book/books.ts).
 *
 * One rule decides whether a person may ask (`check`): the add call refuses with its
 * words, reapply re-checks them, and the pre-check answers them without changing anything.
 */

const GONE_BOOK = '该书刊不存在或已删除，请刷新后重试';
const WRITE = 'book.borrowRecord';
/** The librarian's grant: every application and the decisions. */
const MANAGE = 'book.borrowManagement';

type BookRow = Record<string, unknown> & { id: number };

export function createBookService(deps: {
  db: Db;
  access: Access;
  records: RecordService;
  notices: NoticeService;
  now?: () => number;
}) {
  const { db, access, records, notices } = deps;
  const now = deps.now ?? Date.now;

  /** Tells the applicant after the commit (the bell); a notice never undoes a decision. */
  const tell = (row: Record<string, unknown>, content: string, from: number) => () => {
    const to = Number(row.applicantId);
    if (to && to !== from)
      void notices
        .notify({ receivers: [to], content, source: 'system', from, link: '/books/borrow-record' })
        .catch(() => {});
  };
  const kindOf = (row: Record<string, unknown>) => (row.applyType === 2 ? '领用' : '借阅');

  /**
   * Tells the librarians (holders of 借阅审批) of a request waiting for them, after the commit,
   * linked to the queue it waits in: a reader's request reaches the bell as its outcome does.
   */
  const tellLibrarians = (content: string, link: string, from: number) => () => {
    void approverIds(db, MANAGE)
      .then((ids) => ids.filter((id) => id !== from))
      .then((receivers) =>
        receivers.length ? notices.notify({ receivers, content, source: 'system', from, link }) : undefined,
      )
      .catch(() => {});
  };
  const queueOf = (applyType: unknown) =>
    applyType === 2 ? '/books/receive-management' : '/books/borrow-management';

  async function rules(q: Db = db): Promise<BookRules> {
    return bookRulesOf((await repo.findAll(q, bookRule, [], 1))[0]);
  }

  async function bookOf(q: Db, id: number): Promise<BookRow> {
    const row = await repo.find(q, bsBookInfo, id);
    if (!row) throw notFound(GONE_BOOK);
    return row;
  }

  const titleOf = (b: Record<string, unknown>) => `《${String(b.title ?? '')}》`;

  /** The caller's live applications and loans (not `except`), as engine rows. */
  async function liveOf(q: Db, applicantId: number, except: number | null) {
    const rows = await repo.findAll(q, bsBookApproval, [
      { field: 'applicantId', op: 'eq', value: applicantId },
      { field: 'status', op: 'in', value: ACTIVE_STATES },
    ]);
    return rows.filter((r) => r.id !== except);
  }

  /**
   * Why this person may not ask for this row now, or null (records-design §4.2 `add`): the book
   * circulates that way and is not stopped, the numbers are within the rules, copies are free,
   * no overdue loan (borrowing), under the cap of active loans, and no request for the same
   * book still open.
   */
  async function check(
    q: Db,
    applicantId: number,
    book: Record<string, unknown>,
    input: { applyType: number; quantity: number; borrowDays?: number | null },
    except: number | null,
    time: number,
    r: BookRules,
  ): Promise<string | null> {
    const title = titleOf(book);
    const borrowing = input.applyType === 1;
    if (Number(book.status) === 2) return `${title}已停借`;
    if (Number(book.status) === 3) return `${title}已剔除，不能${borrowing ? '借阅' : '领用'}`;
    const mode = Number(book.lendMode);
    if (mode === 3) return `${title}仅供阅览，不外借`;
    if (borrowing && mode !== 1) return `${title}只能领用，不能借阅`;
    if (!borrowing && mode !== 2) return `${title}只能借阅，不能领用`;
    if (borrowing) {
      if (input.quantity !== 1) return '借阅每次 1 册';
      if (!input.borrowDays) return '请填写借期(天)';
      if (input.borrowDays > r.maxBorrowDays) return `借期最长 ${r.maxBorrowDays} 天`;
    } else if (input.quantity > r.maxReceive) return `每次最多领用 ${r.maxReceive} 册`;
    const live = await liveOf(q, applicantId, except);
    const same = live.find(
      (x) => Number(x.bookId) === Number(book.id) && (x.status === 1 || x.status === 2 || borrowing),
    );
    if (same)
      return same.status === 1
        ? `您已申请过${title}，正在等待审批`
        : same.status === 2
          ? `您申请的${title}已通过，请到资料室取书`
          : `您正在借阅${title}，不能重复借阅`;
    const free = availableOf(book);
    if (free < input.quantity)
      return free <= 0
        ? `${title}暂无可${borrowing ? '借' : '领'}的册数（馆藏 ${Number(book.totalCount)} 册，均已借出或预留）`
        : `${title}只剩 ${free} 册可${borrowing ? '借' : '领'}`;
    if (borrowing) {
      const late = live.find((x) => isOverdue(x, time));
      if (late) {
        const lateBook = await q
          .selectFrom('bs_book_info')
          .select('title')
          .where('id', '=', Number(late.bookId))
          .executeTakeFirst();
        return `您借阅的《${String(lateBook?.title ?? '')}》已逾期（应还日期 ${String(late.dueDate)}），请先归还后再借阅`;
      }
      const loans = live.filter((x) => x.applyType === 1);
      if (loans.length >= r.maxActive)
        return `您已有 ${loans.length} 条借阅中或待处理的申请（最多 ${r.maxActive} 条），请先归还或取消后再申请`;
    }
    return null;
  }

  async function firstDept(q: Db, userId: number) {
    const ids = await repo.deptIdsOfUser(q, userId);
    return ids[0] ?? null;
  }

  // ---- effects of the engine's transitions (shared/records/book/books.ts) ----

  records.registerEffect(`${bsBookApproval.name}.reserveStock`, async (trx, { row, user, time }) => {
    const book = await bookOf(trx, Number(row.bookId));
    const n = Number(row.quantity);
    if (!(await stock.reserve(trx, book.id, n, time))) {
      // Read again for the words: on PostgreSQL the row read above may predate the approval
      // that just took the copy (the UPDATE waited for it, then found too few).
      const fresh = await bookOf(trx, book.id);
      const title = titleOf(fresh);
      throw invalid(
        Number(fresh.status) !== 1
          ? `${title}已停借或剔除，不能通过`
          : `${title}可借册数不足（剩余 ${Math.max(0, availableOf(fresh))} 册），不能通过`,
      );
    }
    const r = await rules(trx);
    const deadline = addDays(museumDate(time), r.pickupDays);
    return {
      set: { approverId: user.id, pickupDeadline: deadline },
      after: tell(
        row,
        `您${kindOf(row)}${titleOf(book)}的申请已通过，请于 ${deadline} 前到资料室${row.applyType === 2 ? '领取' : '取书'}`,
        user.id,
      ),
    };
  });

  records.registerEffect(`${bsBookApproval.name}.approver`, async (trx, { row, input, user }) => {
    const book = await bookOf(trx, Number(row.bookId));
    return {
      set: { approverId: user.id },
      after: tell(
        row,
        `您${kindOf(row)}${titleOf(book)}的申请未通过：${String(input.reason ?? '')}`,
        user.id,
      ),
    };
  });

  records.registerEffect(`${bsBookApproval.name}.delayResult`, async (trx, { row, input, user }) => {
    const book = await bookOf(trx, Number(row.bookId));
    const words = input.agree
      ? `您借阅的${titleOf(book)}延期 ${Number(row.deferredDays)} 天已同意，应还日期改为 ${addDays(String(row.dueDate), Number(row.deferredDays))}`
      : `您借阅的${titleOf(book)}延期申请未同意${input.comment ? `：${String(input.comment)}` : ''}，请于 ${String(row.dueDate)} 前归还`;
    return { after: tell(row, words, user.id) };
  });

  records.registerEffect(`${bsBookApproval.name}.releaseStock`, async (trx, { row, user, time }) => {
    const mine = Number(row.applicantId) === user.id;
    if (!mine) {
      // The librarian cancels only what was not picked up in time (records-design §4.2).
      if (row.status === 1) throw invalid('待审批的申请只能由申请人取消，管理员请使用“拒绝”');
      const deadline = String(row.pickupDeadline ?? '');
      if (deadline && museumDate(time) <= deadline)
        throw invalid(`取书期限到 ${deadline}，过期未取后管理员才能取消`);
    }
    if (row.status === 2) await stock.unreserve(trx, Number(row.bookId), Number(row.quantity), time);
  });

  records.registerEffect(`${bsBookApproval.name}.checkRequest`, async (trx, { row, time, user }) => {
    await stock.lockApplicant(trx, Number(row.applicantId));
    const book = await bookOf(trx, Number(row.bookId));
    const problem = await check(
      trx,
      Number(row.applicantId),
      book,
      {
        applyType: Number(row.applyType),
        quantity: Number(row.quantity),
        borrowDays: row.borrowDays as number,
      },
      row.id,
      time,
      await rules(trx),
    );
    if (problem) throw invalid(problem);
    return {
      after: tellLibrarians(
        `${user.userName}重新申请${kindOf(row)}${titleOf(book)}，请审批`,
        queueOf(row.applyType),
        user.id,
      ),
    };
  });

  records.registerEffect(`${bsBookApproval.name}.lend`, async (trx, { row, time }) => {
    await stock.lend(trx, Number(row.bookId), Number(row.quantity), time);
    return { set: { receiveTime: time, dueDate: dueDateOf(time, Number(row.borrowDays)) } };
  });

  records.registerEffect(`${bsBookApproval.name}.handOut`, async (trx, { row, time }) => {
    await stock.handOut(trx, Number(row.bookId), Number(row.quantity), time);
    return { set: { receiveTime: time } };
  });

  records.registerEffect(`${bsBookApproval.name}.checkDefer`, async (trx, { row, input, time, user }) => {
    const r = await rules(trx);
    if (r.maxDefers <= 0) throw invalid('本馆借阅不能延期');
    if (Number(row.deferCount ?? 0) >= r.maxDefers)
      throw invalid(`每次借阅最多延期 ${r.maxDefers} 次，已用完`);
    if (Number(input.deferredDays) > r.maxDeferDays) throw invalid(`延期天数最多 ${r.maxDeferDays} 天`);
    if (isOverdue(row, time))
      throw invalid(`该借阅已逾期（应还日期 ${String(row.dueDate)}），不能申请延期，请先归还`);
    const book = await bookOf(trx, Number(row.bookId));
    return {
      after: tellLibrarians(
        `${user.userName}申请续借${titleOf(book)} ${Number(input.deferredDays)} 天，请审批`,
        '/books/delay-management',
        user.id,
      ),
    };
  });

  records.registerEffect(`${bsBookApproval.name}.giveBack`, async (trx, { row, input, time }) => {
    await stock.giveBack(
      trx,
      Number(row.bookId),
      Number(row.quantity),
      Number(input.returnCondition) === 3,
      time,
    );
  });

  // 已逾期: on loan and the due date before the museum's today (records-design §4.2).
  records.registerListFilter(bsBookApproval.name, async (query) =>
    query.overdue === true
      ? [
          { field: 'status', op: 'in', value: ON_LOAN },
          { field: 'dueDate', op: 'lte', value: addDays(museumDate(now()), -1) },
          { field: 'dueDate', op: 'ne', value: '' },
        ]
      : [],
  );

  // 中图分类: the class letter a 中图分类号 starts with (T takes TB, TP …). The range [K, L) —
  // at least K, at most L but not L itself — holds exactly the K class under the C collation and
  // under a language's collation alike (the numbers are stored upper case, see books.ts).
  records.registerListFilter(bsBookInfo.name, async (query) => {
    const letter = typeof query.clcClass === 'string' ? query.clcClass.trim().toUpperCase() : '';
    if (!/^[A-Z]$/.test(letter)) return [];
    const next = String.fromCharCode(letter.charCodeAt(0) + 1);
    return [
      { field: 'clcNo', op: 'gte', value: letter },
      ...(letter === 'Z'
        ? []
        : [
            { field: 'clcNo', op: 'lte', value: next } as const,
            { field: 'clcNo', op: 'ne', value: next } as const,
          ]),
    ];
  });

  return {
    rules,

    /** `POST bsBookApproval/add`: a request to borrow or receive, checked, status 待审批. */
    async add(user: SessionUser, body: AddInput): Promise<{ id: number }> {
      await access.require(user, WRITE);
      const time = now();
      const input = {
        applyType: body.applyType,
        quantity: body.quantity ?? 1,
        borrowDays: body.applyType === 1 ? (body.borrowDays ?? null) : null,
      };
      const made = await db.transaction().execute(async (trx) => {
        await stock.lockApplicant(trx, user.id);
        const book = await bookOf(trx, body.bookId);
        const r = await rules(trx);
        const problem = await check(trx, user.id, book, input, null, time, r);
        if (problem) throw invalid(problem);
        const values = {
          bookId: body.bookId,
          applyType: input.applyType,
          applicantId: user.id,
          deptId: await firstDept(trx, user.id),
          quantity: input.quantity,
          borrowDays: input.borrowDays,
          reason: body.reason ?? '',
          status: 1,
          deferCount: 0,
          returnCondition: 0,
        };
        const newId = await repo.insert(trx, bsBookApproval, values, user.id, time);
        await repo.logStatus(trx, {
          table: bsBookApproval.table,
          recordId: newId,
          action: 'create',
          from: null,
          to: 1,
          operatorId: user.id,
          comment: '',
          time,
        });
        return { newId, title: titleOf(book) };
      });
      tellLibrarians(
        `${user.userName}申请${input.applyType === 2 ? '领用' : '借阅'}${made.title}，请审批`,
        queueOf(input.applyType),
        user.id,
      )();
      return { id: made.newId };
    },

    /** `GET bsBookInfo/borrow`: whether the caller may ask for this row now. Changes nothing. */
    async borrow(user: SessionUser, query: { id: number; applyType?: number }): Promise<BorrowCheck> {
      await access.require(user, WRITE);
      const time = now();
      const book = await bookOf(db, query.id);
      const r = await rules();
      const applyType = query.applyType ?? (Number(book.lendMode) === 2 ? 2 : 1);
      const input = { applyType, quantity: 1, borrowDays: r.maxBorrowDays };
      const reason = (await check(db, user.id, book, input, null, time, r)) ?? '';
      const live = await liveOf(db, user.id, null);
      return {
        allowed: !reason,
        reason,
        availableCount: Math.max(0, availableOf(book)),
        active: live.filter((x) => x.applyType === 1).length,
        maxActive: r.maxActive,
        maxBorrowDays: r.maxBorrowDays,
        maxReceive: r.maxReceive,
        defaultDueDate: applyType === 1 ? dueDateOf(time, r.maxBorrowDays) : '',
      };
    },

    /** `GET bsBookApproval/receive`: picked up — a loan (借阅中) or handed out (已领用) by its kind. */
    async receive(user: SessionUser, id: number, onReplay?: (replay: unknown) => void) {
      const row = await repo.find(db, bsBookApproval, id);
      const key = row?.applyType === 2 ? 'receiveGift' : 'receiveLoan';
      return records.transition(bsBookApproval, key, user, { id }, onReplay);
    },

    /** `GET bsBookApproval/getUserInfo`: who is asking (the form's 申请人/部门) and where they stand. */
    async userInfo(user: SessionUser): Promise<UserInfo> {
      await access.require(user, WRITE);
      const deptId = await firstDept(db, user.id);
      const dept = deptId
        ? await db.selectFrom('department').select('name').where('id', '=', deptId).executeTakeFirst()
        : undefined;
      const u = await db.selectFrom('user').select('user_name').where('id', '=', user.id).executeTakeFirst();
      const live = await liveOf(db, user.id, null);
      const time = now();
      return {
        id: user.id,
        name: String(u?.user_name ?? ''),
        deptId,
        deptName: String(dept?.name ?? ''),
        active: live.filter((x) => x.applyType === 1).length,
        overdue: live.filter((x) => isOverdue(x, time)).length,
        rules: { ...(await rules()) },
      };
    },
  };
}

export type BookService = ReturnType<typeof createBookService>;
