import { ADMIN_ROLE } from '../../../shared/menu/catalogue';
import { STALE_STATUS } from '../../../shared/records/define';
import { SERVICE_CONFIRMED, serviceRecord } from '../../../shared/records/volunteer/service-hours';
import { formatMuseumMinute, museumDate } from '../../../shared/rules/museum-time';
import {
  adultVolunteer,
  NO_SHOW_LIMIT,
  studentVolunteer,
  volunteerApplication,
} from '../../../shared/records/volunteer/people';
import {
  hoursProblem,
  recruit,
  recruitSign,
  volunteerNotice,
} from '../../../shared/records/volunteer/recruit';
import type { Db } from '../../db/index';
import { forbidden, invalid, notFound } from '../../errors';
import * as repo from '../../records/records.repo';
import type { RecordService } from '../../records/records.service';
import type { SessionUser } from '../auth/auth.service';
import type { NoticeService } from '../notice/notice.service';
import { addNoShow, nextNumber, usersGranted } from './volunteer.repo';
import { issueAccount, preparePassword, type IssuedAccount } from './volunteer-account';

/**
 * The volunteers' own rules beyond the records engine (README "Volunteers"): what a passed
 * interview creates, the trainee → regular thresholds, the notices volunteers get, and the
 * sign-up that takes a recruit's place in one conditional UPDATE.
 *
 * Hours come from service records (records-design §3.3), which another part of issue 20 builds:
 * `hoursSince` is the seam it plugs into; until then nobody has hours, so every 转正 before the
 * threshold needs an override with a reason.
 */

/** Defaults of the service settings (records-design §3.8; settled decision 5: defaults, not hard rules). */
export const TRAINEE_HOURS = 20;
export const TRAINEE_MONTHS = 2;
/** 已取消: a sign-up its volunteer withdrew (SIGN_STATES 6). */
const SIGN_WITHDRAWN = 6;

export type HoursSince = (db: Db, volunteerId: number, since: string) => Promise<number>;

/** Whole months from one 'yyyy-MM-dd' to another (a month counts once its day is reached). */
export function monthsBetween(from: string, to: string): number {
  const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = to.split('-').map(Number) as [number, number, number];
  return (ty - fy) * 12 + (tm - fm) - (td < fd ? 1 : 0);
}

