import type { Db } from '../../db/index';

/**
 * Writes one 观众记录 row for an admission (README "Dashboards and the workbench"). Called by the
 * reservation module inside the admission's own transaction, after its conditional UPDATEs have
 * admitted somebody: a replayed offline admission admits nobody (each visitor moves 未入馆 →
 * 已入馆 once; a team 已通过 → 已入馆 once), is refused, and so writes nothing — an admission is
 * counted exactly once, whether it arrives twice with the same Idempotency-Key or not.
 */
export async function recordAdmission(
  trx: Db,
  row: {
    date: string;
    /** 1 预约入馆, 2 团队入馆, 3 现场 (a desk walk-in's booking). */
    source: 1 | 2 | 3;
    count: number;
    minors: number;
    teams: number;
    refTable: 'appoint_order' | 'appoint_team_order';
    refId: number;
    by: number | null;
    time: number;
  },
): Promise<void> {
  if (row.count <= 0) return;
  await trx
    .insertInto('tour_record')
    .values({
      date: row.date,
      source: row.source,
      count: row.count,
      minor_count: Math.min(row.minors, row.count),
      team_count: row.teams,
      ref_table: row.refTable,
      ref_id: row.refId,
      create_time: row.time,
      create_by: row.by,
      update_time: row.time,
      update_by: row.by,
    })
    .execute();
}
