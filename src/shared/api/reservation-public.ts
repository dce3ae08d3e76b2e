import { z } from 'zod';
import { Id } from './fields';
import { Visitors, type VisitorInput } from './reservation';

/**
 * The visitor's side of reservations (README "Visitor reservations" › "The visitor's side"): a
 * public JSON API under /singleMuseum/appointPublic/*, with no staff session, for the product's
 * own phone page (/visit) and a future mini-program. A visitor proves a mobile number with a
 * one-time code and gets a short visitor session scoped to that number; bookings go through the
 * same rules as the desk's (placeOrder), with the verified number as the contact phone.
 */

export const PUBLIC_BASE = '/appointPublic';
/** The product's public booking page. */
export const VISIT_PATH = '/visit';

/** A one-time code: 6 digits, 5 minutes, 5 tries, a new one after 60 s, 10 a day per phone. */
export const CODE_DIGITS = 6;
export const CODE_TTL_MS = 5 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_RESEND_MS = 60_000;
export const CODES_PER_PHONE_PER_DAY = 10;
/** A visitor session lasts 2 hours from the code's check (not sliding). */
export const VISITOR_SESSION_MS = 2 * 3600_000;
/** The visitor session's cookie (HttpOnly, SameSite=Strict, path of these calls). */
export const VISITOR_COOKIE = 'visitor_token';

/** Per client address and minute (the flood guard's per-address limits, ARCHITECTURE §6). */
export const PUBLIC_READS_PER_MINUTE = 120;
export const SEND_CODE_PER_MINUTE = 5;
export const LOGIN_PER_MINUTE = 20;
export const PUBLIC_WRITES_PER_MINUTE = 30;

/** The answer's code when a call needs a visitor session (none, expired, or signed out). */
export const VISITOR_SESSION_CODE = 1020;
export const VISITOR_SESSION_MESSAGE = '请先用手机号验证码验证身份（验证有效期 2 小时）';

const Phone = z
  .string({ error: () => '请填写手机号' })
  .trim()
  .regex(/^1[3-9]\d{9}$/, '手机号须为 11 位中国大陆手机号（如 13812345678）');

export const SendCodeBody = z.object({ phone: Phone });
export type SendCodeInput = z.infer<typeof SendCodeBody>;

export const VisitorLoginBody = z.object({
  phone: Phone,
  smsCode: z
    .string({ error: () => '请填写验证码' })
    .trim()
    .regex(/^\d{6}$/, '验证码须为短信中的 6 位数字'),
  /** The mini-program asks for the token in the answer; the page keeps it in the HttpOnly cookie only. */
  wantToken: z.boolean({ error: () => '返回令牌只能是 true 或 false' }).optional(),
});
export type VisitorLoginInput = z.infer<typeof VisitorLoginBody>;

/** A visitor's booking: the contact phone is the session's; 1 小程序 or 2 官网 (现场 is the desk's). */
export interface PublicBookInput {
  ticketId: number;
  contactName: string;
  channel?: 1 | 2;
  visitors: VisitorInput[];
}
export const PublicBookBody = z.object({
  ticketId: Id,
  contactName: z
    .string({ error: () => '请填写联系人姓名' })
    .trim()
    .min(1, '请填写联系人姓名')
    .max(30, '联系人姓名不能超过 30 个字'),
  channel: z
    .preprocess(
      (v) => (typeof v === 'string' && v !== '' ? Number(v) : v === '' ? undefined : v),
      z.union([z.literal(1), z.literal(2)], { error: () => '预约渠道只能是 1（小程序）或 2（官网）' }),
    )
    .optional(),
  visitors: Visitors(20),
}) as unknown as z.ZodType<PublicBookInput>;

export const PublicCancelBody = z.object({
  id: Id,
  reason: z.string().trim().max(200, '取消原因不能超过 200 个字').optional(),
});
export type PublicCancelInput = z.infer<typeof PublicCancelBody>;

export const PublicIdQuery = z.object({ id: Id });

/** What the page needs of the settings (notice, limits, cancel deadline). */
export interface PublicSettings {
  notice: string;
  advanceDays: number;
  releaseTime: string;
  openTime: string;
  lastEntryTime: string;
  sameDayCutoffMinutes: number;
  maxPersonsPerOrder: number;
  maxMinorsPerOrder: number;
  minorAge: number;
  onePerIdPerDay: boolean;
  cancelDeadline: string;
  cancelCountsAsNoShow: boolean;
}

/** A slot as the visitor sees it: bookable, full, closed (with its reason) or over. */
export type SlotState = 'open' | 'full' | 'closed' | 'over';
export interface PublicSlot {
  id: number;
  startTime: string;
  endTime: string;
  surplusSum: number;
  state: SlotState;
  /** Why it cannot be booked, in words (该场次已关闭：设备检修, 今日预约已截止…). */
  note: string;
}
export interface PublicDay {
  date: string;
  /** 1 Monday … 7 Sunday. */
  weekday: number;
  slots: PublicSlot[];
}
export interface PublicTickets {
  settings: PublicSettings;
  today: string;
  days: PublicDay[];
  /** The next day whose tickets are not out yet, and when they are. */
  nextRelease: { date: string; at: string } | null;
}

export interface SendCodeAnswer {
  /** Seconds before another code may be asked for. */
  resendSeconds: number;
  expiresInSeconds: number;
}
export interface VisitorSessionAnswer {
  /** For the mini-program (`Authorization: Bearer …`); the page uses the HttpOnly cookie. */
  token?: string;
  phone: string;
  expiresAt: number;
}

export interface PublicOrder {
  id: number;
  orderNo: string;
  date: string;
  startTime: string;
  endTime: string;
  visitorCount: number;
  status: number;
  statusLabel: string;
  channel: number;
  createTime: number;
  cancelTime: number | null;
  /** Whether the visitor may still cancel it now, and if not, why (in words). */
  canCancel: boolean;
  cancelNote: string;
}
export interface PublicOrderDetail extends PublicOrder {
  contactName: string;
  contactPhone: string;
  /** The entry code the QR carries (only while the booking stands: 已预约 or 部分入馆). */
  verifyCode: string | null;
  visitors: { name: string; idType: number; idNumber: string; checkStatus: number }[];
}
