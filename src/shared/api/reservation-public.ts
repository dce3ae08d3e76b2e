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
export const PublicSettings = z.object({
  notice: z.string(),
  advanceDays: z.number(),
  releaseTime: z.string(),
  openTime: z.string(),
  lastEntryTime: z.string(),
  sameDayCutoffMinutes: z.number(),
  maxPersonsPerOrder: z.number(),
  maxMinorsPerOrder: z.number(),
  minorAge: z.number(),
  onePerIdPerDay: z.boolean(),
  cancelDeadline: z.string(),
  cancelCountsAsNoShow: z.boolean(),
});
export type PublicSettings = z.infer<typeof PublicSettings>;

/** A slot as the visitor sees it: bookable, full, closed (with its reason) or over. */
export const SlotState = z.enum(['open', 'full', 'closed', 'over']);
export type SlotState = z.infer<typeof SlotState>;
export const PublicSlot = z.object({
  id: z.number(),
  startTime: z.string(),
  endTime: z.string(),
  surplusSum: z.number(),
  state: SlotState,
  /** Why it cannot be booked, in words (已关闭：设备检修, 已约满, 今日预约已于 15:40 截止…). */
  note: z.string(),
});
export type PublicSlot = z.infer<typeof PublicSlot>;
export const PublicDay = z.object({
  date: z.string(),
  /** 1 Monday … 7 Sunday. */
  weekday: z.number(),
  slots: z.array(PublicSlot),
});
export type PublicDay = z.infer<typeof PublicDay>;
export const PublicTickets = z.object({
  settings: PublicSettings,
  today: z.string(),
  days: z.array(PublicDay),
  /** The next day whose tickets are not out yet, and when they are. */
  nextRelease: z.object({ date: z.string(), at: z.string() }).nullable(),
});
export type PublicTickets = z.infer<typeof PublicTickets>;

export const SendCodeAnswer = z.object({
  /** Seconds before another code may be asked for. */
  resendSeconds: z.number(),
  expiresInSeconds: z.number(),
});
export type SendCodeAnswer = z.infer<typeof SendCodeAnswer>;
export const VisitorSessionAnswer = z.object({
  /** For the mini-program (`Authorization: Bearer …`), only with wantToken; the page uses the cookie. */
  token: z.string().optional(),
  phone: z.string(),
  expiresAt: z.number(),
});
export type VisitorSessionAnswer = z.infer<typeof VisitorSessionAnswer>;

export const PublicBooked = z.object({ id: z.number(), orderNo: z.string(), verifyCode: z.string() });
export const PublicCancelled = z.object({ id: z.number(), orderNo: z.string() });

export const PublicOrder = z.object({
  id: z.number(),
  orderNo: z.string(),
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  visitorCount: z.number(),
  status: z.number(),
  statusLabel: z.string(),
  channel: z.number(),
  createTime: z.number(),
  cancelTime: z.number().nullable(),
  /** Whether the visitor may still cancel it now, and if not, why (in words). */
  canCancel: z.boolean(),
  cancelNote: z.string(),
});
export type PublicOrder = z.infer<typeof PublicOrder>;
export const PublicOrderDetail = PublicOrder.extend({
  contactName: z.string(),
  contactPhone: z.string(),
  /** The entry code the QR carries (only while the booking stands: 已预约 or 部分入馆). */
  verifyCode: z.string().nullable(),
  visitors: z.array(
    z.object({ name: z.string(), idType: z.number(), idNumber: z.string(), checkStatus: z.number() }),
  ),
});
export type PublicOrderDetail = z.infer<typeof PublicOrderDetail>;
