import { sql, type Kysely } from 'kysely';
import { activity, activityRecord, activitySign } from '../../../shared/records/activity/activity';
import { SIGN_CANCELLED, SIGN_PRESENT } from '../../../shared/records/activity/rules';
import type { Db } from '../../db/index';

/**
 * The monthly statistic's SQL (portable: no dialect functions, numbers through Number()). The
 * tables are the definitions' (like records.repo), so the builder is untyped here.
 */
const k = (db: Db) => db as unknown as Kysely<any>;

/** Held activities (published or taken down; a draft never happened) starting in [from, to). */
export async function heldActivities(db: Db, from: number, to: number) {
  const rows = await k(db)
    .selectFrom(activity.table)
    .select(['id', 'start_time'])
    .where('del_flag', '=', 0)
    .where('status', '<>', 0)
    .where('start_time', '>=', from)
    .where('start_time', '<', to)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), startTime: Number(r.start_time) }));
}

/** Per activity: people signed up (not cancelled) and people checked in. */
export async function signTotals(db: Db, ids: readonly number[]) {
  if (!ids.length) return [];
  const rows = await k(db)
    .selectFrom(activitySign.table)
    .select([
      'activity_id',
      sql<number>`sum(case when status <> ${SIGN_CANCELLED} then persons else 0 end)`.as('signed'),
      sql<number>`sum(case when status = ${SIGN_PRESENT} then persons else 0 end)`.as('present'),
    ])
    .where('del_flag', '=', 0)
    .where('activity_id', 'in', ids)
    .groupBy('activity_id')
    .execute();
  return rows.map((r) => ({
    activityId: Number(r.activity_id),
    signed: Number(r.signed ?? 0),
    present: Number(r.present ?? 0),
  }));
}

/** Per activity: the 实际参与人数 its 活动资料 files. */
export async function recorded(db: Db, ids: readonly number[]) {
  if (!ids.length) return [];
  const rows = await k(db)
    .selectFrom(activityRecord.table)
    .select(['activity_id', 'participants'])
    .where('del_flag', '=', 0)
    .where('activity_id', 'in', ids)
    .execute();
  return rows.map((r) => ({ activityId: Number(r.activity_id), participants: Number(r.participants) }));
}
