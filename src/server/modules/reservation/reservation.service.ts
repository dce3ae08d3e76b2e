import { randomBytes, randomInt } from 'node:crypto';
import type {
  ApproveInput,
  BookInput,
  FinishInput,
  OpenOrCloseInput,
  SurplusInput,
  TeamSaveInput,
  VisitorInput,
} from '../../../shared/api/reservation';
import {
  appointBlackList,
  appointOrder,
  appointTeamOrder,
  appointTicket,
} from '../../../shared/records/reservation/orders';
import {
  appointSetting,
  appointSettingTimes,
  isOpenDay,
  reservationSettingsOf,
  type ReservationSettings,
} from '../../../shared/records/reservation/setting';
import {
  AGE_BANDS,
  PROVINCES,
  ageBandOf,
  type ReservationStat,
} from '../../../shared/records/reservation/stats';
import { idCardBirthDate, maskIdNumber } from '../../../shared/records/validators';
import { GATE_GRANT } from '../../../shared/api/reservation-gate';
import { claimedTime } from '../../../shared/rules/clock-offset';
import { admissionProblem } from '../../../shared/records/reservation/admission';
import {
  addDays,
  formatMuseumMinute,
  museumDate,
  parseMuseumMinute,
} from '../../../shared/rules/museum-time';
import type { ImportError as ImportRefusalRow } from '../../../shared/records/api';
import type { Db } from '../../db/index';
import { AppError, invalid, notFound } from '../../errors';
import * as repo from '../../records/records.repo';
import { giveBack, setSurplus, statRows, take } from './reservation.repo';
import { openExplainSession, releaseExplainSession } from './team-explain';
import { recordAdmission } from '../dashboard/tour-record';
import { fieldError, type RecordService } from '../../records/records.service';
import type { Access } from '../auth/access';
import type { SessionUser } from '../auth/auth.service';

/**
 * Visitor reservations' hand-written rules (README "Visitor reservations"; research/records-design.md
 * §7): ticket generation, booking with its guards, the gate's check-in, opening and closing, the
 * capacity edit, team orders with their places, and the no-show job feeding the black list. The
 * records (settings, templates, tickets, orders, visitors, teams, black list) are the engine's;
 * this module registers their transitions' effects.
 *
 * **Places are never oversold.** A ticket's free places are a counter in its row, taken by one
 * conditional UPDATE (`… SET surplus_sum = surplus_sum - n WHERE id = ? AND is_open = 1 AND
 * surplus_sum >= n`) inside the order's transaction: on PostgreSQL the row lock makes the second
 * of two racing bookings re-check the condition after the first commits; on SQLite the writes
 * are serialised. One booking per ID per day is a unique index (`day_key`), so racing bookings of
 * the same ID cannot both land either; the pre-check only gives the refusal its words.
 */

const GONE_TICKET = '该场次不存在或已删除，请刷新后重试';
/** Orders and visitors that still hold their places. */
const LIVE_ORDER = [1];
const LIVE_TEAM = [0, 1];

/** 1 Monday … 7 Sunday of a 'yyyy-MM-dd' day. */
export function weekdayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const w = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return w === 0 ? 7 : w;
}

/** Whole years between a birth date and a day, both 'yyyy-MM-dd'. */
export function ageOn(birth: string, day: string): number {
  const years = Number(day.slice(0, 4)) - Number(birth.slice(0, 4));
  return day.slice(5) < birth.slice(5) ? years - 1 : years;
}

/** The moment tickets of `date` are released: `advanceDays` before it, at `releaseTime`. */
export function releaseMoment(s: ReservationSettings, date: string): number {
  return parseMuseumMinute(`${addDays(date, -s.advanceDays)} ${s.releaseTime}`)!;
}

/** Whether an error is a unique index refusing a row (SQLite's or PostgreSQL's words). */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/.test(String(e?.message ?? ''));
}

