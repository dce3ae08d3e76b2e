import type {
  MyNotice,
  MyRecords,
  MySession,
  OpenRecruit,
  OpenSession,
  VolunteerMe,
} from '../../../shared/api/volunteer-me';
import {
  CHECKIN_WAITING,
  QUALIFICATION_ISSUED,
  SESSION_ASSIGNED,
  SESSION_CANCELLED,
  SESSION_OPEN,
  exhibitionSession,
  sessionCheckIn,
} from '../../../shared/records/volunteer/exhibition-service';
import { recruitSign } from '../../../shared/records/volunteer/recruit';
import { SERVICE_CONFIRMED } from '../../../shared/records/volunteer/service-hours';
import { STALE_STATUS } from '../../../shared/records/define';
import { addDays, museumDate } from '../../../shared/rules/museum-time';
import { sessionWindow, timesOverlap } from '../../../shared/rules/volunteer-hours';
import type { Db } from '../../db/index';
import { forbidden, invalid, notFound } from '../../errors';
import * as repo from '../../records/records.repo';
import type { SessionUser } from '../auth/auth.service';
import type { HoursSince } from '../volunteer/volunteer.service';
import type { VolunteerService as SessionService } from '../volunteer-service/volunteer-service.service';
import { claimPlace } from './volunteer-me.repo';

/**
 * The volunteer's own side (issue 20; README "Volunteer accounts and the phone view"): what the
 * phone view shows and the volunteer's own claims and withdrawals. Everything is found from the
 * caller's account: the adult volunteer whose `user_id` is theirs, and the service side's rows
 * that name them by that same user id. No call takes someone else's id, so nobody reads another
 * volunteer's data here.
 */

/** How far ahead 我的场次 and 可认领 look (days, today included). */
export const MY_DAYS = 7;
export const CLAIM_DAYS = 30;
/** Sign-up states a volunteer may withdraw (README: 待审核 until the service starts, 已录用 until sign-up closes). */
const SIGN_PENDING = 0;
const SIGN_ADMITTED = 1;
const SIGN_CANCELLED = 6;

export const NOT_A_VOLUNTEER =
  '你还不是本馆志愿者。如需加入，请先提交志愿者申请；已通过面试的请联系志愿者管理员';

/** Hours confirmed since a day, for 转正 (volunteer.service's seam): the adult row → its account. */
export const confirmedHoursSince: HoursSince = async (db, adultId, since) => {
  const r = await db
    .selectFrom('volunteer_service_record as r')
    .innerJoin('volunteer_adult as a', 'a.user_id', 'r.volunteer_id')
    .select((eb) => eb.fn.sum<number>('r.service_minutes').as('m'))
    .where('a.id', '=', adultId)
    .where('r.status', '=', SERVICE_CONFIRMED)
    .where('r.volunteer_kind', '=', 1)
    .where('r.del_flag', '=', 0)
    .where('r.service_date', '>=', since)
    .executeTakeFirst();
  return Number(r?.m ?? 0) / 60;
};

/** Rich notice text as plain text for the phone (it renders no HTML). */
function plain(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/h\d)[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .slice(0, 5000);
}

const idsHave = (ids: unknown, id: number) => String(ids ?? '').includes(`,${id},`);
const countIds = (ids: unknown) =>
  String(ids ?? '')
    .split(',')
    .filter(Boolean).length;

