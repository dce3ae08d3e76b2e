import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  CODE_DIGITS,
  CODE_MAX_ATTEMPTS,
  CODE_RESEND_MS,
  CODE_TTL_MS,
  CODES_PER_PHONE_PER_DAY,
  VISITOR_SESSION_MS,
  type PublicBookInput,
  type PublicCancelInput,
  type PublicDay,
  type PublicOrder,
  type PublicOrderDetail,
  type PublicSettings,
  type PublicSlot,
  type PublicTickets,
} from '../../../shared/api/reservation-public';
import { appointOrder, ORDER_STATES } from '../../../shared/records/reservation/orders';
import { appointSetting, type ReservationSettings } from '../../../shared/records/reservation/setting';
import { maskIdNumber } from '../../../shared/records/validators';
import {
  addDays,
  formatMuseumMinute,
  museumDate,
  parseMuseumMinute,
} from '../../../shared/rules/museum-time';
import type { Db } from '../../db/index';
import { invalid, notFound } from '../../errors';
import * as records from '../../records/records.repo';
import { giveBack } from './reservation.repo';
import { releaseMoment, weekdayOf, type ReservationService } from './reservation.service';

/**
 * The visitor's side of reservations (README "Visitor reservations" › "The visitor's side"):
 * the released tickets as a visitor sees them, one-time codes by phone, visitor sessions scoped
 * to that phone, booking through the desk's own rules (placeOrder), the visitor's bookings, and
 * their own cancel before `cancelDeadline`.
 *
 * Codes are 6 random digits kept as an HMAC with a server secret (a copy of the database alone
 * does not give them), good for 5 minutes and 5 tries; a tried code is counted by one
 * conditional UPDATE (`attempts < 5`), so parallel guesses cannot exceed the tries, and a right
 * code is consumed by a conditional DELETE, so it signs in once. Sessions are random tokens kept
 * as their SHA-256, like staff sessions, but in their own table: a visitor token never opens a
 * staff call.
 */

const NO_ORDER = '预约不存在';
const LIVE = [1, 6];

/** 138****1234: what logs and messages show of a phone. */
export const maskPhone = (p: string) => `${p.slice(0, 3)}****${p.slice(-4)}`;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

type Sms = (phone: string, text: string) => void;

