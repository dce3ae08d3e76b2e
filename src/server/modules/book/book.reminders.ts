import { ON_LOAN } from '../../../shared/records/book/books';
import { addDays, museumDate, parseMuseumDate } from '../../../shared/rules/museum-time';
import type { Db } from '../../db/index';
import type { NoticeService } from '../notice/notice.service';

/**
 * The loans' reminders (issue 22; research/records-design.md §4.2 "a daily job reminds borrowers
 * 3 days before the due date and on each overdue day"), through the bell.
 *
 * - 即将到期: once per due date, on the first run from 3 days before it up to the day itself
 *   (a server down on the third day still reminds on the second); a renewal's new due date
 *   earns its own.
 * - 已逾期: on each museum day after the due date while the book is out (借阅中 or 延期审批中).
 * - At most one reminder per loan per museum day, whatever runs: the `book_reminder` row is
 *   inserted first (its key is loan × day, ON CONFLICT DO NOTHING) and the notice goes only from
 *   the run whose insert landed. A notice that then fails is not retried that day: one missed
 *   bell beats two (the loan still shows 已逾期 on 我的借阅).
 *
 * The job runs hourly (app.ts, one instance at a time); reminders go from `FROM_HOUR` museum
 * time so a borrower finds them at the start of the working day, not at midnight.
 */
export const FROM_HOUR = 8;
const SOON_DAYS = 3;
const DAY_MS = 86_400_000;

export function createBookReminders(deps: { db: Db; notices: NoticeService; now?: () => number }) {
  const { db, notices } = deps;
  const now = deps.now ?? Date.now;

  return {
    /** Sends today's reminders; answers how many went out. */
    async run(): Promise<{ soon: number; overdue: number }> {
      const t = now();
      const sent = { soon: 0, overdue: 0 };
      // The museum's hour: the day starts at 00:00 museum time (UTC+8).
      const hour = Math.floor((t - parseMuseumDate(museumDate(t))!) / 3600_000);
      if (hour < FROM_HOUR) return sent;
      const today = museumDate(t);
      const horizon = addDays(today, SOON_DAYS);
      const loans = await db
        .selectFrom('bs_book_approval as a')
        .innerJoin('bs_book_info as b', 'b.id', 'a.book_id')
        .select(['a.id', 'a.applicant_id', 'a.due_date', 'b.title'])
        .where('a.status', 'in', [...ON_LOAN])
        .where('a.del_flag', '=', 0)
        .where('a.apply_type', '=', 1)
        .where('a.due_date', '!=', '')
        .where('a.due_date', '<=', horizon)
        .where('a.applicant_id', 'is not', null)
        .execute();
      if (loans.length === 0) return sent;
      // The due dates already reminded as 即将到期, so a later day of the window sends nothing.
      const soonDone = new Set(
        (
          await db
            .selectFrom('book_reminder')
            .select(['approval_id', 'due_date'])
            .where(
              'approval_id',
              'in',
              loans.map((l) => l.id),
            )
            .where('kind', '=', 'soon')
            .execute()
        ).map((r) => `${r.approval_id}:${r.due_date}`),
      );
      for (const loan of loans) {
        const due = loan.due_date;
        const overdue = today > due;
        if (!overdue && soonDone.has(`${loan.id}:${due}`)) continue;
        const kind = overdue ? 'overdue' : 'soon';
        const claimed = await db
          .insertInto('book_reminder')
          .values({ approval_id: loan.id, day: today, kind, due_date: due, created_at: t })
          .onConflict((oc) => oc.columns(['approval_id', 'day']).doNothing())
          .executeTakeFirst();
        if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) continue;
        const title = `《${loan.title}》`;
        const content = overdue
          ? `您借阅的${title}已逾期 ${daysBetween(due, today)} 天（应还日期 ${due}），请尽快到资料室归还`
          : due === today
            ? `您借阅的${title}今天（${due}）到期，请按时归还或申请续借`
            : `您借阅的${title}将于 ${due} 到期，请按时归还或申请续借`;
        await notices
          .notify({
            receivers: [Number(loan.applicant_id)],
            content,
            source: 'system',
            from: null,
            link: '/books/borrow-record',
          })
          .catch(() => {});
        sent[kind] += 1;
      }
      return sent;
    },
  };
}

function daysBetween(from: string, to: string): number {
  return Math.round((parseMuseumDate(to)! - parseMuseumDate(from)!) / DAY_MS);
}