export function createVolunteerMeService(deps: {
  db: Db;
  sessions: SessionService | null;
  now?: () => number;
}) {
  const { db } = deps;
  const now = deps.now ?? Date.now;

  /** The caller's adult volunteer: one in service (or blocked) first, else the latest. */
  async function mine(user: SessionUser) {
    const rows = await db
      .selectFrom('volunteer_adult')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('del_flag', '=', 0)
      .orderBy('id', 'desc')
      .execute();
    const v = rows.find((r) => [1, 2, 9].includes(Number(r.status))) ?? rows[0];
    if (!v) throw forbidden(NOT_A_VOLUNTEER);
    return v;
  }

  /** Only a volunteer in service (见习 or 正式) claims or signs up. */
  function inService(v: Record<string, unknown>) {
    const st = Number(v.status);
    if (st === 9) throw invalid('你的志愿者身份已停用，暂不能认领或报名；如有疑问请联系志愿者管理员');
    if (st === 3) throw invalid('你已退出志愿者队伍，不能认领或报名');
  }

  async function exhibitions(ids: number[]) {
    const rows = ids.length
      ? await db
          .selectFrom('volunteer_exhibition')
          .select(['id', 'name', 'hall', 'need_qualification', 'status'])
          .where('id', 'in', [...new Set(ids)])
          .execute()
      : [];
    return new Map(rows.map((r) => [Number(r.id), r]));
  }

  async function certificates(userId: number) {
    return db
      .selectFrom('volunteer_qualification as q')
      .innerJoin('volunteer_exhibition as e', 'e.id', 'q.exhibition_id')
      .select(['q.id', 'q.exhibition_id', 'q.cert_no', 'q.issue_date', 'e.name', 'e.hall'])
      .where('q.volunteer_id', '=', userId)
      .where('q.status', '=', QUALIFICATION_ISSUED)
      .where('q.del_flag', '=', 0)
      .orderBy('q.issue_date', 'desc')
      .execute();
  }

  /** My sessions from `from` on (check-in rows name me), with the session and my check-in. */
  async function mySessions(userId: number, from: string, to: string) {
    return db
      .selectFrom('volunteer_check_in as c')
      .innerJoin('volunteer_session as s', 's.id', 'c.detail_id')
      .select([
        's.id',
        's.exhibition_id',
        's.service_date',
        's.start_time',
        's.end_time',
        's.status',
        's.cancel_reason',
        'c.status as check_status',
        'c.check_in_time',
        'c.check_out_time',
      ])
      .where('c.volunteer_id', '=', userId)
      .where('c.del_flag', '=', 0)
      .where('s.del_flag', '=', 0)
      .where('s.service_date', '>=', from)
      .where('s.service_date', '<=', to)
      .orderBy('s.service_date')
      .orderBy('s.start_time')
      .execute();
  }

  /** When my sign-up may still be withdrawn (README "Volunteer accounts and the phone view"). */
  function cancellable(
    sign: { status: number },
    rec: { activity_start: number | null; signup_end: number | null },
    t: number,
  ) {
    const started = rec.activity_start !== null && t >= Number(rec.activity_start);
    if (started) return false;
    if (sign.status === SIGN_PENDING) return true;
    if (sign.status === SIGN_ADMITTED) return rec.signup_end === null || t <= Number(rec.signup_end);
    return false;
  }

  return {
    async me(user: SessionUser): Promise<VolunteerMe> {
      const v = await mine(user);
      const t = now();
      const today = museumDate(t);
      const u = await db
        .selectFrom('user')
        .select('must_change_password')
        .where('id', '=', user.id)
        .executeTakeFirst();
      const group = v.group_id
        ? await db
            .selectFrom('volunteer_group')
            .select('name')
            .where('id', '=', Number(v.group_id))
            .executeTakeFirst()
        : undefined;

      // Hours: the service module's totals (confirmed only; pending apart), never stored.
      const totals = deps.sessions
        ? await deps.sessions.totals(user, { volunteerId: user.id })
        : { year: Number(today.slice(0, 4)), yearMinutes: 0, totalMinutes: 0, pendingMinutes: 0 };

      const certs = await certificates(user.id);
      const certified = new Set(certs.map((c) => Number(c.exhibition_id)));

      const week = await mySessions(user.id, today, addDays(today, MY_DAYS - 1));
      // Overlap is judged against every live session of mine in the claim horizon.
      const horizon = addDays(today, CLAIM_DAYS - 1);
      const busy = (await mySessions(user.id, today, horizon)).filter(
        (s) => Number(s.status) !== SESSION_CANCELLED,
      );
      const open = await db
        .selectFrom('volunteer_session')
        .selectAll()
        .where('del_flag', '=', 0)
        .where('recruit_open', '=', 1)
        .where('status', 'in', [SESSION_OPEN, SESSION_ASSIGNED])
        .where('service_date', '>=', today)
        .where('service_date', '<=', horizon)
        .orderBy('service_date')
        .orderBy('start_time')
        .limit(500)
        .execute();
      const exs = await exhibitions([...week, ...open].map((s) => Number(s.exhibition_id)));
      const exName = (id: unknown) => String(exs.get(Number(id))?.name ?? '');
      const exHall = (id: unknown) => String(exs.get(Number(id))?.hall ?? '');

      const sessions: MySession[] = week.map((s) => ({
        id: Number(s.id),
        exhibitionName: exName(s.exhibition_id),
        hall: exHall(s.exhibition_id),
        serviceDate: String(s.service_date),
        startTime: String(s.start_time),
        endTime: String(s.end_time),
        status: Number(s.status),
        cancelReason: String(s.cancel_reason ?? ''),
        checkStatus: Number(s.check_status),
        checkInTime: s.check_in_time === null ? null : Number(s.check_in_time),
        checkOutTime: s.check_out_time === null ? null : Number(s.check_out_time),
      }));

      const openSessions: OpenSession[] = [];
      for (const s of open) {
        if (openSessions.length >= 30) break;
        const left = Number(s.quota) - countIds(s.explainer_ids);
        if (left <= 0 || idsHave(s.explainer_ids, user.id)) continue;
        if (sessionWindow(String(s.service_date), String(s.start_time), String(s.end_time)).start <= t)
          continue;
        const ex = exs.get(Number(s.exhibition_id));
        if (!ex || Number(ex.status) !== 1) continue;
        if (Number(ex.need_qualification) && !certified.has(Number(ex.id))) continue;
        const slot = { startTime: String(s.start_time), endTime: String(s.end_time) };
        const clash = busy.some(
          (b) =>
            b.service_date === s.service_date &&
            timesOverlap({ startTime: String(b.start_time), endTime: String(b.end_time) }, slot),
        );
        if (clash) continue;
        openSessions.push({
          id: Number(s.id),
          exhibitionName: String(ex.name),
          hall: String(ex.hall),
          serviceDate: String(s.service_date),
          startTime: slot.startTime,
          endTime: slot.endTime,
          quota: Number(s.quota),
          left,
        });
      }

      // Recruits: open for adults now, and those I signed up to that are not over.
      const signs = await db
        .selectFrom('volunteer_recruit_sign')
        .select(['id', 'recruit_id', 'status'])
        .where('volunteer_id', '=', Number(v.id))
        .where('del_flag', '=', 0)
        .execute();
      const signOf = new Map(signs.map((x) => [Number(x.recruit_id), x]));
      const recs = await db
        .selectFrom('volunteer_recruit')
        .selectAll()
        .where('del_flag', '=', 0)
        .where('status', '=', 1)
        .where('target_type', 'in', [1, 3])
        .where((eb) =>
          eb.or([
            eb.and([
              eb('open', '=', 1),
              eb.or([eb('signup_start', 'is', null), eb('signup_start', '<=', t)]),
              eb.or([eb('signup_end', 'is', null), eb('signup_end', '>=', t)]),
            ]),
            ...(signs.length
              ? [
                  eb.and([
                    eb(
                      'id',
                      'in',
                      signs.map((x) => Number(x.recruit_id)),
                    ),
                    eb.or([eb('activity_end', 'is', null), eb('activity_end', '>=', t)]),
                  ]),
                ]
              : []),
          ]),
        )
        .orderBy('signup_end')
        .orderBy('id', 'desc')
        .limit(30)
        .execute();
      const recruits: OpenRecruit[] = recs.map((r) => {
        const sign = signOf.get(Number(r.id));
        const num = (x: unknown) => (x === null || x === undefined ? null : Number(x));
        return {
          id: Number(r.id),
          title: String(r.title),
          location: String(r.location ?? ''),
          activityStart: num(r.activity_start),
          activityEnd: num(r.activity_end),
          signupEnd: num(r.signup_end),
          hoursPerPerson: String(r.hours_per_person ?? ''),
          needReview: Number(r.need_review) === 1,
          left: Math.max(0, Number(r.total) - Number(r.used)),
          mySign: sign
            ? {
                id: Number(sign.id),
                status: Number(sign.status),
                cancellable: cancellable(
                  { status: Number(sign.status) },
                  { activity_start: num(r.activity_start), signup_end: num(r.signup_end) },
                  t,
                ),
              }
            : null,
        };
      });

      // Notices published to all volunteers, to adults, or to my service group.
      const noticeRows = await db
        .selectFrom('volunteer_notice')
        .selectAll()
        .where('del_flag', '=', 0)
        .where('status', '=', 1)
        .where((eb) =>
          eb.or([
            eb('audience', 'in', [1, 2]),
            ...(v.group_id
              ? [eb.and([eb('audience', '=', 4), eb('group_id', '=', Number(v.group_id))])]
              : []),
          ]),
        )
        .orderBy('is_top', 'desc')
        .orderBy('publish_time', 'desc')
        .limit(20)
        .execute();
      const notices: MyNotice[] = noticeRows.map((n) => ({
        id: Number(n.id),
        title: String(n.title),
        category: Number(n.category),
        summary: String(n.summary ?? ''),
        content: plain(String(n.content ?? '')),
        publishTime: n.publish_time === null ? null : Number(n.publish_time),
        isTop: Number(n.is_top) === 1,
      }));

      return {
        today,
        mustChangePassword: Number(u?.must_change_password ?? 0) === 1,
        volunteer: {
          id: Number(v.id),
          number: String(v.volunteer_no),
          name: String(v.name),
          status: Number(v.status),
          kind: 1,
          groupName: String(group?.name ?? ''),
          joinDate: String(v.join_date ?? ''),
          regularDate: String(v.regular_date ?? ''),
        },
        hours: {
          year: totals.year,
          yearMinutes: totals.yearMinutes,
          totalMinutes: totals.totalMinutes,
          pendingMinutes: totals.pendingMinutes,
        },
        certificates: certs.map((c) => ({
          id: Number(c.id),
          exhibitionName: String(c.name),
          hall: String(c.hall),
          certNo: String(c.cert_no),
          issueDate: String(c.issue_date),
        })),
        sessions,
        openSessions,
        recruits,
        notices,
      };
    },

    /** My service records, newest first. */
    async records(user: SessionUser, q: { currentPage: number; pageCount: number }): Promise<MyRecords> {
      await mine(user);
      const base = db
        .selectFrom('volunteer_service_record')
        .where('volunteer_id', '=', user.id)
        .where('volunteer_kind', '=', 1)
        .where('del_flag', '=', 0);
      const total = Number(
        (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0,
      );
      const rows = await base
        .selectAll()
        .orderBy('service_date', 'desc')
        .orderBy('id', 'desc')
        .limit(q.pageCount)
        .offset((q.currentPage - 1) * q.pageCount)
        .execute();
      return {
        total,
        list: rows.map((r) => ({
          id: Number(r.id),
          serviceDate: String(r.service_date),
          startTime: String(r.start_time),
          endTime: String(r.end_time),
          serviceMinutes: Number(r.service_minutes ?? 0),
          content: String(r.content ?? ''),
          location: String(r.location ?? ''),
          status: Number(r.status),
          rejectReason: String(r.reject_reason ?? ''),
        })),
      };
    },

    /**
     * 认领 an open session (开放认领): setExplain's guards for one person — in service, the
     * exhibition's certificate when it needs one, no overlapping session of mine that day — and
     * the place taken in one conditional UPDATE (the session still open, not mine already, fewer
     * explainers than its quota), so parallel claims never overfill it. My check-in row follows
     * in the same transaction.
     */
    async claim(user: SessionUser, q: { sessionId: number }) {
      const v = await mine(user);
      inService(v);
      const t = now();
      const s = await db
        .selectFrom('volunteer_session')
        .selectAll()
        .where('id', '=', q.sessionId)
        .where('del_flag', '=', 0)
        .executeTakeFirst();
      if (!s) throw notFound('该场次不存在或已删除，请刷新后重试');
      const status = Number(s.status);
      if (status === SESSION_CANCELLED)
        throw invalid(`该场次已取消${s.cancel_reason ? `：${String(s.cancel_reason)}` : ''}`);
      if (status !== SESSION_OPEN && status !== SESSION_ASSIGNED) throw invalid('该场次已结束，不能认领');
      if (!Number(s.recruit_open)) throw invalid('该场次未开放认领，如需参加请联系志愿者管理员');
      const date = String(s.service_date);
      const slot = { startTime: String(s.start_time), endTime: String(s.end_time) };
      if (sessionWindow(date, slot.startTime, slot.endTime).start <= t)
        throw invalid('该场次已开始，不能再认领');
      if (idsHave(s.explainer_ids, user.id)) throw invalid('你已在该场次的讲解员中，无需重复认领');
      const ex = (await exhibitions([Number(s.exhibition_id)])).get(Number(s.exhibition_id));
      if (!ex) throw notFound('该场次的展览不存在或已删除，请刷新后重试');
      if (Number(ex.need_qualification)) {
        const cert = await db
          .selectFrom('volunteer_qualification')
          .select('id')
          .where('exhibition_id', '=', Number(ex.id))
          .where('volunteer_id', '=', user.id)
          .where('status', '=', QUALIFICATION_ISSUED)
          .where('del_flag', '=', 0)
          .executeTakeFirst();
        if (!cert) throw invalid(`你尚未取得“${String(ex.name)}”的讲解证书，不能认领该场次`);
      }
      const sameDay = (await mySessions(user.id, date, date)).filter(
        (o) => Number(o.status) !== SESSION_CANCELLED && Number(o.id) !== Number(s.id),
      );
      const clash = sameDay.find((o) =>
        timesOverlap({ startTime: String(o.start_time), endTime: String(o.end_time) }, slot),
      );
      if (clash)
        throw invalid(
          `你在 ${date} ${String(clash.start_time)}–${String(clash.end_time)} 已有场次，时间重叠，不能认领`,
        );
      const me = user.id;
      const left = await db.transaction().execute(async (trx) => {
        if (!(await claimPlace(trx, Number(s.id), me, t))) {
          const now2 = await trx
            .selectFrom('volunteer_session')
            .select(['quota', 'explainer_ids', 'status', 'recruit_open'])
            .where('id', '=', Number(s.id))
            .executeTakeFirst();
          if (now2 && idsHave(now2.explainer_ids, me)) throw invalid('你已在该场次的讲解员中，无需重复认领');
          if (now2 && countIds(now2.explainer_ids) >= Number(now2.quota))
            throw invalid('该场次名额已满，认领未成功');
          throw invalid(STALE_STATUS);
        }
        await repo.insertMany(
          trx,
          sessionCheckIn,
          [
            {
              detailId: Number(s.id),
              volunteerId: me,
              role: 1,
              status: CHECKIN_WAITING,
              flags: '',
              remark: '',
            },
          ],
          me,
          t,
        );
        await repo.logStatus(trx, {
          table: exhibitionSession.table,
          recordId: Number(s.id),
          action: 'claim',
          from: status,
          to: SESSION_ASSIGNED,
          operatorId: me,
          comment: `${String(v.name)}（${String(v.volunteer_no)}）认领`,
          time: t,
        });
        const after = await trx
          .selectFrom('volunteer_session')
          .select(['quota', 'explainer_ids'])
          .where('id', '=', Number(s.id))
          .executeTakeFirstOrThrow();
        return Number(after.quota) - countIds(after.explainer_ids);
      });
      return { sessionId: Number(s.id), left };
    },

    /**
     * Withdraws my sign-up (状态 已取消) and gives its place back, in one transaction. 待审核 may
     * be withdrawn until the service starts; 已录用 until the sign-up closes (after that the
     * office has planned on me: I ask the administrator, and a no-show counts toward a block).
     */
    async cancelSign(user: SessionUser, q: { signId: number }) {
      const v = await mine(user);
      const t = now();
      const sign = await db
        .selectFrom('volunteer_recruit_sign')
        .select(['id', 'recruit_id', 'status', 'places'])
        .where('id', '=', q.signId)
        .where('volunteer_id', '=', Number(v.id))
        .where('del_flag', '=', 0)
        .executeTakeFirst();
      // Someone else's sign-up answers as a missing one: its existence is not ours to tell.
      if (!sign) throw notFound('该报名不存在或已取消，请刷新后重试');
      const st = Number(sign.status);
      if (st === SIGN_CANCELLED) throw invalid('该报名已取消，无需重复取消');
      const rec = await db
        .selectFrom('volunteer_recruit')
        .select(['activity_start', 'signup_end'])
        .where('id', '=', Number(sign.recruit_id))
        .executeTakeFirstOrThrow();
      const r = { activity_start: rec.activity_start, signup_end: rec.signup_end };
      if (!cancellable({ status: st }, r, t)) {
        if (st === SIGN_ADMITTED || st === SIGN_PENDING)
          throw invalid(
            rec.activity_start !== null && t >= Number(rec.activity_start)
              ? '服务已开始，不能取消报名；如不能到岗请联系志愿者管理员'
              : '报名已截止，已录用的报名不能自行取消；如不能到岗请联系志愿者管理员',
          );
        throw invalid('该报名已到岗或已结束，不能取消');
      }
      await db.transaction().execute(async (trx) => {
        const n = await repo.moveStatus(
          trx,
          recruitSign,
          Number(sign.id),
          [st],
          { status: SIGN_CANCELLED },
          user.id,
          t,
        );
        if (!n) throw invalid(STALE_STATUS);
        await repo.release(trx, 'volunteer_recruit', Number(sign.recruit_id), Number(sign.places ?? 1));
        await repo.logStatus(trx, {
          table: recruitSign.table,
          recordId: Number(sign.id),
          action: 'cancel',
          from: st,
          to: SIGN_CANCELLED,
          operatorId: user.id,
          comment: '志愿者本人取消报名',
          time: t,
        });
      });
      return { signId: Number(sign.id), status: SIGN_CANCELLED };
    },
  };
}
export type VolunteerMeService = ReturnType<typeof createVolunteerMeService>;
