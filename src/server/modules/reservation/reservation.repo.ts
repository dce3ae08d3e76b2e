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

/**
 * The statistics' raw counts over a date range (both days included), grouped in SQL; of one
 * venue (migration 0033) when given, of both otherwise. A team's venue is its ticket's.
 */
export async function statRows(q: Db, from: string, to: string, venue?: number) {
  const one = venue !== undefined;
  const [tickets, visitors, teams, provinces, births, genders] = await Promise.all([
    q
      .selectFrom('appoint_ticket')
      .select(['id', 'date', 'start_time', 'end_time', 'total_sum', 'is_open'])
      .where('del_flag', '=', 0)
      .where('date', '>=', from)
      .where('date', '<=', to)
      .$if(one, (b) => b.where('venue', '=', venue!))
      .orderBy('date')
      .orderBy('start_time')
      .execute(),
    // Individual visitors by ticket and check status.
    q
      .selectFrom('appoint_order_visitor as v')
      .innerJoin('appoint_order as o', 'o.id', 'v.order_id')
      .select(['o.ticket_id', 'o.date', 'v.check_status'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('v.del_flag', '=', 0)
      .where('o.del_flag', '=', 0)
      .where('v.date', '>=', from)
      .where('v.date', '<=', to)
      .$if(one, (b) => b.where('v.venue', '=', venue!))
      .groupBy(['o.ticket_id', 'o.date', 'v.check_status'])
      .execute(),
    q
      .selectFrom('appoint_team_order')
      .select(['ticket_id', 'date', 'status'])
      .select(sql<number>`sum(visitor_count)`.as('persons'))
      .select(sql<number>`sum(actual_count)`.as('arrived'))
      .where('del_flag', '=', 0)
      .where('date', '>=', from)
      .where('date', '<=', to)
      .$if(one, (b) =>
        b.where('ticket_id', 'in', q.selectFrom('appoint_ticket').select('id').where('venue', '=', venue!)),
      )
      .groupBy(['ticket_id', 'date', 'status'])
      .execute(),
    // Who came, by what their resident ID says: region, birth year, gender digit.
    splitBy(q, from, to, venue, sql<string>`substr(id_number, 1, 2)`),
    splitBy(q, from, to, venue, sql<string>`substr(id_number, 7, 4)`, sql<string>`substr(date, 1, 4)`),
    splitBy(q, from, to, venue, sql<string>`substr(id_number, 17, 1)`),
  ]);
  return { tickets, visitors, teams, provinces, births, genders };
}

/**
 * Admitted visitors holding a resident ID (idType 1), counted by `key` and, when given, a
 * second key (`k2`; an empty one is not grouped by: PostgreSQL refuses a constant in GROUP BY).
 */
async function splitBy(
  q: Db,
  from: string,
  to: string,
  venue: number | undefined,
  key: ReturnType<typeof sql<string>>,
  second?: ReturnType<typeof sql<string>>,
): Promise<{ k: string; k2: string; n: number }[]> {
  const base = q
    .selectFrom('appoint_order_visitor')
    .select(key.as('k'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('del_flag', '=', 0)
    .where('check_status', '=', 1)
    .where('id_type', '=', 1)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .$if(venue !== undefined, (b) => b.where('venue', '=', venue!));
  if (!second) return (await base.groupBy(key).execute()).map((r) => ({ ...r, k2: '' }));
  return base.select(second.as('k2')).groupBy([key, second]).execute();
}
