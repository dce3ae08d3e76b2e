import { sql } from 'kysely';
import type { Db } from '../../db/index';

/**
 * A ticket's place counters (README "Visitor reservations"), changed only here and only by
 * single UPDATEs, so concurrent bookings, cancellations and capacity edits never lose one
 * another's change: `take` is the conditional UPDATE that makes overselling impossible.
 */

/** Gives `n` places back (a cancel, a refusal, a voided order). */
export async function giveBack(q: Db, ticketId: number, n: number, team: boolean) {
  await q
    .updateTable('appoint_ticket')
    .set(
      team
        ? { team_surplus: sql`team_surplus + ${n}`, team_booked: sql`team_booked - ${n}` }
        : { surplus_sum: sql`surplus_sum + ${n}`, booked_sum: sql`booked_sum - ${n}` },
    )
    .where('id', '=', ticketId)
    .execute();
}

/**
 * Takes `n` places of a ticket (a team's or an individual's), or nothing: answers whether it
 * did. The one conditional UPDATE that makes overselling impossible on SQLite and PostgreSQL.
 */
export async function take(q: Db, ticketId: number, n: number, team: boolean): Promise<boolean> {
  const r = await q
    .updateTable('appoint_ticket')
    .set(
      team
        ? { team_surplus: sql`team_surplus - ${n}`, team_booked: sql`team_booked + ${n}` }
        : { surplus_sum: sql`surplus_sum - ${n}`, booked_sum: sql`booked_sum + ${n}` },
    )
    .where('id', '=', ticketId)
    .where('is_open', '=', 1)
    .where(team ? 'team_surplus' : 'surplus_sum', '>=', n)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * 人数上限: what individuals may still book becomes `surplus`, and the total follows
 * (booked + team places + surplus), in one statement so a booking landing now is kept.
 */
export async function setSurplus(q: Db, id: number, surplus: number, actor: number, t: number) {
  await q
    .updateTable('appoint_ticket')
    .set({
      surplus_sum: surplus,
      total_sum: sql`booked_sum + team_total + ${surplus}`,
      update_time: t,
      update_by: actor,
    })
    .where('id', '=', id)
    .execute();
}