export function createVolunteerService(deps: {
  db: Db;
  records: RecordService;
  notices: NoticeService;
  /**
   * Where an SMS would go; logs only while no SMS gateway is configured (README "Volunteers").
   * `secret` (an initial password) is in the text the volunteer gets but never in a log.
   */
  sms?: (phone: string, text: string, secret?: string) => void;
  hoursSince?: HoursSince;
  now?: () => number;
}) {
  const { db, records, notices } = deps;
  const now = deps.now ?? Date.now;
  const sms = deps.sms ?? (() => {});
  let hoursSince: HoursSince = deps.hoursSince ?? (async () => 0);
  /** A pass's initial password hashed before its transaction (interviewResult), by its input. */
  const prepared = new WeakMap<object, { password: string; hash: string }>();

  /** Tells `userIds` (those who exist) after the commit; a notice never undoes a transition. */
  const tell =
    (userIds: (number | null | undefined)[], content: string, from: number, link?: string) => () => {
      const ids = [...new Set(userIds.filter((x): x is number => typeof x === 'number'))];
      if (ids.length)
        void notices.notify({ receivers: ids, content, source: 'system', from, link }).catch(() => {});
    };

  records.registerEffect(
    `${volunteerApplication.name}.interviewNotice`,
    async (_trx, { row, input, user }) => {
      const when = formatMuseumMinute(input.interviewTime as number);
      const text = `您的志愿者申请已安排面试：${when}，地点：${String(input.interviewPlace)}。`;
      sms(String(row.phone ?? ''), text);
      return { after: tell([row.createBy === user.id ? null : row.createBy], text, user.id) };
    },
  );

  records.registerEffect(`${volunteerApplication.name}.resultNotice`, async (_trx, { row, user }) => {
    const text = '很遗憾，您的志愿者申请未通过。感谢您对本馆的关注。';
    sms(String(row.phone ?? ''), text);
    return { after: tell([row.createBy === user.id ? null : row.createBy], text, user.id) };
  });

  const CREATE_VOLUNTEER = `${volunteerApplication.name}.createVolunteer`;
  records.registerEffect(CREATE_VOLUNTEER, async (trx, { row, input, user, time }) => {
    const today = museumDate(time);
    const year = today.slice(0, 4);
    const common = {
      name: row.name,
      gender: row.gender,
      birthDate: row.birthDate,
      idType: row.idType,
      idNumber: row.idNumber,
      phone: row.phone,
      guardianName: row.guardianName,
      guardianPhone: row.guardianPhone,
      // A volunteer serves in one group: the first the applicant chose (README "Volunteers").
      groupId: (row.groupIds as number[])[0] ?? null,
      applicationId: row.id,
    };
    let volunteerId: number;
    let number: string;
    let account: IssuedAccount | null = null;
    if (row.type === 1) {
      // One volunteer per person: an ID already on the roll (any state but exit) is refused.
      const same = await trx
        .selectFrom('volunteer_adult')
        .select(['volunteer_no', 'status'])
        .where('id_number', '=', String(row.idNumber))
        .where('del_flag', '=', 0)
        .where('status', 'in', [1, 2, 9])
        .executeTakeFirst();
      if (same) throw invalid(`该证件号已是在册志愿者（编号 ${same.volunteer_no}），不能重复建档`);
      number = await nextNumber(trx, 'volunteer_adult', 'volunteer_no', `V${year}`);
      // The volunteer's login account (volunteer-account.ts): linked by phone, else made.
      account = row.phone
        ? await issueAccount(
            trx,
            { name: String(row.name), phone: String(row.phone), number },
            prepared.get(input) ?? (await preparePassword()),
            time,
          )
        : null;
      volunteerId = await repo.insert(
        trx,
        adultVolunteer,
        {
          ...common,
          volunteerNo: number,
          workUnit: row.workUnit,
          address: row.address,
          emergencyName: row.emergencyName,
          emergencyPhone: row.emergencyPhone,
          specialties: row.specialties,
          joinDate: today,
          status: 1,
          userId: account?.userId ?? null,
        },
        user.id,
        time,
      );
    } else {
      number = await nextNumber(trx, 'volunteer_student', 'student_no', `S${year}`);
      volunteerId = await repo.insert(
        trx,
        studentVolunteer,
        {
          ...common,
          studentNo: number,
          category: 1,
          school: row.workUnit,
          grade: row.grade,
          className: row.className,
          status: 1,
        },
        user.id,
        time,
      );
    }
    const text = `恭喜您通过志愿者面试，志愿者编号 ${number}${row.type === 1 ? '，现为见习志愿者' : ''}。`;
    sms(String(row.phone ?? ''), `${text}${accountText(account)}`, account?.initialPassword);
    return {
      answer: { volunteerId, volunteerNo: number, account, operatorNote: operatorNote(number, account) },
      // A replay (Idempotency-Key) is answered from a stored copy that never holds the password.
      replay: {
        volunteerId,
        volunteerNo: number,
        account: account && { userId: account.userId, account: account.account, linked: account.linked },
        operatorNote: replayNote(number, account),
      },
      set: { volunteerId },
      after: tell([row.createBy === user.id ? null : row.createBy], text, user.id),
    };
  });

  records.registerEffect(`${adultVolunteer.name}.regular`, async (trx, { row, input, time }) => {
    const today = museumDate(time);
    const joined = String(row.joinDate || today);
    const hours = await hoursSince(trx, row.id, joined);
    const months = monthsBetween(joined, today);
    const reason = typeof input.reason === 'string' ? input.reason.trim() : '';
    if ((hours < TRAINEE_HOURS || months < TRAINEE_MONTHS) && !reason)
      throw invalid(
        `见习期未满：已服务 ${hours} 小时（需 ${TRAINEE_HOURS} 小时），已满 ${months} 个月（需 ${TRAINEE_MONTHS} 个月）。如需破格转正，请填写原因`,
      );
    return { set: { regularDate: today, regularReason: reason } };
  });

  records.registerEffect(`${volunteerNotice.name}.notifyAudience`, async (trx, { row, user }) => {
    if (row.audience === 3) return; // students have no accounts to tell (they read the applet).
    let q = trx
      .selectFrom('volunteer_adult')
      .select('user_id')
      .where('del_flag', '=', 0)
      .where('status', 'in', [1, 2])
      .where('user_id', 'is not', null);
    if (row.audience === 4) q = q.where('group_id' as never, '=', row.groupId as never);
    const ids = (await q.execute()).map((r) => Number(r.user_id));
    return { after: tell(ids, `志愿者公告：${String(row.title)}`, user.id) };
  });

  async function adultOf(trx: Db, id: unknown) {
    return trx.selectFrom('volunteer_adult').selectAll().where('id', '=', Number(id)).executeTakeFirst();
  }
  async function recruitTitle(trx: Db, id: unknown) {
    const r = await trx
      .selectFrom('volunteer_recruit')
      .select('title')
      .where('id', '=', Number(id))
      .executeTakeFirst();
    return r?.title ?? '';
  }

  records.registerEffect(`${recruitSign.name}.signResult`, async (trx, { row, user, input }) => {
    const vol = await adultOf(trx, row.volunteerId);
    const passed = typeof input.comment !== 'string';
    const title = await recruitTitle(trx, row.recruitId);
    const text = passed
      ? `您报名的“${title}”已录用，请按时到岗。`
      : `您报名的“${title}”未录用${typeof input.comment === 'string' ? `：${input.comment}` : ''}。`;
    return { after: tell([vol?.user_id == null ? null : Number(vol.user_id)], text, user.id) };
  });

  /**
   * One more no-show (a recruit's 缺席, or a session's 缺勤 by the volunteer's account); at the
   * NO_SHOW_LIMIT-th the volunteer administrators are told, after the commit, to consider 停用.
   */
  async function noShow(
    trx: Db,
    who: { id: number } | { userId: number },
    time: number,
    actorId: number | null,
  ): Promise<(() => void) | undefined> {
    const v = await addNoShow(trx, who, time);
    if (!v || v.noShowCount !== NO_SHOW_LIMIT || ![1, 2].includes(v.status)) return undefined;
    const admins = await usersGranted(trx, adultVolunteer.access.write, ADMIN_ROLE);
    return () => {
      if (!admins.length) return;
      void notices
        .notify({
          receivers: admins,
          content: `志愿者 ${v.name}（${v.volunteerNo}）已缺席 ${v.noShowCount} 次，建议核实后考虑停用`,
          source: 'system',
          from: actorId,
          link: '/volunteer/adult-volunteer',
        })
        .catch(() => {});
    };
  }

  records.registerEffect(`${recruitSign.name}.noShow`, async (trx, { row, time, user }) => ({
    after: await noShow(trx, { id: Number(row.volunteerId) }, time, user.id),
  }));

  /**
   * 确认时长 on a sign-up (records-design §3.3: service records are the one source of hours):
   * the hours go on the sign-up and into a confirmed 志愿服务记录 (活动服务) of the volunteer's
   * account, so they count in totals, the annual check and 转正 like any confirmed record.
   */
  records.registerEffect(`${recruitSign.name}.approveHours`, async (trx, { row, input, user, time }) => {
    const r = await trx
      .selectFrom('volunteer_recruit')
      .select(['hours_per_person', 'title', 'location', 'activity_start'])
      .where('id', '=', Number(row.recruitId))
      .executeTakeFirst();
    const hours =
      typeof input.hours === 'string' && input.hours ? input.hours : String(r?.hours_per_person ?? '');
    if (!hours) throw invalid('该招募未设置计入时长，请填写服务时长');
    const problem = hoursProblem(hours);
    if (problem) throw invalid(`服务时长${problem}`);
    const vol = await adultOf(trx, row.volunteerId);
    if (vol?.user_id == null)
      throw invalid('该志愿者还没有登录账号，服务时长无法记入服务记录；请先为其开通账号后再确认时长');
    const minutes = Math.round(Number(hours) * 60);
    // The service began when the volunteer reported (到岗), else at the recruit's start; a span
    // that would run past midnight is drawn to end at 23:59, and one of a day or more (a camp of
    // several days) as the whole day: the minutes stay as confirmed, the times only show when.
    const began = (row.presentTime as number | null) ?? (r?.activity_start as number | null) ?? time;
    const day = museumDate(began);
    const at = formatMuseumMinute(began);
    const lastMinute = 24 * 60 - 1;
    const startMin =
      minutes >= lastMinute
        ? 0
        : Math.min(Number(at.slice(11, 13)) * 60 + Number(at.slice(14, 16)), lastMinute - minutes);
    const endMin = Math.min(startMin + minutes, lastMinute);
    const hhmm = (m: number) =>
      `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const recordId = await repo.insert(
      trx,
      serviceRecord,
      {
        volunteerId: Number(vol.user_id),
        volunteerKind: 1,
        serviceType: 3,
        serviceDate: day,
        startTime: hhmm(startMin),
        endTime: hhmm(endMin),
        serviceMinutes: minutes,
        content: `${String(r?.title ?? '')} 招募服务`.trim(),
        location: String(r?.location ?? ''),
        sourceTable: recruitSign.name,
        sourceId: row.id,
        status: SERVICE_CONFIRMED,
        confirmBy: user.id,
        confirmTime: time,
        rejectReason: '',
      },
      user.id,
      time,
    );
    await repo.logStatus(trx, {
      table: serviceRecord.table,
      recordId,
      action: 'create',
      from: null,
      to: SERVICE_CONFIRMED,
      operatorId: user.id,
      comment: '招募报名确认时长',
      time,
    });
    return { set: { hours } };
  });

  // A volunteer whose hours are on record stays on the roll (the hours are theirs to prove).
  records.registerDeleteGuard(adultVolunteer.name, async (trx, row) => {
    if (row.userId == null) return null;
    const n = await trx
      .selectFrom('volunteer_service_record')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('volunteer_id', '=', Number(row.userId))
      .where('volunteer_kind', '=', 1)
      .where('del_flag', '=', 0)
      .executeTakeFirst();
    const count = Number(n?.n ?? 0);
    return count
      ? `${String(row.name)} 已有 ${count} 条志愿服务记录，删除会丢失其服务时长，不能删除；不再服务请用“退出”或“停用”`
      : null;
  });

  return {
    /** Hashes a pass's initial password before the transition's transaction (it is slow). */
    async preparePass(input: object) {
      prepared.set(input, await preparePassword());
    },

    /** The seam service records plug into (hours confirmed since a day). */
    setHoursSource(fn: HoursSince) {
      hoursSince = fn;
    },

    /**
     * A volunteer signs up for a recruit (records-design §3.6): the recruit published and inside
     * its window, the volunteer in service (见习 or 正式), not signed up already; the place is
     * taken with the engine's one conditional UPDATE in the insert's transaction, so 20 sign-ups
     * at once for 5 places leave exactly 5. `volunteerId` is given by an administrator signing
     * someone up (代报名); a volunteer signs up as themself.
     */
    async signUp(user: SessionUser, body: { recruitId: number; volunteerId?: number }) {
      const t = now();
      return db.transaction().execute(async (trx) => {
        const rec = await trx
          .selectFrom('volunteer_recruit')
          .selectAll()
          .where('id', '=', body.recruitId)
          .where('del_flag', '=', 0)
          .executeTakeFirst();
        if (!rec) throw notFound('该招募不存在或已被删除，请刷新后重试');
        if (Number(rec.status) !== 1) throw invalid('该招募不在报名中');
        if (rec.signup_start !== null && t < Number(rec.signup_start))
          throw invalid(`报名尚未开始，${formatMuseumMinute(Number(rec.signup_start))} 开始报名`);
        if (rec.signup_end !== null && t > Number(rec.signup_end)) throw invalid('报名已截止');
        if (Number(rec.target_type) === 2) throw invalid('该招募仅面向学生志愿者');
        const vol =
          body.volunteerId !== undefined
            ? await adultOf(trx, body.volunteerId)
            : await trx
                .selectFrom('volunteer_adult')
                .selectAll()
                .where('user_id', '=', user.id)
                .where('del_flag', '=', 0)
                .executeTakeFirst();
        if (!vol || Number(vol.del_flag) !== 0)
          throw invalid(
            body.volunteerId !== undefined ? '该志愿者不存在' : '您还不是本馆志愿者，请先提交志愿者申请',
          );
        if (Number(vol.status) === 9) throw invalid('该志愿者已停用，不能报名');
        if (Number(vol.status) === 3) throw invalid('该志愿者已退出，不能报名');
        const dup = await trx
          .selectFrom('volunteer_recruit_sign')
          .select(['id', 'status'])
          .where('recruit_id', '=', Number(rec.id))
          .where('volunteer_id', '=', Number(vol.id))
          .where('del_flag', '=', 0)
          .executeTakeFirst();
        if (dup && Number(dup.status) !== SIGN_WITHDRAWN) throw invalid('已报名此招募，无需重复报名');
        if (!(await repo.reserve(trx, 'volunteer_recruit', Number(rec.id), 1)))
          throw invalid('名额已满，报名未成功');
        const status = Number(rec.need_review) === 1 ? 0 : 1;
        // A withdrawn sign-up (已取消, volunteer-me) gives way to the new one; its log stays.
        if (dup)
          await trx
            .updateTable('volunteer_recruit_sign')
            .set({ del_flag: 1, update_time: t, update_by: user.id })
            .where('id', '=', Number(dup.id))
            .execute();
        const id = await repo.insert(
          trx,
          recruitSign,
          {
            recruitId: rec.id,
            volunteerId: Number(vol.id),
            name: vol.name,
            phone: vol.phone,
            places: 1,
            signupTime: t,
            status,
          },
          user.id,
          t,
        );
        await repo.logStatus(trx, {
          table: recruitSign.table,
          recordId: id,
          action: 'create',
          from: null,
          to: status,
          operatorId: user.id,
          comment: body.volunteerId !== undefined ? '管理员代报名' : '',
          time: t,
        });
        return { id, status };
      });
    },

    /** A session's 缺勤 (volunteer-service's job) counted as a no-show of the account's volunteer. */
    absentFromSession: (trx: Db, userId: number, time: number) => noShow(trx, { userId }, time, null),

    /**
     * 撤回 (records-design §3.1): the applicant withdraws their own application while it is
     * 待审核 or 待面试. Only the account that submitted it may; a reviewer refuses or fails it
     * instead (with a reason the applicant is told).
     */
    async withdraw(user: SessionUser, id: number) {
      const t = now();
      await db.transaction().execute(async (trx) => {
        const row = await repo.find(trx, volunteerApplication, id);
        if (!row) throw notFound('该申请不存在或已删除，请刷新后重试');
        if (row.createBy !== user.id) throw forbidden('只有提交申请的本人可以撤回申请');
        const from = row.status as number;
        if (from === 4) throw invalid('该申请已撤回');
        if (![0, 1].includes(from)) throw invalid('该申请已有面试结果，不能撤回');
        if ((await repo.moveStatus(trx, volunteerApplication, id, [0, 1], { status: 4 }, user.id, t)) === 0)
          throw invalid(STALE_STATUS);
        await repo.logStatus(trx, {
          table: volunteerApplication.table,
          recordId: id,
          action: 'withdraw',
          from,
          to: 4,
          operatorId: user.id,
          comment: '申请人撤回',
          time: t,
        });
      });
    },

    /** Turns a recruit's 小程序展示 / 官网展示 on or off. */
    async toggle(id: number, column: 'show' | 'show_external', on: boolean, user: SessionUser) {
      const r = await db
        .updateTable('volunteer_recruit')
        .set({ [column]: on ? 1 : 0, update_time: now(), update_by: user.id })
        .where('id', '=', id)
        .where('del_flag', '=', 0)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) throw notFound('该招募不存在或已被删除，请刷新后重试');
    },

    /** The adult volunteer a sign-up is for (the recruit page's 停用). */
    async volunteerOfSign(signId: number): Promise<number> {
      const r = await db
        .selectFrom('volunteer_recruit_sign')
        .select('volunteer_id')
        .where('id', '=', signId)
        .where('del_flag', '=', 0)
        .executeTakeFirst();
      if (!r) throw notFound('该报名不存在或已被删除，请刷新后重试');
      return Number(r.volunteer_id);
    },
  };
}
export type VolunteerService = ReturnType<typeof createVolunteerService>;

/**
 * What the pass answers its administrator (and only them, once): the volunteer, the account and
 * `operatorNote`, the text the staff dialog shows (records' transition dialog shows any
 * `operatorNote` in a window that stays until closed).
 */
export interface PassAnswer {
  volunteerId: number;
  volunteerNo: string;
  account: IssuedAccount | null;
  operatorNote: string;
}

function operatorNote(number: string, a: IssuedAccount | null): string {
  if (!a) return `已建立志愿者档案，编号 ${number}。`;
  if (a.linked)
    return `已建立志愿者档案，编号 ${number}。该手机号已有账号 ${a.account}，已为其加上志愿者角色，志愿者用原密码登录即可。`;
  return `已建立志愿者档案，编号 ${number}，并开通登录账号。\n账号：${a.account}（也可用手机号登录）\n初始密码：${a.initialPassword}\n初始密码只显示这一次，已同时短信发送给志愿者；首次登录须修改密码。`;
}

/** The note of a replayed pass: the password was shown to the first answer only. */
function replayNote(number: string, a: IssuedAccount | null): string {
  if (!a?.initialPassword) return operatorNote(number, a);
  return `已建立志愿者档案，编号 ${number}，登录账号 ${a.account}。\n初始密码已在第一次提交时显示过，为安全起见不再显示（也已短信发送给志愿者）；如未记下，请到“人员管理”找到该账号，点“重置密码”设一个新的初始密码，首次登录须修改密码。`;
}

/** The SMS's account lines: how to sign in (the password only for a new account). */
function accountText(a: IssuedAccount | null): string {
  if (!a) return '';
  if (a.linked) return `请用您现有的账号 ${a.account} 登录，在“志愿者”页查看服务。`;
  return `登录账号 ${a.account}（或本手机号），初始密码 ${a.initialPassword}，首次登录须修改密码。`;
}
export { recruit };
