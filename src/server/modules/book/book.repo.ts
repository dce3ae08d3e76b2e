import { sql } from 'kysely';
import type { Db } from '../../db/index';

/**
 * A catalogue row's stock counters (README "Book lending"), changed only here and only by single
 * UPDATEs, so approvals, pick-ups and returns landing at once never lose one another's change.
 * `reserve` is the conditional UPDATE that makes giving the last copy twice impossible, on
 * SQLite (writes serialised) and PostgreSQL (the second UPDATE re-checks the row after the first
 * commits).
 */

/** Reserves `n` copies of a lendable row, or nothing: answers whether it did. */
export async function reserve(q: Db, bookId: number, n: number, t: number): Promise<boolean> {
  const r = await q
    .updateTable('bs_book_info')
    .set({ reserved_count: sql`reserved_count + ${n}`, update_time: t })
    .where('id', '=', bookId)
    .where('del_flag', '=', 0)
    .where('status', '=', 1)
    .where(sql<number>`total_count - reserved_count - lent_count`, '>=', n)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Gives back `n` reserved copies (a cancelled approval). */
export async function unreserve(q: Db, bookId: number, n: number, t: number) {
  await q
    .updateTable('bs_book_info')
    .set({ reserved_count: sql`reserved_count - ${n}`, update_time: t })
    .where('id', '=', bookId)
    .execute();
}

/** A borrowed book picked up: its reservation becomes a loan. */
export async function lend(q: Db, bookId: number, n: number, t: number) {
  await q
    .updateTable('bs_book_info')
    .set({ reserved_count: sql`reserved_count - ${n}`, lent_count: sql`lent_count + ${n}`, update_time: t })
    .where('id', '=', bookId)
    .execute();
}

/** A publication handed out (领用): its reservation leaves the holding. */
export async function handOut(q: Db, bookId: number, n: number, t: number) {
  await q
    .updateTable('bs_book_info')
    .set({ reserved_count: sql`reserved_count - ${n}`, total_count: sql`total_count - ${n}`, update_time: t })
    .where('id', '=', bookId)
    .execute();
}

/** A loan returned; a lost book also leaves the holding. */
export async function giveBack(q: Db, bookId: number, n: number, lost: boolean, t: number) {
  await q
    .updateTable('bs_book_info')
    .set(
      lost
        ? { lent_count: sql`lent_count - ${n}`, total_count: sql`total_count - ${n}`, update_time: t }
        : { lent_count: sql`lent_count - ${n}`, update_time: t },
    )
    .where('id', '=', bookId)
    .execute();
}

/**
 * Holds the applicant's row until the transaction ends (a write that changes nothing), so two
 * requests of one person landing at once are checked one after the other: the second sees the
 * first's row, and the cap and the no-duplicate rule hold on PostgreSQL too (SQLite serialises
 * writes anyway).
 */
export async function lockApplicant(q: Db, userId: number) {
  await q
    .updateTable('user')
    .set({ enabled: sql`enabled` })
    .where('id', '=', userId)
    .execute();
}
