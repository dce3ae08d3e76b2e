import {
  CHECKIN_ABSENT,
  CHECKIN_CONFIRMED,
  CHECKIN_IN,
  CHECKIN_OUT,
  CHECKIN_WAITING,
  QUALIFICATION_ISSUED,
  SESSION_ASSIGNED,
  SESSION_CANCELLED,
  SESSION_OPEN,
  exhibitionSession,
  explainerQualification,
  sessionCheckIn,
  volunteerExhibition,
} from '../../../shared/records/volunteer/exhibition-service';
import {
  SERVICE_CONFIRMED,
  SERVICE_PENDING,
  SERVICE_TYPE_SESSION,
  serviceRecord,
} from '../../../shared/records/volunteer/service-hours';
import { adultVolunteer } from '../../../shared/records/volunteer/people';
import {
  settingsOf,
  volunteerServiceSetting,
  type ServiceSettings,
} from '../../../shared/records/volunteer/service-setting';
import { STALE_STATUS, type Row } from '../../../shared/records/define';
import {
  addDays,
  formatMuseumMinute,
  museumDate,
  parseMuseumDate,
  parseMuseumMinute,
} from '../../../shared/rules/museum-time';
import { claimedTime } from '../../../shared/rules/clock-offset';
import {
  LATE_SYNC_FLAG_MS,
  SHARED_DEVICE_FLAG_MS,
  SKEW_FLAG_MS,
  countedMinutes,
  hoursText,
  placeCheckIn,
  placeCheckOut,
  sessionWindow,
  timesOverlap,
} from '../../../shared/rules/volunteer-hours';
import type { Db } from '../../db/index';
import { AppError, forbidden, invalid, notFound } from '../../errors';
import * as repo from '../../records/records.repo';
import type { RecordService } from '../../records/records.service';
import type { Access } from '../auth/access';
import type { SessionUser } from '../auth/auth.service';
import type { NoticeService } from '../notice/notice.service';
import { createQrSigner } from './qr';
import { adultYearMinutes, yearStats } from './volunteer-service.repo';

/**
 * Volunteer service (README "Volunteer service and check-in"; research/records-design.md §3.3,
 * §3.7, §3.8, §10): what the records engine cannot say by itself.
 *
 * - Sessions generated from an exhibition's daily times (open weekdays, inside its dates).
 * - Explainers set only when qualified for the exhibition (an issued certificate) and not on
 *   an overlapping session the same day, at most the quota; their check-in rows follow.
 * - The hall's check-in code, signed with Ed25519 (qr.ts); revoked by bumping its version.
 * - Check-in and check-out: the server places the time (the phone's clock corrected by its
 *   measured offset, clamped to the session's window), computes the minutes in the configured
 *   unit, and answers a replay with what it answered first (the phone's client id, and one
 *   check-in per volunteer and session). A refusal says why in Chinese. Flags for review
 *   (clock skew, late sync, one device for two volunteers) never refuse.
 * - Hours: only confirmed service records count; totals are summed, never stored; the annual
 *   check lists who is below the minimum and changes nobody.
 */

const CHECKIN_TABLE = 'sessionCheckIn';
const SIGN_IN_GRANT = 'volunteer.signIn';
/** A printed code for a permanent exhibition is valid this long (it is revoked by version). */
const PERMANENT_DAYS = 3650;
/**
 * The staff tablet's rotating code (records-design §10): the same signed format as the printed
 * one, with a window of minutes instead of the exhibition's dates. A code shown at T is valid
 * from T − 30 s (the phone's offset is measured over a network, so its corrected clock may lag a
 * little) to T + 2 min; the tablet fetches a new one every 30 s, so a code on the screen always
 * has at least 90 s left when it is scanned. The window is judged against the check-in's placed
 * time (the phone's clock at the scan, corrected by its offset), never the time the server
 * receives it: a phone in a basement hall scans at 09:58 and syncs at 11:00, and its 09:58 is
 * what must fall inside the window. A photo of the screen sent to a friend stops working after
 * two minutes; a claimed time forged to match is flagged (clock skew or late sync) for review.
 */
export const ROTATING_VALID_MS = 120_000;
export const ROTATING_SLACK_MS = 30_000;
export const ROTATING_REFRESH_MS = 30_000;

export interface CheckInput {
  detailId: number;
  qrPayload?: string;
  deviceTime?: number;
  serverOffsetMs?: number;
  clientId?: string;
  deviceId?: string;
  /** An administrator checking someone in (代签) or correcting (补签). */
  volunteerId?: number;
  /** 补签: the corrected time, 'yyyy-MM-dd HH:mm' museum time. */
  time?: string;
  reason?: string;
}

