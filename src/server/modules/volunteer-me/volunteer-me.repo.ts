import { sql } from 'kysely';
import { SESSION_ASSIGNED, SESSION_OPEN } from '../../../shared/records/volunteer/exhibition-service';
import type { Db } from '../../db/index';

/**
 * The volunteer's claim of a place on a session, as one conditional UPDATE: `explainer_ids`
 * (',3,5,') gains the volunteer only while the session is open for claims, not cancelled or
 * done, does not already hold them, and holds fewer people than its quota (commas − 1). Both
 * databases re-check the condition on the row they lock, so parallel claims never overfill it.
 * Answers whether the place was taken.
 */
export async function claimPlace(trx: Db, sessionId: number, userId: number, time: number): Promise<boolean> {
  const taken = sql<number>`(case when explainer_ids = '' then 0 else length(explainer_ids) - length(replace(explainer_ids, ',', '')) - 1 end)`;
  const r = await trx
    .updateTable('volunteer_session')
    .set({
      explainer_ids: sql`case when explainer_ids = '' then ${`,${userId},`} else explainer_ids || ${`${userId},`} end`,
      status: SESSION_ASSIGNED,
      update_time: time,
      update_by: userId,
    })
    .where('id', '=', sessionId)
    .where('del_flag', '=', 0)
    .where('recruit_open', '=', 1)
    .where('status', 'in', [SESSION_OPEN, SESSION_ASSIGNED])
    .where('explainer_ids', 'not like', `%,${userId},%`)
    .where(sql<boolean>`${taken} < quota`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