export function createPublicReservationService(deps: {
  db: Db;
  reservations: ReservationService;
  /** The HMAC key of stored codes (storage secret `visitor-code`). */
  codeKey: Buffer;
  sms: Sms;
  now?: () => number;
}) {
  const { db, reservations, sms } = deps;
  const now = deps.now ?? Date.now;
  const codeHash = (phone: string, code: string) =>
    createHmac('sha256', deps.codeKey).update(`${phone}:${code}`).digest('hex');

  async function rawSetting(): Promise<Record<string, unknown> | undefined> {
    return (await records.findAll(db, appointSetting, [], 1))[0];
  }

  function publicSettings(s: ReservationSettings, row: Record<string, unknown> | undefined): PublicSettings {
    return {
      notice: typeof row?.notice === 'string' ? row.notice : '',
      advanceDays: s.advanceDays,
      releaseTime: s.releaseTime,
      openTime: s.openTime,
      lastEntryTime: s.lastEntryTime,
      sameDayCutoffMinutes: s.sameDayCutoffMinutes,
      maxPersonsPerOrder: s.maxPersonsPerOrder,
      maxMinorsPerOrder: s.maxMinorsPerOrder,
      minorAge: s.minorAge,
      onePerIdPerDay: s.onePerIdPerDay,
      cancelDeadline: s.cancelDeadline,
      cancelCountsAsNoShow: s.cancelCountsAsNoShow,
    };
  }

  /**
   * Why a visitor can no longer cancel an order now, or null when they can: only a booking that
   * stands (已预约), before the slot starts and before `cancelDeadline` on the visit day.
   */
  function cancelRefusal(
    s: ReservationSettings,
    o: { status: number; date: string; start_time: string },
    t: number,
  ): string | null {
    if (Number(o.status) !== 1)
      return `该预约${ORDER_STATES.find((x) => x.value === Number(o.status))?.label ?? ''}，不能取消`;
    if (t >= parseMuseumMinute(`${o.date} ${o.start_time}`)!) return '场次已开始，不能取消预约';
    if (t > parseMuseumMinute(`${o.date} ${s.cancelDeadline}`)!)
      return `已过取消截止时间（参观当日 ${s.cancelDeadline}），不能取消预约`;
    return null;
  }

  function orderOf(
    s: ReservationSettings,
    o: {
      id: number;
      order_no: string;
      date: string;
      start_time: string;
      end_time: string;
      visitor_count: number;
      status: number;
      channel: number;
      create_time: number;
      cancel_time: number | null;
    },
    t: number,
  ): PublicOrder {
    const refusal = cancelRefusal(s, o, t);
    return {
      id: o.id,
      orderNo: o.order_no,
      date: o.date,
      startTime: o.start_time,
      endTime: o.end_time,
      visitorCount: Number(o.visitor_count),
      status: Number(o.status),
      statusLabel: ORDER_STATES.find((x) => x.value === Number(o.status))?.label ?? '',
      channel: Number(o.channel),
      createTime: Number(o.create_time),
      cancelTime: o.cancel_time === null ? null : Number(o.cancel_time),
      canCancel: refusal === null,
      cancelNote:
        refusal === null
          ? `参观当日 ${s.cancelDeadline} 前且场次开始前可取消`
          : Number(o.status) === 1
            ? refusal
            : '',
    };
  }

  /** The phone's own order, or 预约不存在 (never another phone's: the same words as a missing id). */
  async function ownOrder(phone: string, id: number) {
    const o = await db
      .selectFrom('appoint_order')
      .selectAll()
      .where('id', '=', id)
      .where('contact_phone', '=', phone)
      .where('del_flag', '=', 0)
      .executeTakeFirst();
    if (!o) throw notFound(NO_ORDER);
    return o;
  }

  return {
    /**
     * Today and the next `advanceDays`, only what is released (day D from `releaseTime` on D −
     * advanceDays): each slot with its places left, or why it cannot be booked.
     */
    async tickets(): Promise<PublicTickets> {
      const s = await reservations.settings();
      const row = await rawSetting();
      const t = now();
      const today = museumDate(t);
      const last = addDays(today, s.advanceDays);
      const rows = await db
        .selectFrom('appoint_ticket')
        .select(['id', 'date', 'start_time', 'end_time', 'surplus_sum', 'is_open', 'close_reason'])
        .where('del_flag', '=', 0)
        .where('date', '>=', today)
        .where('date', '<=', last)
        .orderBy('date')
        .orderBy('start_time')
        .execute();
      const cutoff = parseMuseumMinute(`${today} ${s.lastEntryTime}`)! - s.sameDayCutoffMinutes * 60_000;
      const days = new Map<string, PublicDay>();
      let nextRelease: PublicTickets['nextRelease'] = null;
      for (let d = today; d <= last; d = addDays(d, 1)) {
        const at = releaseMoment(s, d);
        if (t < at) {
          nextRelease ??= { date: d, at: formatMuseumMinute(at) };
          continue;
        }
        days.set(d, { date: d, weekday: weekdayOf(d), slots: [] });
      }
      for (const r of rows) {
        const day = days.get(r.date);
        if (!day) continue;
        let state: PublicSlot['state'] = 'open';
        let note = '';
        if (!Number(r.is_open)) {
          state = 'closed';
          note = r.close_reason ? `已关闭：${r.close_reason}` : '已关闭';
        } else if (t > parseMuseumMinute(`${r.date} ${r.end_time}`)!) {
          state = 'over';
          note = '已结束';
        } else if (r.date === today && t > cutoff) {
          state = 'over';
          note = `今日预约已于 ${formatMuseumMinute(cutoff).slice(11)} 截止`;
        } else if (Number(r.surplus_sum) <= 0) {
          state = 'full';
          note = '已约满';
        }
        day.slots.push({
          id: r.id,
          startTime: r.start_time,
          endTime: r.end_time,
          surplusSum: Math.max(0, Number(r.surplus_sum)),
          state,
          note,
        });
      }
      // Days with no slot at all (closed days) are left out: nothing to choose there.
      return {
        settings: publicSettings(s, row),
        today,
        days: [...days.values()].filter((d) => d.slots.length),
        nextRelease,
      };
    },

    /**
     * Sends a one-time code: at most one per phone every 60 s (a conditional write decides, so
     * two requests at once send one code) and 10 a day; the per-address limit is the route's.
     */
    async sendCode(phone: string): Promise<{ resendSeconds: number; expiresInSeconds: number }> {
      const t = now();
      const today = museumDate(t);
      const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
      const hash = codeHash(phone, code);
      const prior = await db
        .selectFrom('appoint_visitor_code')
        .selectAll()
        .where('phone', '=', phone)
        .executeTakeFirst();
      if (prior) {
        const wait = Number(prior.sent_at) + CODE_RESEND_MS - t;
        if (wait > 0) throw invalid(`验证码已发送，请 ${Math.ceil(wait / 1000)} 秒后再重新获取`);
        const count = prior.day === today ? Number(prior.day_count) : 0;
        if (count >= CODES_PER_PHONE_PER_DAY)
          throw invalid(`该手机号今天获取验证码已达 ${CODES_PER_PHONE_PER_DAY} 次，请明天再试`);
        const moved = await db
          .updateTable('appoint_visitor_code')
          .set({
            code_hash: hash,
            expires_at: t + CODE_TTL_MS,
            attempts: 0,
            sent_at: t,
            day: today,
            day_count: count + 1,
          })
          .where('phone', '=', phone)
          .where('sent_at', '=', Number(prior.sent_at))
          .executeTakeFirst();
        if (!Number(moved.numUpdatedRows)) throw invalid('验证码已发送，请 60 秒后再重新获取');
      } else {
        const made = await db
          .insertInto('appoint_visitor_code')
          .values({
            phone,
            code_hash: hash,
            expires_at: t + CODE_TTL_MS,
            attempts: 0,
            sent_at: t,
            day: today,
            day_count: 1,
          })
          .onConflict((oc) => oc.column('phone').doNothing())
          .executeTakeFirst();
        if (!Number(made.numInsertedOrUpdatedRows ?? 0)) throw invalid('验证码已发送，请 60 秒后再重新获取');
      }
      sms(phone, `【参观预约】您的验证码是 ${code}，5 分钟内有效。如非本人操作请忽略。`);
      return { resendSeconds: CODE_RESEND_MS / 1000, expiresInSeconds: CODE_TTL_MS / 1000 };
    },

    /** Checks a code and opens a visitor session for that phone (the raw token is answered once). */
    async login(phone: string, code: string): Promise<{ token: string; phone: string; expiresAt: number }> {
      const t = now();
      const row = await db
        .selectFrom('appoint_visitor_code')
        .selectAll()
        .where('phone', '=', phone)
        .executeTakeFirst();
      if (!row || !row.code_hash) throw invalid('请先获取验证码');
      if (Number(row.expires_at) < t) throw invalid('验证码已过期，请重新获取');
      // One try counted per request, atomically: no more than 5 tries however many race.
      const tried = await db
        .updateTable('appoint_visitor_code')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('phone', '=', phone)
        .where('code_hash', '=', row.code_hash)
        .where('attempts', '<', CODE_MAX_ATTEMPTS)
        .executeTakeFirst();
      if (!Number(tried.numUpdatedRows)) throw invalid('验证码错误次数过多，请重新获取验证码');
      const given = Buffer.from(codeHash(phone, code), 'hex');
      const stored = Buffer.from(row.code_hash, 'hex');
      if (given.length !== stored.length || !timingSafeEqual(given, stored)) {
        const left = CODE_MAX_ATTEMPTS - Number(row.attempts) - 1;
        throw invalid(
          left > 0 ? `验证码不正确，还可以再试 ${left} 次` : '验证码错误次数过多，请重新获取验证码',
        );
      }
      // Consumed once: of two right answers at once, one signs in.
      const used = await db
        .updateTable('appoint_visitor_code')
        .set({ code_hash: '', expires_at: 0 })
        .where('phone', '=', phone)
        .where('code_hash', '=', row.code_hash)
        .executeTakeFirst();
      if (!Number(used.numUpdatedRows)) throw invalid('验证码已使用，请重新获取');
      const token = randomBytes(32).toString('base64url');
      await db.deleteFrom('appoint_visitor_session').where('expires_at', '<', t).execute();
      await db
        .insertInto('appoint_visitor_session')
        .values({ token_hash: sha256(token), phone, expires_at: t + VISITOR_SESSION_MS, create_time: t })
        .execute();
      return { token, phone: maskPhone(phone), expiresAt: t + VISITOR_SESSION_MS };
    },

    /** The phone a raw visitor token stands for, while it lasts. */
    async sessionOf(token: string | undefined): Promise<{ phone: string; expiresAt: number } | null> {
      if (!token || token.length > 200) return null;
      const row = await db
        .selectFrom('appoint_visitor_session')
        .select(['phone', 'expires_at'])
        .where('token_hash', '=', sha256(token))
        .executeTakeFirst();
      if (!row || Number(row.expires_at) <= now()) return null;
      return { phone: row.phone, expiresAt: Number(row.expires_at) };
    },

    async logout(token: string | undefined) {
      if (token)
        await db.deleteFrom('appoint_visitor_session').where('token_hash', '=', sha256(token)).execute();
    },

    /** A visitor's booking: the desk's rules (placeOrder), the session's phone as the contact. */
    async book(phone: string, body: PublicBookInput) {
      return reservations.placeOrder(null, {
        ticketId: body.ticketId,
        contactName: body.contactName,
        contactPhone: phone,
        channel: body.channel ?? 2,
        visitors: body.visitors,
      });
    },

    /** The session phone's bookings, newest first (the last 100). */
    async orders(phone: string): Promise<PublicOrder[]> {
      const s = await reservations.settings();
      const t = now();
      const rows = await db
        .selectFrom('appoint_order')
        .selectAll()
        .where('contact_phone', '=', phone)
        .where('del_flag', '=', 0)
        .orderBy('id', 'desc')
        .limit(100)
        .execute();
      return rows.map((o) => orderOf(s, o, t));
    },

    /** One of the phone's bookings with its entry code (only while it stands) and its visitors. */
    async order(phone: string, id: number): Promise<PublicOrderDetail> {
      const s = await reservations.settings();
      const o = await ownOrder(phone, id);
      const visitors = await db
        .selectFrom('appoint_order_visitor')
        .select(['name', 'id_type', 'id_number', 'check_status'])
        .where('order_id', '=', o.id)
        .where('del_flag', '=', 0)
        .orderBy('id')
        .execute();
      return {
        ...orderOf(s, o, now()),
        contactName: o.contact_name,
        contactPhone: maskPhone(o.contact_phone),
        verifyCode: LIVE.includes(Number(o.status)) ? o.verify_code : null,
        visitors: visitors.map((v) => ({
          name: v.name,
          idType: Number(v.id_type),
          idNumber: maskIdNumber(v.id_number),
          checkStatus: Number(v.check_status),
        })),
      };
    },

    /**
     * The visitor's own cancel: a standing booking of their phone, before the slot starts and
     * before `cancelDeadline` on the visit day. Places and IDs are given back in the same
     * transaction; with `cancelCountsAsNoShow` the visitors count as 失约 (and may be blocked).
     */
    async cancel(phone: string, body: PublicCancelInput) {
      const s = await reservations.settings();
      const t = now();
      const o = await ownOrder(phone, body.id);
      const refusal = cancelRefusal(s, o, t);
      if (refusal) throw invalid(refusal);
      const reason = body.reason?.trim() || '参观人自行取消';
      const people = await db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('appoint_order')
          .set({ status: 3, cancel_time: t, cancel_reason: reason, update_time: t })
          .where('id', '=', o.id)
          .where('status', '=', 1)
          .executeTakeFirst();
        if (!Number(moved.numUpdatedRows)) throw invalid('该预约状态已变化，请刷新后重试');
        await giveBack(trx, o.ticket_id, Number(o.visitor_count), false);
        const absent = await trx
          .selectFrom('appoint_order_visitor')
          .select(['name', 'id_type', 'id_number'])
          .where('order_id', '=', o.id)
          .where('check_status', '=', 0)
          .execute();
        await trx
          .updateTable('appoint_order_visitor')
          .set({ check_status: s.cancelCountsAsNoShow ? 2 : 3, day_key: null, update_time: t })
          .where('order_id', '=', o.id)
          .where('check_status', '=', 0)
          .execute();
        await records.logStatus(trx, {
          table: appointOrder.table,
          recordId: o.id,
          action: 'cancel',
          from: 1,
          to: 3,
          operatorId: null,
          comment: s.cancelCountsAsNoShow ? `${reason}（计为失约）` : reason,
          time: t,
        });
        return absent;
      });
      if (s.cancelCountsAsNoShow)
        for (const v of people)
          await reservations.blockIfOver(
            v.id_number,
            { name: v.name, idType: Number(v.id_type) },
            s,
            museumDate(t),
            t,
          );
      return { id: o.id, orderNo: o.order_no };
    },

    /** A visitor's booking answer by Idempotency-Key (phone, key): claimed first, then kept. */
    idempotency: {
      async claim(phone: string, key: string, fingerprint: string) {
        const made = await db
          .insertInto('appoint_visitor_request')
          .values({ phone, idem_key: key, fingerprint, response: null, created_at: now() })
          .onConflict((oc) => oc.columns(['phone', 'idem_key']).doNothing())
          .executeTakeFirst();
        if (Number(made.numInsertedOrUpdatedRows ?? 0)) return { claimed: true as const };
        const prior = await db
          .selectFrom('appoint_visitor_request')
          .selectAll()
          .where('phone', '=', phone)
          .where('idem_key', '=', key)
          .executeTakeFirst();
        return { claimed: false as const, prior };
      },
      async complete(phone: string, key: string, response: unknown) {
        await db
          .updateTable('appoint_visitor_request')
          .set({ response: JSON.stringify(response) })
          .where('phone', '=', phone)
          .where('idem_key', '=', key)
          .execute();
        // Kept a week, like the staff's keys.
        await db
          .deleteFrom('appoint_visitor_request')
          .where('created_at', '<', now() - 7 * 86_400_000)
          .execute();
      },
      async release(phone: string, key: string) {
        await db
          .deleteFrom('appoint_visitor_request')
          .where('phone', '=', phone)
          .where('idem_key', '=', key)
          .execute();
      },
    },
  };
}
export type PublicReservationService = ReturnType<typeof createPublicReservationService>;
