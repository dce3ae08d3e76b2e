import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. 观众记录 tour_record (issue 24; research/records-design.md §9; README "Dashboards and
 * the workbench"): visitors admitted per museum day, one row per admission event, by `source`
 * 1 预约入馆 (a booking admitted at the gate or desk), 2 团队入馆 (a team's finishAppoint),
 * 3 现场/闸机 (a walk-in booked at the desk and admitted, or a gate counter's reading typed in),
 * 4 手工补录 (typed in by the visitor-statistics staff). `count` persons, of whom `minor_count`
 * under the minors' age, in `team_count` teams. Admissions write their row in the admission's own
 * transaction (so a replayed admission, which admits nobody, writes nothing); `ref_table` /
 * `ref_id` name the order or team it came from. A typed row keeps who and why (`remark`) and is
 * withdrawn by `del_flag`, never erased.
 *
 * Admissions made before this migration are written here once from the reservation tables.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
const user = (c: ColumnDefinitionBuilder) => c.references('user.id').onDelete('set null');

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tour_record')
    .addColumn('id', 'integer', id(db))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('create_by', 'integer', user)
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'integer', user)
    .addColumn('del_flag', 'integer', zero)
    .addColumn('date', 'varchar(10)', (c) => c.notNull())
    .addColumn('source', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('minor_count', 'integer', zero)
    .addColumn('team_count', 'integer', zero)
    .addColumn('ref_table', 'varchar(50)', text)
    .addColumn('ref_id', 'integer')
    .addColumn('remark', 'varchar(200)', text)
    .execute();
  await db.schema.createIndex('tour_record_date_idx').on('tour_record').columns(['date', 'source']).execute();

  // Earlier admissions: individuals grouped by order, teams by their 实到人数.
  const now = Date.now();
  const visitors = await db
    .selectFrom('appoint_order_visitor as v')
    .innerJoin('appoint_order as o', 'o.id', 'v.order_id')
    .select(['v.order_id', 'v.date', 'v.is_minor', 'o.channel'])
    .where('v.check_status', '=', 1)
    .where('v.del_flag', '=', 0)
    .where('o.del_flag', '=', 0)
    .execute();
  const byOrder = new Map<number, { date: string; source: number; count: number; minors: number }>();
  for (const v of visitors) {
    const key = Number(v.order_id);
    const row = byOrder.get(key) ?? {
      date: String(v.date),
      source: Number(v.channel) === 3 ? 3 : 1,
      count: 0,
      minors: 0,
    };
    row.count += 1;
    row.minors += Number(v.is_minor) ? 1 : 0;
    byOrder.set(key, row);
  }
  const teams = await db
    .selectFrom('appoint_team_order')
    .select(['id', 'date', 'actual_count', 'visitor_count', 'minor_count'])
    .where('status', '=', 3)
    .where('del_flag', '=', 0)
    .execute();
  const rows = [
    ...[...byOrder].map(([orderId, r]) => ({
      date: r.date,
      source: r.source,
      count: r.count,
      minor_count: r.minors,
      team_count: 0,
      ref_table: 'appoint_order',
      ref_id: orderId,
    })),
    ...teams.map((t) => {
      const count = Number(t.actual_count ?? t.visitor_count ?? 0);
      return {
        date: String(t.date),
        source: 2,
        count,
        minor_count: Math.min(Number(t.minor_count ?? 0), count),
        team_count: 1,
        ref_table: 'appoint_team_order',
        ref_id: Number(t.id),
      };
    }),
  ].filter((r) => r.count > 0);
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('tour_record')
      .values(rows.slice(i, i + 200).map((r) => ({ ...r, create_time: now, update_time: now })))
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tour_record').execute();
}