export function createVolunteerService(deps: {
  db: Db;
  access: Access;
  records: RecordService;
  /** Tells volunteers: a session assigned or cancelled, hours confirmed (the notice centre). */
  notices?: Pick<NoticeService, 'notify'>;
  report?: (msg: string, err: unknown) => void;
  /**
   * A 缺勤 counted on the volunteer records' side (their 缺席次数, and the administrators told at
   * the limit): called in the marking transaction; what it answers runs after the commit.
   */
  onAbsent?: (trx: Db, volunteerId: number, time: number) => Promise<(() => void) | undefined>;
  now?: () => number;
}) {
  const { db, access, records } = deps;
  const now = deps.now ?? Date.now;
  const qr = createQrSigner(db, now);

  /**
   * A notice to volunteers, after the change is committed. A notice is a courtesy: when it
   * cannot be sent (an account disabled meanwhile) the change stands and the failure is logged.
   */
  function tell(receivers: number[], content: string, from: number | null) {
    if (!deps.notices || !receivers.length) return;
    deps.notices
      .notify({ receivers, content, source: 'system', from })
      .catch((err: unknown) => deps.report?.('volunteer notice not sent', err));
  }

  async function need(user: SessionUser, grant: string) {
    if (!(await access.can(user, grant))) throw forbidden();
  }

  async function settings(type = 1): Promise<ServiceSettings> {
    const rows = await repo.findAll(
      db,
      volunteerServiceSetting,
      [{ field: 'type', op: 'eq', value: type }],
      1,
    );
    return settingsOf(rows[0]);
  }

  async function nameOf(ids: readonly number[]): Promise<Map<number, string>> {
    const { users } = await repo.names(db, ids, []);
    return new Map(users.map((u) => [u.id, u.name]));
  }

  async function exhibitionOf(id: number): Promise<Row> {
    const ex = await repo.find(db, volunteerExhibition, id);
    if (!ex) throw notFound('该展览不存在或已删除，请刷新后重试');
    return ex;
  }

  async function sessionOf(id: number): Promise<Row> {
    const s = await repo.find(db, exhibitionSession, id);
    if (!s) throw notFound('该场次不存在或已删除，请刷新后重试');
    return s;
  }

  /** The exhibition's code as it is now (its current version, valid through its dates). */
  async function codeOf(
    ex: Row,
  ): Promise<{ payload: string; qrVersion: number; validFrom: number; validTo: number }> {
    const validFrom = parseMuseumDate(ex.startDate as string)!;
    const end = (ex.endDate as string) || addDays(ex.startDate as string, PERMANENT_DAYS);
    const validTo = parseMuseumDate(addDays(end, 1))! - 1;
    const qrVersion = ex.qrVersion as number;
    const payload = await qr.sign({
      exhibitionId: ex.id,
      hall: ex.hall as string,
      qrVersion,
      validFrom,
      validTo,
    });
    return { payload, qrVersion, validFrom, validTo };
  }

  /** Refuses a code that is not ours, not this exhibition's, revoked, or used outside its dates. */
  async function checkCode(payload: string | undefined, ex: Row, at: number) {
    if (!payload) throw invalid('请扫描展厅的签到码');
    const c = await qr.read(payload);
    if (!c) throw invalid('签到码无效（签名校验失败），请扫描展厅现场的签到码');
    if (c.exhibitionId !== ex.id)
      throw invalid(`这不是“${String(ex.name)}”的签到码，请扫描本场次展厅的签到码`);
    if (c.qrVersion !== ex.qrVersion)
      throw invalid('签到码已作废（展厅已更换新码），请扫描展厅现场的新签到码');
    if (at < c.validFrom || at > c.validTo) throw invalid('签到码不在有效期内，请扫描展厅现场的签到码');
  }

  /** The time the phone claims, corrected by its measured offset; the server's now without one. */
  function claimed(input: CheckInput): number {
    return claimedTime(input, now());
  }

  function flagsFor(input: CheckInput, corrected: number, received: number): string[] {
    const flags: string[] = [];
    if (Math.abs(input.serverOffsetMs ?? 0) > SKEW_FLAG_MS || corrected > received + 60_000)
      flags.push('手机时钟偏差超过 10 分钟');
    if (received - corrected > LATE_SYNC_FLAG_MS) flags.push('超过 24 小时后才同步');
    return flags;
  }

  /** Who is checking in, and how: the volunteer themself by the code, or an administrator (代签). */
  async function actor(user: SessionUser, input: CheckInput) {
    if (input.volunteerId !== undefined && input.volunteerId !== user.id) {
      if (!(await access.can(user, SIGN_IN_GRANT))) throw forbidden('只有志愿者管理员可以代签或补签');
      return { volunteerId: input.volunteerId, byAdmin: true };
    }
    return { volunteerId: user.id, byAdmin: false };
  }

  async function checkInRow(detailId: number, volunteerId: number): Promise<Row | undefined> {
    const rows = await repo.findAll(
      db,
      sessionCheckIn,
      [
        { field: 'detailId', op: 'eq', value: detailId },
        { field: 'volunteerId', op: 'eq', value: volunteerId },
      ],
      1,
    );
    return rows[0];
  }

  async function byClientId(column: 'client_in_id' | 'client_out_id', clientId: string | undefined) {
    if (!clientId) return undefined;
    const r = await db
      .selectFrom('volunteer_check_in')
      .select('id')
      .where(column, '=', clientId)
      .executeTakeFirst();
    return r ? repo.find(db, sessionCheckIn, Number(r.id)) : undefined;
  }

  function refuseSession(s: Row) {
    if (s.status === SESSION_CANCELLED)
      throw invalid(`该场次已取消${s.cancelReason ? `：${String(s.cancelReason)}` : ''}，签到未计入`);
  }

  /** Writes (or, for a 补签 of a pending one, rewrites) the service record of a checked-out row. */
  async function writeRecord(
    trx: Db,
    row: Row,
    s: Row,
    ex: Row,
    minutes: number,
    set: ServiceSettings,
    actorId: number,
  ) {
    const t = now();
    const existing = await trx
      .selectFrom('volunteer_service_record')
      .select(['id', 'status'])
      .where('source_table', '=', CHECKIN_TABLE)
      .where('source_id', '=', row.id)
      .executeTakeFirst();
    const inAt = row.checkInTime as number;
    const outAt = row.checkOutTime as number;
    const values = {
      volunteerId: row.volunteerId,
      volunteerKind: 1,
      serviceType: SERVICE_TYPE_SESSION,
      serviceDate: s.serviceDate,
      startTime: formatMuseumMinute(inAt).slice(11),
      endTime: formatMuseumMinute(outAt).slice(11),
      serviceMinutes: minutes,
      content: `${String(ex.name)} ${String(s.startTime)} 场次讲解`,
      location: ex.hall,
      sourceTable: CHECKIN_TABLE,
      sourceId: row.id,
    };
    if (existing) {
      if (Number(existing.status) !== SERVICE_PENDING) throw invalid('该时长已确认或已驳回，不能再补签');
      await repo.update(trx, serviceRecord, Number(existing.id), values, actorId, t);
      return;
    }
    const auto = set.autoConfirmHours;
    const id = await repo.insert(
      trx,
      serviceRecord,
      {
        ...values,
        status: auto ? SERVICE_CONFIRMED : SERVICE_PENDING,
        confirmTime: auto ? t : null,
        rejectReason: '',
      },
      actorId,
      t,
    );
    await repo.logStatus(trx, {
      table: serviceRecord.table,
      recordId: id,
      action: 'create',
      from: null,
      to: auto ? SERVICE_CONFIRMED : SERVICE_PENDING,
      operatorId: actorId,
      comment: auto ? '签退后自动确认' : '场次签退',
      time: t,
    });
    if (auto)
      await trx
        .updateTable('volunteer_check_in')
        .set({ status: CHECKIN_CONFIRMED })
        .where('id', '=', row.id)
        .execute();
  }

  /**
   * The adult roll's virtual filters (people.ts): 本年度服务时长 from–to in hours and 本年度未达标
   * (in service, 见习 or 正式, below the settings' annual minimum), from confirmed records only.
   */
  records.registerListFilter(adultVolunteer.name, async (query) => {
    const from = query.yearHoursFrom as number | undefined;
    const to = query.yearHoursTo as number | undefined;
    const below = query.belowMinimum as boolean | undefined;
    if (from === undefined && to === undefined && below === undefined) return [];
    const min = (await settings(1)).annualMinHours * 60;
    const rows = await adultYearMinutes(db, Number(museumDate(now()).slice(0, 4)));
    const ids = rows
      .filter(
        (r) =>
          (from === undefined || r.minutes >= from * 60) &&
          (to === undefined || r.minutes <= to * 60) &&
          (below === undefined || (below ? [1, 2].includes(r.status) && r.minutes < min : r.minutes >= min)),
      )
      .map((r) => r.id);
    return [{ field: 'id', op: 'in', value: ids }];
  });

  // Effects named by the definitions.
  records.registerEffect(`${serviceRecord.name}.confirmed`, async (trx, { row, user }) => {
    // A confirmed session record confirms its check-in too: hours are confirmed in one place.
    if (row.sourceTable === CHECKIN_TABLE && row.sourceId)
      await trx
        .updateTable('volunteer_check_in')
        .set({ status: CHECKIN_CONFIRMED })
        .where('id', '=', row.sourceId as number)
        .execute();
    const who = row.volunteerId as number | null;
    return {
      set: { confirmBy: user.id },
      after: () => {
        if (who)
          tell(
            [who],
            `你 ${String(row.serviceDate)} 的志愿服务（${String(row.content)}）${hoursText(row.serviceMinutes as number)} 小时已确认，计入服务总时长`,
            user.id,
          );
      },
    };
  });
  records.registerEffect(`${exhibitionSession.name}.cancelled`, async (_trx, { row, input, user }) => ({
    after: () =>
      tell(
        (row.explainerIds as number[]) ?? [],
        `你 ${String(row.serviceDate)} ${String(row.startTime)}–${String(row.endTime)} 的讲解场次已取消：${String(input.reason)}`,
        user.id,
      ),
  }));
  records.registerEffect(`${explainerQualification.name}.issueCert`, async (trx, { row, input, time }) => {
    const taken = await trx
      .selectFrom('volunteer_qualification')
      .select('id')
      .where('cert_no', '=', input.certNo as string)
      .where('id', '<>', row.id)
      .executeTakeFirst();
    if (taken) throw invalid(`证书编号 ${String(input.certNo)} 已被使用，请换一个编号`);
    return { set: { certNo: input.certNo, issueDate: museumDate(time) } };
  });

  return {
    qr,
    settings,

    /**
     * Sessions for each open weekday in [from, to] inside the exhibition's dates, one per daily
     * time, `explainMinutes` long; a slot that already has a session is left as it is.
     */
    async generate(
      user: SessionUser,
      q: { exhibitionId: number; from: string; to: string; type?: number; quota?: number },
    ) {
      await need(user, exhibitionSession.access.write);
      const ex = await exhibitionOf(q.exhibitionId);
      if (ex.status !== 1) throw invalid('该展览已停用，不能生成场次');
      if (q.to < q.from) throw invalid('结束日期不能早于开始日期');
      const from = q.from < (ex.startDate as string) ? (ex.startDate as string) : q.from;
      const to = ex.endDate && q.to > (ex.endDate as string) ? (ex.endDate as string) : q.to;
      if (to < from)
        throw invalid(
          `所选日期不在展览的展期内（${String(ex.startDate)} 至 ${String(ex.endDate || '长期')}）`,
        );
      const days: string[] = [];
      for (let d = from; d <= to; d = addDays(d, 1)) {
        days.push(d);
        if (days.length > 366) throw invalid('一次最多生成一年的场次，请缩短日期范围');
      }
      const set = await settings(1);
      const times = (ex.explainTimes as { time: string }[]).map((x) => x.time).sort();
      const minutes = ex.explainMinutes as number;
      const existing = await repo.findAll(
        db,
        exhibitionSession,
        [
          { field: 'exhibitionId', op: 'eq', value: ex.id },
          { field: 'serviceDate', op: 'gte', value: from },
          { field: 'serviceDate', op: 'lte', value: to },
        ],
        1_000_000,
      );
      const taken = new Set(existing.map((s) => `${String(s.serviceDate)} ${String(s.startTime)}`));
      const rows: Record<string, unknown>[] = [];
      let closed = 0;
      for (const day of days) {
        const weekday = ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
        if (!set.openWeekdays.includes(weekday)) {
          closed++;
          continue;
        }
        for (const start of times) {
          const endMin = Number(start.slice(0, 2)) * 60 + Number(start.slice(3)) + minutes;
          if (endMin > 24 * 60 - 1) continue;
          const end = `${String(Math.floor(endMin / 60)).padStart(2, '0')}:${String(endMin % 60).padStart(2, '0')}`;
          if (taken.has(`${day} ${start}`)) continue;
          rows.push({
            exhibitionId: ex.id,
            serviceDate: day,
            startTime: start,
            endTime: end,
            type: q.type ?? 1,
            quota: q.quota ?? 1,
            recruitOpen: false,
            explainerIds: [],
            status: SESSION_OPEN,
            cancelReason: '',
          });
        }
      }
      const t = now();
      await db.transaction().execute(async (trx) => {
        await repo.insertMany(trx, exhibitionSession, rows, user.id, t);
      });
      return {
        created: rows.length,
        skipped: days.length * times.length - rows.length - closed * times.length,
        closedDays: closed,
      };
    },

    /** 开放认领 on or off. */
    async showRecruit(user: SessionUser, q: { id: number; recruitOpen: boolean }) {
      await need(user, exhibitionSession.access.write);
      const s = await sessionOf(q.id);
      if (![SESSION_OPEN, SESSION_ASSIGNED].includes(s.status as number))
        throw invalid('该场次已完成或已取消，不能开放认领');
      await repo.update(db, exhibitionSession, s.id, { recruitOpen: q.recruitOpen }, user.id, now());
    },

    /**
     * Sets a session's explainers: each holds this exhibition's certificate (when it needs
     * one) and has no overlapping session that day; at most the quota. One who has checked in
     * cannot be taken off.
     */
    async setExplain(user: SessionUser, q: { id: number; explainerIds: number[] }) {
      await need(user, exhibitionSession.access.write);
      const ids = [...new Set(q.explainerIds)];
      const s = await sessionOf(q.id);
      if (![SESSION_OPEN, SESSION_ASSIGNED].includes(s.status as number))
        throw invalid('该场次已完成或已取消，不能安排讲解员');
      if (ids.length > (s.quota as number)) throw invalid(`讲解员不能超过需要人数 ${String(s.quota)} 人`);
      const ex = await exhibitionOf(s.exhibitionId as number);
      const names = await nameOf([...ids, ...((s.explainerIds as number[]) ?? [])]);
      const who = (id: number) => names.get(id) ?? `用户 ${id}`;
      for (const id of ids) if (!names.has(id)) throw invalid(`讲解员（编号 ${id}）不存在`);
      if (ex.needQualification) {
        const certs = await repo.findAll(db, explainerQualification, [
          { field: 'exhibitionId', op: 'eq', value: ex.id },
          { field: 'status', op: 'eq', value: QUALIFICATION_ISSUED },
        ]);
        const holders = new Set(certs.map((c) => c.volunteerId as number));
        const missing = ids.filter((id) => !holders.has(id));
        if (missing.length)
          throw invalid(`${missing.map(who).join('、')}尚未取得“${String(ex.name)}”的讲解证书，不能安排`);
      }
      const sameDay = await repo.findAll(db, exhibitionSession, [
        { field: 'serviceDate', op: 'eq', value: s.serviceDate },
        { field: 'status', op: 'in', value: [SESSION_OPEN, SESSION_ASSIGNED] },
      ]);
      for (const other of sameDay) {
        if (other.id === s.id || !timesOverlap(other as never, s as never)) continue;
        const clash = ids.find((id) => (other.explainerIds as number[]).includes(id));
        if (clash !== undefined)
          throw invalid(
            `${who(clash)}在 ${String(other.serviceDate)} ${String(other.startTime)}–${String(other.endTime)} 已有场次，时间重叠，不能重复安排`,
          );
      }
      const before = (s.explainerIds as number[]) ?? [];
      const removed = before.filter((id) => !ids.includes(id));
      const added = ids.filter((id) => !before.includes(id));
      const t = now();
      await db.transaction().execute(async (trx) => {
        if (removed.length) {
          const started = await trx
            .selectFrom('volunteer_check_in')
            .select('volunteer_id')
            .where('detail_id', '=', s.id)
            .where('volunteer_id', 'in', removed)
            .where('status', '<>', CHECKIN_WAITING)
            .executeTakeFirst();
          if (started) throw invalid(`${who(Number(started.volunteer_id))}已签到，不能移出本场次`);
          await trx
            .deleteFrom('volunteer_check_in')
            .where('detail_id', '=', s.id)
            .where('volunteer_id', 'in', removed)
            .execute();
        }
        if (added.length)
          await repo.insertMany(
            trx,
            sessionCheckIn,
            added.map((v) => ({
              detailId: s.id,
              volunteerId: v,
              role: 1,
              status: CHECKIN_WAITING,
              flags: '',
              remark: '',
            })),
            user.id,
            t,
          );
        const to = ids.length ? SESSION_ASSIGNED : SESSION_OPEN;
        const n = await repo.moveStatus(
          trx,
          exhibitionSession,
          s.id,
          [s.status as number],
          { explainerIds: ids, status: to },
          user.id,
          t,
        );
        if (!n) throw invalid(STALE_STATUS);
        if (to !== s.status)
          await repo.logStatus(trx, {
            table: exhibitionSession.table,
            recordId: s.id,
            action: 'setExplain',
            from: s.status as number,
            to,
            operatorId: user.id,
            comment: ids.map(who).join('、'),
            time: t,
          });
      });
      tell(
        added,
        `你已被安排在 ${String(s.serviceDate)} ${String(s.startTime)}–${String(s.endTime)}「${String(ex.name)}」（${String(ex.hall)}）的讲解场次，请按时到展厅扫码签到`,
        user.id,
      );
      return { explainerIds: ids };
    },

    /** The hall's current code and the public key a phone checks it with. */
    async code(user: SessionUser, q: { id: number }) {
      await need(user, volunteerExhibition.access.write);
      const ex = await exhibitionOf(q.id);
      return {
        ...(await codeOf(ex)),
        hall: ex.hall as string,
        name: ex.name as string,
        publicKey: await qr.publicKey(),
      };
    },

    /**
     * The tablet's rotating code (ROTATING_VALID_MS): this exhibition's version, valid for two
     * minutes from now and never outside the exhibition's dates.
     */
    async rotatingCode(user: SessionUser, q: { id: number }) {
      await need(user, volunteerExhibition.access.write);
      const ex = await exhibitionOf(q.id);
      const printed = await codeOf(ex);
      const t = now();
      const validFrom = Math.max(printed.validFrom, t - ROTATING_SLACK_MS);
      const validTo = Math.min(printed.validTo, t + ROTATING_VALID_MS);
      if (validFrom > validTo || t > printed.validTo)
        throw invalid(`“${String(ex.name)}”不在展期内（${String(ex.startDate)} 起），无法显示签到码`);
      const payload = await qr.sign({
        exhibitionId: ex.id,
        hall: ex.hall as string,
        qrVersion: printed.qrVersion,
        validFrom,
        validTo,
      });
      return {
        payload,
        qrVersion: printed.qrVersion,
        validFrom,
        validTo,
        hall: ex.hall as string,
        name: ex.name as string,
        publicKey: await qr.publicKey(),
        serverTime: t,
        refreshMs: ROTATING_REFRESH_MS,
      };
    },

    /**
     * The list pages' charts (README "Volunteer service and check-in"): a year's confirmed hours
     * by month and by service group, what is pending, session attendance by month (present:
     * checked in, out or confirmed; absent: 缺勤) and new adult volunteers by month (见习开始).
     * For the readers of service records or of the adult volunteers. Sums only, no names.
     */
    async stats(user: SessionUser, q: { year: number; volunteerKind?: number }) {
      if (
        !(await access.can(user, serviceRecord.access.read)) &&
        !(await access.can(user, 'volunteer.social.adultVolunteer'))
      )
        throw forbidden();
      const kind = q.volunteerKind ?? 1;
      return { year: q.year, volunteerKind: kind, ...(await yearStats(db, kind, q.year)) };
    },

    /** Revokes every printed code of the exhibition by bumping its version; answers the new one. */
    async revokeCode(user: SessionUser, q: { id: number }) {
      await need(user, volunteerExhibition.access.write);
      const ex = await exhibitionOf(q.id);
      await db
        .updateTable('volunteer_exhibition')
        .set((eb) => ({ qr_version: eb('qr_version', '+', 1), update_time: now(), update_by: user.id }))
        .where('id', '=', ex.id)
        .execute();
      return this.code(user, q);
    },

    /**
     * The volunteer's own session for the phone (README "Volunteer service and check-in"): the
     * session with its exhibition, hall and window, the caller's check-in row, the code's
     * public key and the server's clock (the phone measures its offset from it). Answered only
     * to someone on the session or a holder of 签到管理: it is the phone's view of one shift.
     */
    async mySession(user: SessionUser, q: { id: number }) {
      const s = await sessionOf(q.id);
      const row = await checkInRow(s.id, user.id);
      if (!row && !(await access.can(user, SIGN_IN_GRANT)))
        throw invalid('你未被安排在该场次，无法查看；如需参加请联系志愿者管理员');
      const ex = await exhibitionOf(s.exhibitionId as number);
      const set = await settings(1);
      return {
        session: {
          id: s.id,
          exhibitionId: ex.id,
          exhibitionName: String(ex.name),
          hall: String(ex.hall ?? ''),
          qrVersion: Number(ex.qrVersion),
          serviceDate: String(s.serviceDate),
          startTime: String(s.startTime),
          endTime: String(s.endTime),
          status: Number(s.status),
          cancelReason: String(s.cancelReason ?? ''),
          earlyMinutes: set.earlyMinutes,
          lateMinutes: set.lateMinutes,
        },
        checkIn: row
          ? {
              id: row.id,
              status: Number(row.status),
              checkInTime: (row.checkInTime as number | null) ?? null,
              checkOutTime: (row.checkOutTime as number | null) ?? null,
              serviceMinutes: Number(row.serviceMinutes ?? 0),
            }
          : null,
        publicKey: await qr.publicKey(),
        serverTime: now(),
      };
    },

    /** 签到 (check): idempotent on the phone's client id and on (volunteer, session). */
    async check(user: SessionUser, input: CheckInput) {
      const replay = await byClientId('client_in_id', input.clientId);
      if (replay) return { record: replay, replay: true };
      const { volunteerId, byAdmin } = await actor(user, input);
      const s = await sessionOf(input.detailId);
      refuseSession(s);
      const row = await checkInRow(s.id, volunteerId);
      if (!row) throw invalid('你未被安排在该场次，无法签到；如需参加请联系志愿者管理员');
      if (row.status !== CHECKIN_WAITING) return { record: row, replay: true };
      const received = now();
      const corrected = byAdmin && input.time ? parseMuseumMinute(input.time) : claimed(input);
      if (corrected === null) throw invalid('签到时间须为 yyyy-MM-dd HH:mm 格式');
      const ex = await exhibitionOf(s.exhibitionId as number);
      if (!byAdmin) await checkCode(input.qrPayload, ex, corrected);
      const set = await settings(1);
      const w = sessionWindow(s.serviceDate as string, s.startTime as string, s.endTime as string);
      const at = placeCheckIn(corrected, w, set);
      const flags = byAdmin ? [] : flagsFor(input, corrected, received);
      if (!byAdmin && input.deviceId) {
        const other = await db
          .selectFrom('volunteer_check_in')
          .select('id')
          .where('device_id', '=', input.deviceId)
          .where('volunteer_id', '<>', volunteerId)
          .where('check_in_time', '>=', at - SHARED_DEVICE_FLAG_MS)
          .where('check_in_time', '<=', at + SHARED_DEVICE_FLAG_MS)
          .executeTakeFirst();
        if (other) flags.push('同一手机 2 分钟内为两名志愿者签到');
      }
      const actorId = user.id;
      try {
        await db.transaction().execute(async (trx) => {
          const n = await trx
            .updateTable('volunteer_check_in')
            .set({
              status: CHECKIN_IN,
              check_in_time: at,
              device_in_time: typeof input.deviceTime === 'number' ? input.deviceTime : null,
              clock_skew_ms: Math.max(
                -2_147_483_648,
                Math.min(2_147_483_647, Math.round(input.serverOffsetMs ?? 0)),
              ),
              source: byAdmin ? (input.time ? 3 : 2) : 1,
              flags: flags.join('；'),
              remark: byAdmin ? (input.reason ?? '') : '',
              client_in_id: input.clientId ?? '',
              device_id: input.deviceId ?? '',
              update_time: received,
              update_by: actorId,
            })
            .where('id', '=', row.id)
            .where('status', '=', CHECKIN_WAITING)
            .executeTakeFirst();
          if (Number(n.numUpdatedRows))
            await repo.logStatus(trx, {
              table: sessionCheckIn.table,
              recordId: row.id,
              action: 'check',
              from: CHECKIN_WAITING,
              to: CHECKIN_IN,
              operatorId: actorId,
              comment: byAdmin ? `管理员代签${input.reason ? `：${input.reason}` : ''}` : flags.join('；'),
              time: received,
            });
        });
      } catch (e) {
        // The same client id sent twice at once: the other request stored it first.
        const again = await byClientId('client_in_id', input.clientId);
        if (again) return { record: again, replay: true };
        throw e;
      }
      const stored = (await repo.find(db, sessionCheckIn, row.id))!;
      return { record: stored, replay: false };
    },

    /**
     * 签退 (checkTime): the volunteer by the code, or an administrator's 补签 (with a reason) in
     * any state before the hours are confirmed. Writes the service record.
     */
    async checkTime(user: SessionUser, input: CheckInput) {
      const replay = await byClientId('client_out_id', input.clientId);
      if (replay) return { record: replay, replay: true };
      const { volunteerId, byAdmin } = await actor(user, input);
      if (byAdmin && !input.reason?.trim()) throw invalid('补签须填写原因');
      const s = await sessionOf(input.detailId);
      refuseSession(s);
      const row = await checkInRow(s.id, volunteerId);
      if (!row) throw invalid('你未被安排在该场次，无法签退');
      if (row.status === CHECKIN_CONFIRMED) {
        if (byAdmin) throw invalid('该时长已确认，不能再补签');
        return { record: row, replay: true };
      }
      if (!byAdmin && row.status === CHECKIN_OUT) return { record: row, replay: true };
      if (!byAdmin && row.status !== CHECKIN_IN) throw invalid('尚未签到，不能签退');
      const ex = await exhibitionOf(s.exhibitionId as number);
      const corrected = byAdmin && input.time ? parseMuseumMinute(input.time) : claimed(input);
      if (corrected === null) throw invalid('签退时间须为 yyyy-MM-dd HH:mm 格式');
      if (!byAdmin) await checkCode(input.qrPayload, ex, corrected);
      const set = await settings(1);
      const w = sessionWindow(s.serviceDate as string, s.startTime as string, s.endTime as string);
      // An administrator's 补签 of someone never checked in starts them at the session's start.
      const inAt = (row.checkInTime as number | null) ?? w.start;
      const outAt = placeCheckOut(corrected, inAt, w, set);
      const minutes = countedMinutes(inAt, outAt, set);
      const received = now();
      const flags = [String(row.flags ?? ''), ...(byAdmin ? [] : flagsFor(input, corrected, received))]
        .filter(Boolean)
        .join('；')
        .slice(0, 300);
      try {
        await db.transaction().execute(async (trx) => {
          const n = await trx
            .updateTable('volunteer_check_in')
            .set({
              status: CHECKIN_OUT,
              check_in_time: inAt,
              check_out_time: outAt,
              device_out_time: typeof input.deviceTime === 'number' ? input.deviceTime : null,
              service_minutes: minutes,
              flags,
              ...(byAdmin ? { source: 3, remark: input.reason!.trim().slice(0, 200) } : {}),
              client_out_id: input.clientId ?? '',
              update_time: received,
              update_by: user.id,
            })
            .where('id', '=', row.id)
            .where('status', '=', row.status as number)
            .executeTakeFirst();
          if (!Number(n.numUpdatedRows)) throw invalid(STALE_STATUS);
          await repo.logStatus(trx, {
            table: sessionCheckIn.table,
            recordId: row.id,
            action: byAdmin ? 'fixTime' : 'checkTime',
            from: row.status as number,
            to: CHECKIN_OUT,
            operatorId: user.id,
            comment: byAdmin ? `补签：${input.reason!.trim()}` : `服务 ${hoursText(minutes)} 小时`,
            time: received,
          });
          const out = (await repo.find(trx, sessionCheckIn, row.id))!;
          await writeRecord(trx, out, s, ex, minutes, set, user.id);
        });
      } catch (e) {
        const again = await byClientId('client_out_id', input.clientId);
        if (again) return { record: again, replay: true };
        throw e;
      }
      return { record: (await repo.find(db, sessionCheckIn, row.id))!, replay: false };
    },

    /**
     * 缺勤 (the nightly job, records-design §3.7): a volunteer still 待签到 once the session's end
     * plus `lateMinutes` has passed is marked absent, on sessions neither cancelled nor done.
     * Answers how many were marked. Run at start and hourly, and on demand by 签到管理.
     */
    async markAbsent(actorId: number | null = null): Promise<number> {
      const t = now();
      const today = museumDate(t);
      const set = await settings(1);
      const sessions = await repo.findAll(
        db,
        exhibitionSession,
        [
          { field: 'serviceDate', op: 'lte', value: today },
          { field: 'status', op: 'in', value: [SESSION_OPEN, SESSION_ASSIGNED] },
        ],
        1_000_000,
      );
      const over = sessions
        .filter((s) => {
          const w = sessionWindow(s.serviceDate as string, s.startTime as string, s.endTime as string);
          return w.end + set.lateMinutes * 60_000 < t;
        })
        .map((s) => s.id);
      let marked = 0;
      const afters: (() => void)[] = [];
      for (let i = 0; i < over.length; i += 500) {
        const ids = over.slice(i, i + 500);
        await db.transaction().execute(async (trx) => {
          const rows = await trx
            .selectFrom('volunteer_check_in')
            .select(['id', 'volunteer_id'])
            .where('detail_id', 'in', ids)
            .where('status', '=', CHECKIN_WAITING)
            .where('del_flag', '=', 0)
            .execute();
          if (!rows.length) return;
          const rowIds = rows.map((r) => Number(r.id));
          await trx
            .updateTable('volunteer_check_in')
            .set({ status: CHECKIN_ABSENT, update_time: t, update_by: actorId })
            .where('id', 'in', rowIds)
            .where('status', '=', CHECKIN_WAITING)
            .execute();
          await repo.logStatus(
            trx,
            ...rowIds.map((id) => ({
              table: sessionCheckIn.table,
              recordId: id,
              action: 'absent',
              from: CHECKIN_WAITING,
              to: CHECKIN_ABSENT,
              operatorId: actorId,
              comment: '场次结束后未签到',
              time: t,
            })),
          );
          for (const r of rows) {
            const after = await deps.onAbsent?.(trx, Number(r.volunteer_id), t);
            if (after) afters.push(after);
          }
          marked += rowIds.length;
        });
      }
      for (const after of afters) after();
      return marked;
    },

    async markAbsentNow(user: SessionUser) {
      await need(user, SIGN_IN_GRANT);
      return { marked: await this.markAbsent(user.id) };
    },

    /** Sessions of one day with their check-in counts (签到管理). */
    async dayCounts(user: SessionUser, q: { date: string }) {
      await need(user, SIGN_IN_GRANT);
      const sessions = await repo.findAll(db, exhibitionSession, [
        { field: 'serviceDate', op: 'eq', value: q.date },
      ]);
      const ids = sessions.map((s) => s.id);
      const counts = ids.length
        ? await db
            .selectFrom('volunteer_check_in')
            .select(['detail_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
            .where('detail_id', 'in', ids)
            .where('del_flag', '=', 0)
            .groupBy(['detail_id', 'status'])
            .execute()
        : [];
      const exIds = [...new Set(sessions.map((s) => s.exhibitionId as number))];
      const exs = exIds.length ? await repo.findAllIn(db, volunteerExhibition, 'id', exIds) : [];
      const exName = new Map(exs.map((e) => [e.id, e]));
      return {
        date: q.date,
        sessions: sessions.map((s) => {
          const by = (st: number) =>
            counts
              .filter((c) => Number(c.detail_id) === s.id && Number(c.status) === st)
              .reduce((a, c) => a + Number(c.n), 0);
          return {
            id: s.id,
            exhibitionName: String(exName.get(s.exhibitionId as number)?.name ?? ''),
            hall: String(exName.get(s.exhibitionId as number)?.hall ?? ''),
            startTime: s.startTime as string,
            endTime: s.endTime as string,
            quota: s.quota as number,
            status: s.status as number,
            assigned: ((s.explainerIds as number[]) ?? []).length,
            waiting: by(0),
            checkedIn: by(1),
            checkedOut: by(2),
            absent: by(3),
            confirmed: by(4),
          };
        }),
      };
    },

    /** Confirms many pending records at once; each goes through the engine's 确认 (logged, effects). */
    async batchConfirm(user: SessionUser, q: { ids: number[] }) {
      await need(user, serviceRecord.access.write);
      const skipped: { id: number; reason: string }[] = [];
      let confirmed = 0;
      for (const id of [...new Set(q.ids)]) {
        try {
          await records.transition(serviceRecord, 'confirm', user, { id });
          confirmed++;
        } catch (e) {
          if (e instanceof AppError) skipped.push({ id, reason: e.message });
          else throw e;
        }
      }
      return { confirmed, skipped };
    },

    /** A volunteer's confirmed minutes: all time and in a year (derived, never stored). */
    async totals(user: SessionUser, q: { volunteerId: number; year?: number }) {
      if (q.volunteerId !== user.id) await need(user, serviceRecord.access.read!);
      const year = q.year ?? Number(museumDate(now()).slice(0, 4));
      const sum = async (from?: string, to?: string, status = SERVICE_CONFIRMED) => {
        let b = db
          .selectFrom('volunteer_service_record')
          .select((eb) => eb.fn.sum<number>('service_minutes').as('m'))
          .where('volunteer_id', '=', q.volunteerId)
          .where('status', '=', status)
          .where('del_flag', '=', 0);
        if (from) b = b.where('service_date', '>=', from);
        if (to) b = b.where('service_date', '<=', to);
        return Number((await b.executeTakeFirst())?.m ?? 0);
      };
      return {
        volunteerId: q.volunteerId,
        year,
        totalMinutes: await sum(),
        yearMinutes: await sum(`${year}-01-01`, `${year}-12-31`),
        pendingMinutes: await sum(undefined, undefined, SERVICE_PENDING),
      };
    },

    /**
     * 年度考核: volunteers whose confirmed minutes in `year` are below the minimum. It lists; it
     * exits nobody (settled decision 5: an administrator decides, with a reason, elsewhere).
     * "Volunteers" are everyone with a service record, a session or a qualification of this
     * kind; the volunteer rosters (other records) can narrow it when they exist.
     */
    async annualCheck(user: SessionUser, q: { year: number; volunteerKind?: number }) {
      await need(user, serviceRecord.access.read!);
      const kind = q.volunteerKind ?? 1;
      const set = await settings(kind);
      const minMinutes = set.annualMinHours * 60;
      const people = new Set<number>();
      for (const r of await db
        .selectFrom('volunteer_service_record')
        .select('volunteer_id')
        .distinct()
        .where('volunteer_kind', '=', kind)
        .where('del_flag', '=', 0)
        .execute())
        if (r.volunteer_id !== null) people.add(Number(r.volunteer_id));
      if (kind === 1)
        for (const t of ['volunteer_check_in', 'volunteer_qualification'] as const)
          for (const r of await db
            .selectFrom(t)
            .select('volunteer_id')
            .distinct()
            .where('del_flag', '=', 0)
            .execute())
            if (r.volunteer_id !== null) people.add(Number(r.volunteer_id));
      const sums = await db
        .selectFrom('volunteer_service_record')
        .select(['volunteer_id', (eb) => eb.fn.sum<number>('service_minutes').as('m')])
        .where('status', '=', SERVICE_CONFIRMED)
        .where('volunteer_kind', '=', kind)
        .where('service_date', '>=', `${q.year}-01-01`)
        .where('service_date', '<=', `${q.year}-12-31`)
        .where('del_flag', '=', 0)
        .groupBy('volunteer_id')
        .execute();
      const minutes = new Map(sums.map((s) => [Number(s.volunteer_id), Number(s.m ?? 0)]));
      const names = await nameOf([...people]);
      const below = [...people]
        .map((id) => ({ volunteerId: id, name: names.get(id) ?? '', minutes: minutes.get(id) ?? 0 }))
        .filter((p) => p.minutes < minMinutes)
        .sort((a, b) => a.minutes - b.minutes || a.volunteerId - b.volunteerId);
      return { year: q.year, volunteerKind: kind, minMinutes, checked: people.size, below };
    },
  };
}

export type VolunteerService = ReturnType<typeof createVolunteerService>;
