import type { Kysely } from 'kysely';

/*
 * FROZEN. 儿童体验馆 as a second venue of the reservation engine (issue 21; README "Visitor
 * reservations"): `venue` (1 主馆, 2 儿童体验馆) on slot templates, tickets (copied from their
 * template when generated), individual orders and visitors (copied from their ticket when
 * booked), so each venue's lists filter on their own column. Every existing row is the main
 * hall's (1).
 *
 * One booking per ID per day becomes one per ID per day per venue without touching the unique
 * index: a main-hall visitor's `day_key` keeps its form 'date|idType|idNumber' (the rows held
 * today stay valid), a children's-hall visitor's is 'date|idType|idNumber|2', so a child may
 * book the hall and the museum the same day, and still only once each.
 */
const TABLES = ['appoint_setting_times', 'appoint_ticket', 'appoint_order', 'appoint_order_visitor'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES)
    await db.schema
      .alterTable(table)
      .addColumn('venue', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await db.schema.alterTable(table).dropColumn('venue').execute();
}