/** 'P20261201' + 8 random digits: dated (records-design §7.4), unguessable enough to read aloud. */
function orderNo(prefix: 'P' | 'T', date: string): string {
  return `${prefix}${date.replaceAll('-', '')}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

type Sms = (phone: string, text: string) => void;

export function createReservationService(deps: {
  db: Db;
  access: Access;
  records: RecordService;
  sms: Sms;
  now?: () => number;
}) {
  const { db, access, records, sms } = deps;
  const now = deps.now ?? Date.now;

  async function settings(q: Db = db): Promise<ReservationSettings> {
    return reservationSettingsOf((await repo.findAll(q, appointSetting, [], 1))[0]);
  }

  async function ticketOf(q: Db, id: number) {
    const t = await q
      .selectFrom('appoint_ticket')
      .selectAll()
      .where('id', '=', id)
      .where('del_flag', '=', 0)
      .executeTakeFirst();
    if (!t) throw notFound(GONE_TICKET);
    return t;
  }

  /** Active black-list rows of these ID numbers on `day` (not released, not ended). */
  async function blocksOf(q: Db, idNumbers: readonly string[], day: string) {
    if (!idNumbers.length) return [];
    return q
      .selectFrom('appoint_black_list')
      .selectAll()
      .where('del_flag', '=', 0)
      .where('status', '=', 1)
      .where('id_number', 'in', [...idNumbers])
      .where('start_date', '<=', day)
      .where((eb) => eb.or([eb('end_date', '=', ''), eb('end_date', '>=', day)]))
      .execute();
  }

  /** The refusal for a listed person (records-design §7.6's words). */
  function blockedWords(who: string, b: { end_date: string; reason: number }): string {
    const until = b.end_date ? `至 ${b.end_date}` : '';
    return Number(b.reason) === 1
      ? `${who}因多次失约，预约资格已被限制${until}`
      : `${who}已被列入黑名单，预约资格已被限制${until}，如有疑问请联系本馆`;
  }

  /** Minor flags of visitors on their visit day (resident IDs only; other papers count as adults). */
  function minorsOf(s: ReservationSettings, visitors: readonly VisitorInput[], day: string) {
    return visitors.map((v) => {
      const birth = v.idType === 1 ? idCardBirthDate(v.idNumber) : null;
      const age = birth ? ageOn(birth, day) : null;
      return { minor: age !== null && age < s.minorAge, adult: age === null || age >= 18 };
    });
  }

  /** Same ID twice in one list of visitors: the refusal, or null. */
  function duplicateIn(visitors: readonly VisitorInput[]): string | null {
    const seen = new Map<string, number>();
    for (const [i, v] of visitors.entries()) {
      const k = `${v.idType}|${v.idNumber}`;
      if (seen.has(k)) return `第 ${i + 1} 位参观人与第 ${seen.get(k)! + 1} 位的证件号相同，请核对`;
      seen.set(k, i);
    }
    return null;
  }

  /**
   * A live visitor's one-per-day key (migration 0033): the main hall's keeps the form of 0031,
   * another venue's ends in its number, so one ID books each venue once a day.
   */
  const dayKey = (day: string, v: VisitorInput, venue: number) =>
    venue === 1 ? `${day}|${v.idType}|${v.idNumber}` : `${day}|${v.idType}|${v.idNumber}|${venue}`;

  /** Refuses visitors already booked that day (the unique index is the real guard). */
  async function refuseBookedToday(
    q: Db,
    s: ReservationSettings,
    visitors: readonly VisitorInput[],
    day: string,
    venue = 1,
  ) {
    // (An empty `in ()` is an error on PostgreSQL: a team may come without its name list yet.)
    if (!s.onePerIdPerDay || !visitors.length) return;
    const keys = visitors.map((v) => dayKey(day, v, venue));
    const taken = await q
      .selectFrom('appoint_order_visitor')
      .select(['name', 'id_number'])
      .where('day_key', 'in', keys)
      .executeTakeFirst();
    if (taken)
      throw invalid(
        `参观人“${taken.name}”（${maskIdNumber(taken.id_number)}）${day} 已有预约，同一证件每天只能预约一次`,
      );
  }

  async function insertVisitors(
    q: Db,
    s: ReservationSettings,
    owner: { orderId?: number; teamOrderId?: number },
    day: string,
    visitors: readonly VisitorInput[],
    actor: number | null,
    t: number,
    venue = 1,
  ) {
    if (!visitors.length) return;
    const flags = minorsOf(s, visitors, day);
    try {
      await q
        .insertInto('appoint_order_visitor')
        .values(
          visitors.map((v, i) => ({
            order_id: owner.orderId ?? null,
            team_order_id: owner.teamOrderId ?? null,
            date: day,
            name: v.name,
            id_type: v.idType,
            id_number: v.idNumber,
            is_minor: flags[i]!.minor ? 1 : 0,
            check_status: 0,
            day_key: s.onePerIdPerDay ? dayKey(day, v, venue) : null,
            venue,
            create_time: t,
            create_by: actor,
            update_time: t,
            update_by: actor,
          })),
        )
        .execute();
    } catch (err) {
      // Another booking of the same ID landed between the pre-check and this insert.
      if (isUniqueViolation(err)) throw invalid('参观人中有人当天已有预约，同一证件每天只能预约一次');
      throw err;
    }
  }

  /** The visitors of an order give their IDs back (cancelled, voided): the day is free again. */
  async function freeVisitors(q: Db, where: { orderId?: number; teamOrderId?: number }, t: number) {
    let u = q
      .updateTable('appoint_order_visitor')
      .set({ check_status: 3, day_key: null, update_time: t })
      .where('check_status', '=', 0);
    u = where.orderId
      ? u.where('order_id', '=', where.orderId)
      : u.where('team_order_id', '=', where.teamOrderId!);
    await u.execute();
  }

  // Effects the records' transitions name (shared/records/reservation/orders.ts).
  records.registerEffect(`${appointOrder.name}.releasePlaces`, async (trx, { row, time }) => {
    const end = parseMuseumMinute(`${String(row.date)} ${String(row.endTime)}`)!;
    if (time > end) throw invalid('该场次已结束，不能取消');
    await giveBack(trx, Number(row.ticketId), Number(row.visitorCount), false);
    await freeVisitors(trx, { orderId: row.id }, time);
  });
  records.registerEffect(`${appointTeamOrder.name}.releaseTeamPlaces`, async (trx, { row, input, time }) => {
    await giveBack(trx, Number(row.ticketId), Number(row.visitorCount), true);
    await freeVisitors(trx, { teamOrderId: row.id }, time);
    await releaseExplainSession(trx, row, input.reason ? '已取消' : '未通过审核', time);
    const why = String(input.comment ?? input.reason ?? '');
    return {
      after: () =>
        sms(
          String(row.leaderPhone),
          `【预约通知】您为“${String(row.teamName)}”提交的 ${String(row.date)} 团队预约${
            input.reason ? '已取消' : '未通过审核'
          }${why ? `：${why}` : ''}`,
        ),
    };
  });
  const tellLeader = (row: Record<string, unknown>, input: Record<string, unknown>) => ({
    after: () =>
      sms(
        String(row.leaderPhone),
        input.noticeContent
          ? `【入馆通知】${String(row.teamName)}：${String(input.noticeContent)}`
          : `【预约通知】您为“${String(row.teamName)}”提交的 ${String(row.date)} ${String(row.startTime)} 团队预约已通过审核，请携带介绍信、安全承诺书和人员名单按时入馆`,
      ),
  });
  records.registerEffect(`${appointTeamOrder.name}.tellLeader`, async (_trx, { row, input }) =>
    tellLeader(row, input),
  );
  // Approval also makes the explainer's session when the team asked for one (team-explain.ts).
  records.registerEffect(`${appointTeamOrder.name}.teamApproved`, async (trx, { row, input, user, time }) => {
    await openExplainSession(trx, row, user.id, time);
    return tellLeader(row, input);
  });
  records.registerEffect(`${appointTeamOrder.name}.teamArrived`, async (trx, { row, input, user, time }) => {
    if (String(row.date) !== museumDate(time))
      throw invalid(`该团队预约的参观日期是 ${String(row.date)}，只能在当天核销入馆`);
    await trx
      .updateTable('appoint_order_visitor')
      .set({ check_status: 1, check_time: time, update_time: time })
      .where('team_order_id', '=', row.id)
      .where('check_status', '=', 0)
      .execute();
    // 观众记录: the 实到人数, once (this transition moves 已通过 → 已入馆 once).
    const ticket = await trx
      .selectFrom('appoint_ticket')
      .select('venue')
      .where('id', '=', Number(row.ticketId))
      .executeTakeFirst();
    if (Number(ticket?.venue ?? 1) === 1) {
      const count = Number(input.actualCount ?? row.actualCount ?? row.visitorCount ?? 0);
      await recordAdmission(trx, {
        date: museumDate(time),
        source: 2,
        count,
        minors: Number(row.minorCount ?? 0),
        teams: 1,
        refTable: 'appoint_team_order',
        refId: Number(row.id),
        by: user.id,
        time,
      });
    }
  });

  const fullWords = (slot: string, left: number) =>
    left <= 0
      ? `${slot} 已约满，请选择其他场次`
      : `名额不足：${slot} 仅剩 ${left} 个名额，请减少人数或选择其他场次`;

  /**
   * An individual order (records-design §7.4): the ticket open, released and not past its
   * same-day cut-off; at most `maxPersonsPerOrder` visitors and `maxMinorsPerOrder` under
   * `minorAge`, who need an adult (18+) in the order; no ID twice in the order or twice in the
   * day; nobody on the black list; the phone's 30-day cap; then the places in one conditional
   * UPDATE, the order and its visitors in the same transaction.
   *
   * The booking itself, for whoever may book: staff at the desk (`book`) now, the public page's
   * visitor (identified by their phone; `actorId` null) later, so both keep the same guards.
   */
  async function placeOrder(actorId: number | null, body: BookInput) {
    const s = await settings();
    const t = now();
    const today = museumDate(t);
    const ticket = await ticketOf(db, body.ticketId);
    const day = ticket.date;
    const slot = `${day} ${ticket.start_time}–${ticket.end_time}`;
    if (!Number(ticket.is_open))
      throw invalid(`该场次已关闭${ticket.close_reason ? `：${ticket.close_reason}` : ''}，请选择其他场次`);
    if (day < today || t > parseMuseumMinute(`${day} ${ticket.end_time}`)!)
      throw invalid('该场次已结束，请选择其他场次');
    const release = releaseMoment(s, day);
    if (t < release) throw invalid(`${day} 的门票将于 ${formatMuseumMinute(release)} 开放预约`);
    if (day === today) {
      const cutoff = parseMuseumMinute(`${day} ${s.lastEntryTime}`)! - s.sameDayCutoffMinutes * 60_000;
      if (t > cutoff)
        throw invalid(`今日预约已于 ${formatMuseumMinute(cutoff).slice(11)} 截止，请预约其他日期`);
    }
    const visitors = body.visitors;
    if (visitors.length > s.maxPersonsPerOrder)
      throw fieldError([{ field: 'visitors', message: `每单最多预约 ${s.maxPersonsPerOrder} 人` }]);
    const dup = duplicateIn(visitors);
    if (dup) throw fieldError([{ field: 'visitors', message: dup }]);
    // A full slot is refused before the ID and black-list reads: in a holiday rush most
    // requests arrive after the last place is gone. The conditional UPDATE below still decides.
    if (Number(ticket.surplus_sum) < visitors.length)
      throw invalid(fullWords(slot, Number(ticket.surplus_sum)));
    const flags = minorsOf(s, visitors, day);
    const minors = flags.filter((x) => x.minor).length;
    if (minors > s.maxMinorsPerOrder)
      throw fieldError([
        { field: 'visitors', message: `每单最多 ${s.maxMinorsPerOrder} 名未满 ${s.minorAge} 周岁的参观人` },
      ]);
    if (minors && !flags.some((x) => x.adult))
      throw fieldError([
        {
          field: 'visitors',
          message: `未满 ${s.minorAge} 周岁的参观人须由成人陪同，请在同一预约中添加一位成人`,
        },
      ]);
    const blocks = await blocksOf(
      db,
      visitors.map((v) => v.idNumber),
      today,
    );
    if (blocks.length) {
      const v = visitors.find((x) => x.idNumber === blocks[0]!.id_number)!;
      throw invalid(blockedWords(`参观人“${v.name}”`, blocks[0]!));
    }
    if (s.accountMaxBookings30d > 0) {
      const n = await db
        .selectFrom('appoint_order')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('contact_phone', '=', body.contactPhone)
        .where('del_flag', '=', 0)
        .where('status', '<>', 5)
        .where('create_time', '>=', t - 30 * 86_400_000)
        .executeTakeFirstOrThrow();
      if (Number(n.n) >= s.accountMaxBookings30d)
        throw invalid(`该手机号 30 天内已预约 ${Number(n.n)} 次，已达上限 ${s.accountMaxBookings30d} 次`);
    }
    const venue = Number(ticket.venue ?? 1);
    await refuseBookedToday(db, s, visitors, day, venue);

    // The places are taken first: on PostgreSQL the conditional UPDATE locks the ticket's row
    // until commit, so every booking of the slot holds its locks in the same order (ticket,
    // then the visitors' day keys). Taking them last deadlocks two orders sharing an ID.
    const id = await db.transaction().execute(async (trx) => {
      if (!(await take(trx, ticket.id, visitors.length, false))) {
        const left = await ticketOf(trx, ticket.id);
        throw invalid(
          !Number(left.is_open) ? '该场次已关闭，请选择其他场次' : fullWords(slot, Number(left.surplus_sum)),
        );
      }
      const orderId = await repo.insert(
        trx,
        appointOrder,
        {
          orderNo: orderNo('P', day),
          ticketId: ticket.id,
          date: day,
          startTime: ticket.start_time,
          endTime: ticket.end_time,
          contactName: body.contactName,
          contactPhone: body.contactPhone,
          visitorCount: visitors.length,
          channel: body.channel ?? 3,
          status: 1,
          verifyCode: randomBytes(16).toString('base64url'),
          venue,
        },
        actorId,
        t,
      );
      await insertVisitors(trx, s, { orderId }, day, visitors, actorId, t, venue);
      await repo.logStatus(trx, {
        table: appointOrder.table,
        recordId: orderId,
        action: 'create',
        from: null,
        to: 1,
        operatorId: actorId,
        comment: '',
        time: t,
      });
      return orderId;
    });
    const order = await db
      .selectFrom('appoint_order')
      .select(['order_no', 'verify_code'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { id, orderNo: order.order_no, verifyCode: order.verify_code };
  }

  return {
    settings,
    /** The booking's rules, for the visitor's public calls (public.service.ts) too. */
    placeOrder,
    /** The no-show count's block, for a visitor's cancel counted as a no-show (public.service.ts). */
    blockIfOver,

    /**
     * Tickets for today and the next `advanceDays` (or `days`) from the enabled templates,
     * skipping closed weekdays and special closed days (a special open day opens a closed
     * weekday). An existing ticket is kept as it is: a template's change touches only days not
     * yet generated (records-design §7.2). Answers how many were made.
     */
    async generate(user: SessionUser | null, body: { days?: number } = {}) {
      if (user) await access.require(user, appointTicket.access.write);
      const s = await settings();
      const templates = await repo.findAll(db, appointSettingTimes, [], 10_000);
      const today = museumDate(now());
      const t = now();
      let made = 0;
      for (let i = 0; i <= (body.days ?? s.advanceDays); i++) {
        const day = addDays(today, i);
        const weekday = weekdayOf(day);
        if (!isOpenDay(s, day, weekday)) continue;
        for (const tpl of templates) {
          if (!tpl.enabled) continue;
          if (!String(tpl.weekdays).split(',').map(Number).includes(weekday)) continue;
          if (tpl.validFrom && day < String(tpl.validFrom)) continue;
          if (tpl.validTo && day > String(tpl.validTo)) continue;
          const team = Number(tpl.teamCapacity ?? 0);
          const total = Number(tpl.capacity);
          const r = await db
            .insertInto('appoint_ticket')
            .values({
              date: day,
              time_id: tpl.id,
              start_time: String(tpl.startTime),
              end_time: String(tpl.endTime),
              total_sum: total,
              surplus_sum: total - team,
              booked_sum: 0,
              team_total: team,
              team_surplus: team,
              team_booked: 0,
              is_open: 1,
              close_reason: '',
              venue: Number(tpl.venue ?? 1),
              create_time: t,
              create_by: user?.id ?? null,
              update_time: t,
              update_by: user?.id ?? null,
            })
            .onConflict((oc) => oc.columns(['date', 'time_id']).doNothing())
            .executeTakeFirst();
          made += Number(r.numInsertedOrUpdatedRows ?? 0);
        }
      }
      return { made };
    },

    /** An individual order taken by staff (grant 个人预约): `placeOrder`'s rules. */
    async book(user: SessionUser, body: BookInput) {
      await access.require(user, appointOrder.access.write);
      return placeOrder(user.id, body);
    },

    /**
     * Opens or closes a ticket (or every ticket of a day). Closing one that holds bookings needs
     * `force`: its orders become 已作废, its teams 已取消, their places and IDs are given back and
     * each contact is told by SMS (records-design §7.3).
     */
    async openOrClose(user: SessionUser, body: OpenOrCloseInput) {
      await access.require(user, appointTicket.access.write);
      if (body.id === undefined && !body.date) throw invalid('请选择场次或日期');
      if (!body.open && !body.reason) throw fieldError([{ field: 'reason', message: '请填写关闭原因' }]);
      const t = now();
      const told: { phone: string; text: string }[] = [];
      const answer = await db.transaction().execute(async (trx) => {
        let q = trx.selectFrom('appoint_ticket').selectAll().where('del_flag', '=', 0);
        q = body.id !== undefined ? q.where('id', '=', body.id) : q.where('date', '=', body.date!);
        const tickets = await q.execute();
        if (!tickets.length) throw notFound(body.id !== undefined ? GONE_TICKET : `${body.date} 没有场次`);
        const ids = tickets.map((x) => x.id);
        if (body.open) {
          await trx
            .updateTable('appoint_ticket')
            .set({ is_open: 1, close_reason: '', update_time: t, update_by: user.id })
            .where('id', 'in', ids)
            .execute();
          return { changed: ids.length, voided: 0 };
        }
        const orders = await trx
          .selectFrom('appoint_order')
          .selectAll()
          .where('ticket_id', 'in', ids)
          .where('del_flag', '=', 0)
          .where('status', 'in', LIVE_ORDER)
          .execute();
        const teams = await repo.findAllIn(trx, appointTeamOrder, 'ticketId', ids, [
          { field: 'status', op: 'in', value: LIVE_TEAM },
        ]);
        const persons =
          orders.reduce((a, o) => a + Number(o.visitor_count), 0) +
          teams.reduce((a, o) => a + Number(o.visitorCount), 0);
        if ((orders.length || teams.length) && !body.force)
          throw invalid(
            `该场次已有 ${orders.length + teams.length} 个有效预约（共 ${persons} 人）。确需关闭请选择“强制关闭”：这些预约将作废，名额退回，并短信通知预约人`,
          );
        await trx
          .updateTable('appoint_ticket')
          .set({ is_open: 0, close_reason: body.reason ?? '', update_time: t, update_by: user.id })
          .where('id', 'in', ids)
          .execute();
        for (const o of orders) {
          const moved = await trx
            .updateTable('appoint_order')
            .set({ status: 5, cancel_time: t, cancel_reason: `场次关闭：${body.reason}`, update_time: t })
            .where('id', '=', o.id)
            .where('status', 'in', LIVE_ORDER)
            .executeTakeFirst();
          if (!Number(moved.numUpdatedRows)) continue;
          await giveBack(trx, o.ticket_id, Number(o.visitor_count), false);
          await freeVisitors(trx, { orderId: o.id }, t);
          await repo.logStatus(trx, {
            table: appointOrder.table,
            recordId: o.id,
            action: 'void',
            from: Number(o.status),
            to: 5,
            operatorId: user.id,
            comment: `场次关闭：${body.reason}`,
            time: t,
          });
          told.push({
            phone: o.contact_phone,
            text: `【预约变更】很抱歉，您预约的 ${o.date} ${o.start_time} 场次因“${body.reason}”关闭，预约 ${o.order_no} 已作废，请改约其他场次`,
          });
        }
        for (const team of teams) {
          const moved = await repo.moveStatus(
            trx,
            appointTeamOrder,
            team.id,
            LIVE_TEAM,
            { status: 4, approveComment: `场次关闭：${body.reason}` },
            user.id,
            t,
          );
          if (!moved) continue;
          await giveBack(trx, Number(team.ticketId), Number(team.visitorCount), true);
          await freeVisitors(trx, { teamOrderId: team.id }, t);
          await repo.logStatus(trx, {
            table: appointTeamOrder.table,
            recordId: team.id,
            action: 'void',
            from: Number(team.status),
            to: 4,
            operatorId: user.id,
            comment: `场次关闭：${body.reason}`,
            time: t,
          });
          told.push({
            phone: String(team.leaderPhone),
            text: `【预约变更】很抱歉，“${String(team.teamName)}” ${String(team.date)} 的团队预约因场次关闭（${body.reason}）已取消，请联系本馆改约`,
          });
        }
        return { changed: ids.length, voided: orders.length + teams.length };
      });
      for (const m of told) sms(m.phone, m.text);
      return answer;
    },

    /**
     * 人数上限 (records-design §7.3): sets what individuals may still book; the total follows so
     * that it stays booked + team places + surplus. One UPDATE, so a booking landing at the same
     * moment is never lost. Logged in the status log (action updateSurplusSum, from → to as the
     * surplus before and after) with the reason.
     */
    async updateSurplusSum(user: SessionUser, body: SurplusInput) {
      await access.require(user, appointTicket.access.write);
      const t = now();
      await db.transaction().execute(async (trx) => {
        const before = await ticketOf(trx, body.id);
        await setSurplus(trx, body.id, body.surplusSum, user.id, t);
        await repo.logStatus(trx, {
          table: appointTicket.table,
          recordId: body.id,
          action: 'updateSurplusSum',
          from: Number(before.surplus_sum),
          to: body.surplusSum,
          operatorId: user.id,
          comment: body.reason,
          time: t,
        });
      });
      return ticketOf(db, body.id).then((x) => ({
        totalSum: Number(x.total_sum),
        surplusSum: Number(x.surplus_sum),
        bookedSum: Number(x.booked_sum),
      }));
    },

    /**
     * The gate (finishAppoint, records-design §7.4): by the order's entry code, or a visitor's
     * ID number (that person's order today), or the order's id (the gate tablet matched the
     * code on the device); all of the order's visitors, or `visitorIds`. Only on the visit day,
     * inside [start − tolerance, end + tolerance]; each visitor once (one conditional UPDATE
     * each, so two gates cannot admit the same person twice). A check-in made offline carries
     * the device's clock: the admission is placed at that moment (never later than now) and
     * the day and window are checked against it, so a tablet syncing after the slot keeps what
     * happened at the gate. Holders of 个人预约 or of the gate's grant (入馆核验).
     */
    async finishAppoint(user: SessionUser, body: FinishInput) {
      if (!(await access.can(user, GATE_GRANT))) await access.require(user, appointOrder.access.write);
      if (!body.verifyCode && !body.idNumber && !body.orderId) throw invalid('请扫描入馆码或输入证件号');
      const s = await settings();
      const received = now();
      const device = typeof body.deviceTime === 'number';
      // A clock ahead of ours (or an offset measured badly) never admits in the future.
      const t = Math.min(claimedTime(body, received), received);
      const day = museumDate(t);
      let order;
      if (body.orderId)
        order = await db
          .selectFrom('appoint_order')
          .selectAll()
          .where('id', '=', body.orderId)
          .where('del_flag', '=', 0)
          .executeTakeFirst();
      else if (body.verifyCode)
        order = await db
          .selectFrom('appoint_order')
          .selectAll()
          .where('verify_code', '=', body.verifyCode)
          .where('del_flag', '=', 0)
          .executeTakeFirst();
      else {
        const v = await db
          .selectFrom('appoint_order_visitor')
          .select('order_id')
          .where('id_number', '=', body.idNumber!.toUpperCase())
          .where('date', '=', day)
          .where('order_id', 'is not', null)
          .where('check_status', 'in', [0, 1])
          .orderBy('id', 'desc')
          .executeTakeFirst();
        order = v
          ? await db.selectFrom('appoint_order').selectAll().where('id', '=', v.order_id!).executeTakeFirst()
          : undefined;
      }
      if (!order)
        throw notFound(
          body.orderId
            ? '该预约不存在或已删除'
            : body.verifyCode
              ? '入馆码无效，未找到预约'
              : '该证件号今天没有预约',
        );
      const problem = admissionProblem(
        {
          date: order.date,
          startTime: order.start_time,
          endTime: order.end_time,
          status: Number(order.status),
          cancelReason: order.cancel_reason,
        },
        t,
        s.arrivalToleranceMinutes,
        device,
      );
      if (problem) throw invalid(problem);
      return db.transaction().execute(async (trx) => {
        const all = await trx
          .selectFrom('appoint_order_visitor')
          .selectAll()
          .where('order_id', '=', order.id)
          .where('del_flag', '=', 0)
          .execute();
        const wanted = body.visitorIds?.length
          ? all.filter((v) => body.visitorIds!.includes(v.id))
          : body.idNumber
            ? all.filter((v) => v.id_number === body.idNumber!.toUpperCase())
            : all;
        if (body.visitorIds?.length && wanted.length !== body.visitorIds.length)
          throw invalid('所选参观人不属于该预约，请刷新后重试');
        const admitted: number[] = [];
        for (const v of wanted) {
          const r = await trx
            .updateTable('appoint_order_visitor')
            .set({ check_status: 1, check_time: t, update_time: t, update_by: user.id })
            .where('id', '=', v.id)
            .where('check_status', '=', 0)
            .executeTakeFirst();
          if (Number(r.numUpdatedRows)) admitted.push(v.id);
        }
        // Those another gate admitted first (read again: they may have landed just now).
        const others = wanted.filter((v) => !admitted.includes(v.id));
        const already = others.length
          ? await trx
              .selectFrom('appoint_order_visitor')
              .select(['id', 'name', 'check_status', 'check_time'])
              .where(
                'id',
                'in',
                others.map((v) => v.id),
              )
              .execute()
          : [];
        if (!admitted.length) {
          const done = already.find((v) => Number(v.check_status) === 1 && v.check_time != null);
          throw invalid(
            done
              ? `已入馆（${formatMuseumMinute(Number(done.check_time)).slice(11)}），不能重复核销`
              : '没有可入馆的参观人',
          );
        }
        // 观众记录 (README "Dashboards"): in this transaction, so only those admitted now count.
        if (Number(order.venue ?? 1) === 1)
          await recordAdmission(trx, {
            date: day,
            source: Number(order.channel) === 3 ? 3 : 1,
            count: admitted.length,
            minors: wanted.filter((v) => admitted.includes(v.id) && Number(v.is_minor)).length,
            teams: 0,
            refTable: 'appoint_order',
            refId: order.id,
            by: user.id,
            time: t,
          });
        const left = await trx
          .selectFrom('appoint_order_visitor')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('order_id', '=', order.id)
          .where('check_status', '=', 0)
          .executeTakeFirstOrThrow();
        const to = Number(left.n) === 0 ? 2 : 6;
        if (to !== Number(order.status)) {
          await trx
            .updateTable('appoint_order')
            .set({ status: to, finish_time: t, update_time: t, update_by: user.id })
            .where('id', '=', order.id)
            .execute();
          await repo.logStatus(trx, {
            table: appointOrder.table,
            recordId: order.id,
            action: 'finishAppoint',
            from: Number(order.status),
            to,
            operatorId: user.id,
            comment:
              `入馆 ${admitted.length} 人` +
              (device && received - t > 60_000
                ? `（本机记录 ${formatMuseumMinute(t).slice(11)}，${formatMuseumMinute(received).slice(11)} 同步）`
                : ''),
            time: t,
          });
        }
        return {
          orderNo: order.order_no,
          admitted,
          status: to,
          already: already
            .filter((v) => Number(v.check_status) === 1)
            .map((v) => ({ id: v.id, name: String(v.name), checkTime: Number(v.check_time) })),
        };
      });
    },

    /**
     * A team (records-design §7.5), entered by the office (the leader's own form is the public
     * page's, later): the date at least `teamMinAdvanceDays` ahead and inside `advanceDays`;
     * `teamMin`–`teamMax` people; a minors' group at most `teamMinorMax` minors with one adult per
     * `teamAdultMinorRatio`; the leader not on the black list; the visitors' list, when given,
     * one row per person; places from the ticket's team places. Without `teamNeedsApproval` it
     * is 已通过 at once.
     */
    async saveTeam(user: SessionUser, body: TeamSaveInput) {
      await access.require(user, appointTeamOrder.access.write);
      const s = await settings();
      const t = now();
      const today = museumDate(t);
      const ticket = await ticketOf(db, body.ticketId as number);
      const day = ticket.date;
      const bad = (field: string, message: string) => fieldError([{ field, message }]);
      if (day < addDays(today, s.teamMinAdvanceDays))
        throw bad(
          'ticketId',
          `团队须至少提前 ${s.teamMinAdvanceDays} 天预约，最早可约 ${addDays(today, s.teamMinAdvanceDays)}`,
        );
      if (day > addDays(today, s.advanceDays))
        throw bad('ticketId', `最多可预约 ${s.advanceDays} 天内的场次`);
      if (!Number(ticket.is_open)) throw bad('ticketId', '该场次已关闭，请选择其他场次');
      const count = body.visitorCount as number;
      if (count < s.teamMin || count > s.teamMax)
        throw bad('visitorCount', `团队人数须在 ${s.teamMin}–${s.teamMax} 人之间`);
      const minors = Number(body.minorCount ?? 0);
      const adults = Number(body.adultCount ?? 0);
      if (minors > 0) {
        if (minors > s.teamMinorMax) throw bad('minorCount', `未成年人团队最多 ${s.teamMinorMax} 名未成年人`);
        const need = Math.ceil(minors / s.teamAdultMinorRatio);
        if (adults < need)
          throw bad(
            'adultCount',
            `${minors} 名未成年人至少需要 ${need} 名成人带队（每名成人最多带 ${s.teamAdultMinorRatio} 名）`,
          );
      }
      const visitors = body.visitors ?? [];
      if (visitors.length && visitors.length !== count)
        throw bad('visitors', `人员名单有 ${visitors.length} 人，与总人数 ${count} 不符`);
      const dup = duplicateIn(visitors);
      if (dup) throw bad('visitors', dup);
      const leaderId = String(body.leaderIdNumber).toUpperCase();
      const blocks = await blocksOf(db, [leaderId, ...visitors.map((v) => v.idNumber)], today);
      if (blocks.length) {
        const b = blocks[0]!;
        throw invalid(blockedWords(b.id_number === leaderId ? '领队' : `参观人“${b.name}”`, b));
      }
      await refuseBookedToday(db, s, visitors, day, Number(ticket.venue ?? 1));
      const ctx = await records.writeContext(appointTeamOrder, user);
      const values = {
        ...records.createValues(appointTeamOrder, user, body as Record<string, unknown>),
        leaderIdNumber: leaderId,
        orderNo: orderNo('T', day),
        date: day,
        startTime: ticket.start_time,
      };
      const status = s.teamNeedsApproval ? 0 : 1;
      const id = await db.transaction().execute(async (trx) => {
        if (!(await take(trx, ticket.id, count, true))) {
          const left = await ticketOf(trx, ticket.id);
          throw bad('visitorCount', `该场次团队名额仅剩 ${Number(left.team_surplus)} 个，请选择其他场次`);
        }
        const r = await records.saveMany(trx, appointTeamOrder, ctx, [{ values }]);
        if ('problems' in r) throw fieldError(r.problems[0]!);
        const teamId = r.ids[0]!;
        if (status === 1) {
          await repo.moveStatus(
            trx,
            appointTeamOrder,
            teamId,
            [0],
            { status: 1, approveTime: t },
            user.id,
            t,
          );
          await repo.logStatus(trx, {
            table: appointTeamOrder.table,
            recordId: teamId,
            action: 'approvePass',
            from: 0,
            to: 1,
            operatorId: user.id,
            comment: '团队预约无需审核',
            time: t,
          });
        }
        await insertVisitors(
          trx,
          s,
          { teamOrderId: teamId },
          day,
          visitors,
          user.id,
          t,
          Number(ticket.venue ?? 1),
        );
        if (status === 1) await openExplainSession(trx, { ...values, id: teamId }, user.id, t);
        return teamId;
      });
      return { id, orderNo: values.orderNo, status };
    },

    /**
     * Teams' name lists from an import (schemeId `appointTeamVisitors`, team-visitors.import.ts):
     * each team's list replaces the one it had, checked as the team's form checks it (the
     * number of people and of minors as declared, no ID twice, nobody listed on the black list
     * or booked elsewhere that day). Only a team 待审核 or 已通过 whose day has not passed. All
     * teams in one transaction: any refusal leaves every list as it was. A refusal is answered
     * against the team's first row of the file.
     */
    async importTeamVisitors(
      user: SessionUser,
      teams: { orderNo: string; firstRow: number; visitors: VisitorInput[] }[],
    ): Promise<{ imported: number; created: number; replaced: number } | { errors: ImportRefusalRow[] }> {
      await access.require(user, appointTeamOrder.access.write);
      const s = await settings();
      const t = now();
      const today = museumDate(t);
      const errors: ImportRefusalRow[] = [];
      const rows = await repo.findAllIn(
        db,
        appointTeamOrder,
        'orderNo',
        teams.map((x) => x.orderNo),
      );
      const byNo = new Map(rows.map((r) => [String(r.orderNo), r]));
      const ready: { team: (typeof rows)[number]; visitors: VisitorInput[] }[] = [];
      for (const x of teams) {
        const refuse = (message: string) => errors.push({ row: x.firstRow, column: '预约号', message });
        const team = byNo.get(x.orderNo);
        if (!team) {
          refuse(`团队预约号“${x.orderNo}”不存在，请核对`);
          continue;
        }
        const status = Number(team.status);
        if (status !== 0 && status !== 1) {
          const word = appointTeamOrder.fields.status!.options!.find((o) => o.value === status)?.label;
          refuse(`团队预约“${x.orderNo}”${word ?? '已结束'}，不能再导入人员名单`);
          continue;
        }
        if (String(team.date) < today) {
          refuse(`团队预约“${x.orderNo}”的参观日期 ${String(team.date)} 已过，不能再导入人员名单`);
          continue;
        }
        const count = Number(team.visitorCount);
        if (x.visitors.length !== count) {
          refuse(`团队“${String(team.teamName)}”的名单有 ${x.visitors.length} 人，与总人数 ${count} 不符`);
          continue;
        }
        const minors = minorsOf(s, x.visitors, String(team.date)).filter((f) => f.minor).length;
        if (minors !== Number(team.minorCount)) {
          refuse(
            `团队“${String(team.teamName)}”的名单中未满 ${s.minorAge} 周岁的有 ${minors} 人，与填报的未成年人数 ${Number(team.minorCount)} 不符`,
          );
          continue;
        }
        const dup = duplicateIn(x.visitors);
        if (dup) {
          refuse(`团队“${String(team.teamName)}”：${dup}`);
          continue;
        }
        const blocks = await blocksOf(
          db,
          x.visitors.map((v) => v.idNumber),
          today,
        );
        if (blocks.length) {
          refuse(blockedWords(`参观人“${blocks[0]!.name}”`, blocks[0]!));
          continue;
        }
        ready.push({ team, visitors: x.visitors });
      }
      if (errors.length) return { errors };
      let replaced = 0;
      try {
        await db.transaction().execute(async (trx) => {
          for (const { team, visitors } of ready) {
            // The old list goes (its day keys with it), so a corrected file can be imported again.
            const old = await trx
              .deleteFrom('appoint_order_visitor')
              .where('team_order_id', '=', team.id)
              .executeTakeFirst();
            if (Number(old.numDeletedRows)) replaced++;
            // The team's venue is its ticket's (one booking per ID per day and venue).
            const venue = Number((await ticketOf(trx, Number(team.ticketId))).venue ?? 1);
            await refuseBookedToday(trx, s, visitors, String(team.date), venue);
            await insertVisitors(
              trx,
              s,
              { teamOrderId: team.id },
              String(team.date),
              visitors,
              user.id,
              t,
              venue,
            );
          }
        });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return { errors: [{ row: 0, column: '', message: err.message }] };
      }
      return { imported: ready.length, created: ready.length - replaced, replaced };
    },

    /** A team's visitors (spec: visitorList), ID numbers masked, for readers of team orders. */
    async teamVisitors(user: SessionUser, id: number) {
      await records.detail(appointTeamOrder, user, id);
      const rows = await db
        .selectFrom('appoint_order_visitor')
        .select(['id', 'name', 'id_type', 'id_number', 'is_minor', 'check_status', 'check_time'])
        .where('team_order_id', '=', id)
        .where('del_flag', '=', 0)
        .orderBy('id', 'asc')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        idType: Number(r.id_type),
        idNumber: maskIdNumber(r.id_number),
        isMinor: Number(r.is_minor) === 1,
        checkStatus: Number(r.check_status),
        checkTime: r.check_time === null ? null : Number(r.check_time),
      }));
    },

    /**
     * dayStat … yearStat (records-design §7.4; README "Visitor reservations"): a day by slot, a
     * week (Monday to Sunday) or a month by day, a year by month. Counted in SQL by ticket, day
     * and status, then put in buckets here; for readers of 个人预约, 预约总览 or 预约看板.
     */
    async stat(
      user: SessionUser,
      kind: 'day' | 'week' | 'month' | 'year',
      q: { date?: string; month?: string; year?: number; venue?: number },
    ): Promise<ReservationStat> {
      // 预约看板 (order.panel) reads today's dayStat too (the staff screens, issue 21).
      if (
        !(await access.can(user, appointOrder.access.read!)) &&
        !(await access.can(user, 'order.view')) &&
        !(await access.can(user, 'order.panel'))
      )
        await access.require(user, appointOrder.access.read!);
      let from: string;
      let to: string;
      let labels: string[];
      if (kind === 'day') [from, to] = [q.date!, q.date!];
      else if (kind === 'week') {
        from = addDays(q.date!, 1 - weekdayOf(q.date!));
        to = addDays(from, 6);
      } else if (kind === 'month') {
        const [y, m] = q.month!.split('-').map(Number) as [number, number];
        from = `${q.month}-01`;
        const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
        to = addDays(next, -1);
      } else [from, to] = [`${q.year}-01-01`, `${q.year}-12-31`];
      const rows = await statRows(db, from, to, q.venue);
      // Buckets: a day's tickets, a range's days, a year's months.
      const bucket =
        kind === 'day'
          ? (r: { ticket_id?: number; id?: number }) => String(r.ticket_id ?? r.id)
          : kind === 'year'
            ? (r: { date: string }) => r.date.slice(0, 7)
            : (r: { date: string }) => r.date;
      let keys: string[];
      if (kind === 'day') {
        keys = rows.tickets.map((t) => String(t.id));
        labels = rows.tickets.map((t) => `${t.start_time}–${t.end_time}`);
      } else if (kind === 'year') {
        keys = Array.from({ length: 12 }, (_, i) => `${q.year}-${String(i + 1).padStart(2, '0')}`);
        labels = keys;
      } else {
        keys = [];
        for (let d = from; d <= to; d = addDays(d, 1)) keys.push(d);
        labels = keys;
      }
      const at = new Map(keys.map((k, i) => [k, i]));
      const zeros = () => keys.map(() => 0);
      const out: ReservationStat = {
        labels,
        capacity: zeros(),
        booked: zeros(),
        entered: zeros(),
        noShow: zeros(),
        cancelled: zeros(),
        teamPersons: zeros(),
        byProvince: [],
        byAgeBand: [],
        byGender: [],
      };
      const add = (series: number[], key: string, n: number) => {
        const i = at.get(key);
        if (i !== undefined) series[i]! += n;
      };
      for (const t of rows.tickets)
        if (Number(t.is_open)) add(out.capacity, bucket({ ...t, ticket_id: t.id }), Number(t.total_sum));
      for (const v of rows.visitors) {
        const key = bucket({ ticket_id: Number(v.ticket_id), date: v.date });
        const n = Number(v.n);
        const st = Number(v.check_status);
        if (st !== 3) add(out.booked, key, n);
        if (st === 1) add(out.entered, key, n);
        if (st === 2) add(out.noShow, key, n);
        if (st === 3) add(out.cancelled, key, n);
      }
      for (const t of rows.teams) {
        const key = bucket({ ticket_id: Number(t.ticket_id), date: String(t.date) });
        const st = Number(t.status);
        if ([1, 3, 5].includes(st)) add(out.teamPersons, key, Number(t.persons ?? 0));
        if (st === 3) add(out.entered, key, Number(t.arrived ?? 0));
        if (st === 5) add(out.noShow, key, Number(t.persons ?? 0));
      }
      out.byProvince = rows.provinces
        .map((r) => ({ code: r.k, name: PROVINCES[r.k] ?? '其他', count: Number(r.n) }))
        .sort((a, b) => b.count - a.count);
      const bands = new Map<string, number>(AGE_BANDS.map((b) => [b, 0]));
      for (const r of rows.births) {
        const band = ageBandOf(Number(r.k2) - Number(r.k));
        bands.set(band, bands.get(band)! + Number(r.n));
      }
      out.byAgeBand = [...bands].map(([band, count]) => ({ band, count }));
      const genders = { 男: 0, 女: 0 };
      for (const r of rows.genders) genders[Number(r.k) % 2 === 1 ? '男' : '女'] += Number(r.n);
      out.byGender = [
        { gender: '男', count: genders.男 },
        { gender: '女', count: genders.女 },
      ];
      return out;
    },

    /** The spec's one approve call with two outcomes, dispatched to the engine's transitions. */
    async approve(user: SessionUser, body: ApproveInput) {
      await access.require(user, appointTeamOrder.access.write);
      if (body.result === 2 && !body.comment)
        throw fieldError([{ field: 'comment', message: '请填写不通过原因' }]);
      if (body.result === 1) {
        // Approving refuses a leader put on the black list since the team was submitted.
        const row = await repo.find(db, appointTeamOrder, body.id);
        if (row) {
          const b = (await blocksOf(db, [String(row.leaderIdNumber)], museumDate(now())))[0];
          if (b) throw invalid(blockedWords('领队', b));
        }
      }
      await records.transition(appointTeamOrder, body.result === 1 ? 'approvePass' : 'approveReject', user, {
        id: body.id,
        comment: body.comment,
      });
    },

    /**
     * The no-show job (records-design §7.4, §7.6): after a slot's end plus the arrival
     * tolerance, visitors still 未入馆 become 失约 and their order 已失约 (部分入馆 stays); an
     * approved team that never came becomes 已失约. Then each person whose no-shows since their
     * last block (and inside `noShowWindowDays`, when set) reach `noShowLimit` is blocked for
     * `blockDays` (auto rows); blocks past their end date are lifted. Idempotent: run hourly by
     * one instance, and on demand (markNoShow).
     */
    async markNoShows(user: SessionUser | null) {
      if (user) await access.require(user, appointOrder.access.write);
      const s = await settings();
      const t = now();
      const today = museumDate(t);
      const tol = s.arrivalToleranceMinutes * 60_000;
      // Only orders that still have someone 未入馆 (a partial order's absent visitors, every
      // booked order), so the job does not re-read the past's finished orders every hour.
      const pending = await db
        .selectFrom('appoint_order_visitor')
        .select('order_id')
        .distinct()
        .where('check_status', '=', 0)
        .where('date', '<=', today)
        .where('order_id', 'is not', null)
        .where('del_flag', '=', 0)
        .execute();
      const ids = pending.map((p) => Number(p.order_id));
      const orders = ids.length
        ? await db
            .selectFrom('appoint_order')
            .selectAll()
            .where('id', 'in', ids)
            .where('del_flag', '=', 0)
            .where('status', 'in', [1, 6])
            .execute()
        : [];
      const over = orders.filter((o) => parseMuseumMinute(`${o.date} ${o.end_time}`)! + tol < t);
      const people = new Map<string, { name: string; idType: number }>();
      for (const o of over)
        await db.transaction().execute(async (trx) => {
          const absent = await trx
            .selectFrom('appoint_order_visitor')
            .selectAll()
            .where('order_id', '=', o.id)
            .where('check_status', '=', 0)
            .execute();
          await trx
            .updateTable('appoint_order_visitor')
            .set({ check_status: 2, update_time: t })
            .where('order_id', '=', o.id)
            .where('check_status', '=', 0)
            .execute();
          for (const v of absent) people.set(v.id_number, { name: v.name, idType: Number(v.id_type) });
          if (Number(o.status) === 1) {
            await trx
              .updateTable('appoint_order')
              .set({ status: 4, update_time: t })
              .where('id', '=', o.id)
              .where('status', '=', 1)
              .execute();
            await repo.logStatus(trx, {
              table: appointOrder.table,
              recordId: o.id,
              action: 'noShow',
              from: 1,
              to: 4,
              operatorId: null,
              comment: '场次结束未入馆',
              time: t,
            });
          }
        });
      const teams = await repo.findAll(db, appointTeamOrder, [
        { field: 'status', op: 'eq', value: 1 },
        { field: 'date', op: 'lte', value: today },
      ]);
      let teamNoShows = 0;
      for (const team of teams) {
        const end = parseMuseumMinute(`${String(team.date)} ${String(team.startTime)}`)!;
        const ticket = await ticketOf(db, Number(team.ticketId)).catch(() => null);
        const until = ticket ? parseMuseumMinute(`${ticket.date} ${ticket.end_time}`)! : end;
        if (until + tol >= t) continue;
        await db.transaction().execute(async (trx) => {
          if (!(await repo.moveStatus(trx, appointTeamOrder, team.id, [1], { status: 5 }, null, t))) return;
          await trx
            .updateTable('appoint_order_visitor')
            .set({ check_status: 2, update_time: t })
            .where('team_order_id', '=', team.id)
            .where('check_status', '=', 0)
            .execute();
          await repo.logStatus(trx, {
            table: appointTeamOrder.table,
            recordId: team.id,
            action: 'noShow',
            from: 1,
            to: 5,
            operatorId: null,
            comment: '场次结束未入馆',
            time: t,
          });
          // A team's no-show counts against its leader's ID (records-design §7.5).
          people.set(String(team.leaderIdNumber), {
            name: String(team.leaderName),
            idType: Number(team.leaderIdType ?? 1),
          });
          await trx
            .insertInto('appoint_order_visitor')
            .values({
              order_id: null,
              team_order_id: team.id,
              date: String(team.date),
              name: String(team.leaderName),
              id_type: Number(team.leaderIdType ?? 1),
              id_number: String(team.leaderIdNumber),
              is_minor: 0,
              check_status: 2,
              day_key: null,
              create_time: t,
              create_by: null,
              update_time: t,
              update_by: null,
            })
            .execute();
          teamNoShows++;
        });
      }
      let blocked = 0;
      for (const [idNumber, who] of people) blocked += await blockIfOver(idNumber, who, s, today, t);
      // Blocks past their end lift themselves (the refusal already ignores them; the list shows it).
      const ended = await db
        .selectFrom('appoint_black_list')
        .select(['id'])
        .where('del_flag', '=', 0)
        .where('status', '=', 1)
        .where('end_date', '<>', '')
        .where('end_date', '<', today)
        .execute();
      for (const b of ended)
        await db.transaction().execute(async (trx) => {
          if (
            !(await repo.moveStatus(
              trx,
              appointBlackList,
              b.id,
              [1],
              { status: 0, releaseReason: '到期自动解除' },
              null,
              t,
            ))
          )
            return;
          await repo.logStatus(trx, {
            table: appointBlackList.table,
            recordId: b.id,
            action: 'expire',
            from: 1,
            to: 0,
            operatorId: null,
            comment: '到期自动解除',
            time: t,
          });
        });
      return { orders: over.length, teams: teamNoShows, blocked, lifted: ended.length };
    },
  };

  /** Adds an auto block when a person's counted no-shows reach the limit; answers 1 or 0. */
  async function blockIfOver(
    idNumber: string,
    who: { name: string; idType: number },
    s: ReservationSettings,
    today: string,
    t: number,
  ): Promise<number> {
    const last = await db
      .selectFrom('appoint_black_list')
      .select(['start_date', 'status', 'end_date'])
      .where('id_number', '=', idNumber)
      .where('del_flag', '=', 0)
      .orderBy('start_date', 'desc')
      .executeTakeFirst();
    if (last && Number(last.status) === 1 && (!last.end_date || last.end_date >= today)) return 0;
    // No-shows count from the day after the last block began (a released or ended block
    // starts the count again), and inside the window when one is set.
    let since = last ? last.start_date : '0000-00-00';
    if (s.noShowWindowDays > 0) {
      const windowStart = addDays(today, -s.noShowWindowDays);
      if (windowStart > since) since = windowStart;
    }
    const n = await db
      .selectFrom('appoint_order_visitor')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id_number', '=', idNumber)
      .where('check_status', '=', 2)
      .where('del_flag', '=', 0)
      .where('date', last ? '>' : '>=', since)
      .executeTakeFirstOrThrow();
    const count = Number(n.n);
    if (count < s.noShowLimit) return 0;
    const endDate = addDays(today, s.blockDays - 1);
    await db.transaction().execute(async (trx) => {
      const id = await repo.insert(
        trx,
        appointBlackList,
        {
          name: who.name,
          idType: who.idType,
          idNumber,
          reason: 1,
          remark: `失约 ${count} 次，系统自动限制预约 ${s.blockDays} 天`,
          auto: true,
          noShowCount: count,
          startDate: today,
          endDate,
          status: 1,
        },
        null,
        t,
      );
      await repo.logStatus(trx, {
        table: appointBlackList.table,
        recordId: id,
        action: 'create',
        from: null,
        to: 1,
        operatorId: null,
        comment: `失约 ${count} 次`,
        time: t,
      });
    });
    return 1;
  }
}
export type ReservationService = ReturnType<typeof createReservationService>;
