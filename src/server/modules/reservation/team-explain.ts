import { exhibitionSession, SESSION_CANCELLED } from '../../../shared/records/volunteer/exhibition-service';
import type { Db } from '../../db/index';
import * as repo from '../../records/records.repo';

/**
 * A team that asks for an explainer (需要讲解, records-design §7.5) gets a volunteer session: when
 * the team is approved (or saved without approval), a 预约讲解 session of the chosen exhibition
 * on the team's day, starting with its slot and lasting the exhibition's explanation time (cut
 * at the slot's end), open for volunteers to claim, one explainer per 30 visitors (at most 20,
 * the session's cap). The volunteers' phones list it among the sessions to claim.
 *
 * Two teams of one slot and exhibition share the session (one session per exhibition, day and
 * start time is the volunteers' rule): the second raises its quota. A cancelled session at that
 * time is reopened. Cancelling or refusing the team gives its explainers back: the session is
 * cancelled when no other live team holds it, else its quota shrinks.
 */

const PER_EXPLAINER = 30;
const MAX_QUOTA = 20;

type Row = Record<string, unknown>;

const needOf = (visitors: number) => Math.max(1, Math.ceil(visitors / PER_EXPLAINER));

const plusMinutes = (hhmm: string, minutes: number) => {
  const m = Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5)) + minutes;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/** Makes or joins the team's session; answers its id (null when the team asked for none). */
export async function openExplainSession(trx: Db, team: Row, actorId: number | null, time: number) {
  if (team.needExplain !== true || !team.explainExhibitionId) return null;
  const exhibitionId = Number(team.explainExhibitionId);
  const ticket = await trx
    .selectFrom('appoint_ticket')
    .select(['start_time', 'end_time'])
    .where('id', '=', Number(team.ticketId))
    .executeTakeFirstOrThrow();
  const exhibition = await trx
    .selectFrom('volunteer_exhibition')
    .select(['explain_minutes'])
    .where('id', '=', exhibitionId)
    .executeTakeFirstOrThrow();
  const start = ticket.start_time;
  const end = [plusMinutes(start, Number(exhibition.explain_minutes)), ticket.end_time].sort()[0]!;
  const need = needOf(Number(team.visitorCount));
  const existing = await trx
    .selectFrom('volunteer_session')
    .select(['id', 'quota', 'status'])
    .where('exhibition_id', '=', exhibitionId)
    .where('service_date', '=', String(team.date))
    .where('start_time', '=', start)
    .where('del_flag', '=', 0)
    .executeTakeFirst();
  let id: number;
  if (existing) {
    id = Number(existing.id);
    const reopened = Number(existing.status) === SESSION_CANCELLED;
    await trx
      .updateTable('volunteer_session')
      .set({
        quota: Math.min(MAX_QUOTA, (reopened ? 0 : Number(existing.quota)) + need),
        ...(reopened ? { status: 0, cancel_reason: '', team_order_id: Number(team.id) } : {}),
        recruit_open: 1,
        update_time: time,
        update_by: actorId,
      })
      .where('id', '=', id)
      .execute();
  } else {
    id = await repo.insert(
      trx,
      exhibitionSession,
      {
        exhibitionId,
        serviceDate: team.date,
        startTime: start,
        endTime: end,
        type: 2,
        quota: Math.min(MAX_QUOTA, need),
        recruitOpen: true,
        explainerIds: [],
        teamOrderId: team.id,
        status: 0,
        cancelReason: '',
      },
      actorId,
      time,
    );
  }
  await trx
    .updateTable('appoint_team_order')
    .set({ explain_session_id: id })
    .where('id', '=', Number(team.id))
    .execute();
  return id;
}

/** Gives back what the team held of its session (see above). */
export async function releaseExplainSession(trx: Db, team: Row, reason: string, time: number) {
  const id = team.explainSessionId ? Number(team.explainSessionId) : null;
  if (!id) return;
  const others = await trx
    .selectFrom('appoint_team_order')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('explain_session_id', '=', id)
    .where('id', '<>', Number(team.id))
    .where('status', 'in', [0, 1])
    .where('del_flag', '=', 0)
    .executeTakeFirstOrThrow();
  const session = trx.updateTable('volunteer_session').where('id', '=', id).where('status', 'in', [0, 1]);
  if (Number(others.n) > 0)
    await session
      .set((eb) => ({ quota: eb('quota', '-', needOf(Number(team.visitorCount))), update_time: time }))
      .where('quota', '>', needOf(Number(team.visitorCount)))
      .execute();
  else
    await session
      .set({ status: SESSION_CANCELLED, cancel_reason: `团队预约${reason}`, update_time: time })
      .execute();
}
