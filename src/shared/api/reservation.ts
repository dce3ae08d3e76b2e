import { z } from 'zod';
import { deviceClockFields, Id } from './fields';
import type { DeviceClock } from '../rules/clock-offset';
import { f } from '../records/define';
import { appointTeamOrder, CHANNELS, VENUES } from '../records/reservation/orders';
import { isRealDate } from '../records/define';
import { createSchema } from '../records/schemas';
import { idCardProblem } from '../records/validators';
import { addRecordLabels } from './labels';

/**
 * Visitor reservations' own calls (README "Visitor reservations"), beside the records engine's,
 * under /singleMuseum:
 *
 * - AppointTicket/generate (ours): tickets for the next `advanceDays` from the templates;
 *   openOrClose and updateSurplusSum (spec).
 * - AppointOrder/book (ours): an individual order with its visitors, places taken in one
 *   conditional UPDATE; finishAppoint (spec): gate check-in by entry code or ID number;
 *   markNoShow (ours): the no-show job run now.
 * - appointTeamOrder/save (ours): a team with its places; approve (spec, result 1 or 2).
 */

/** One visitor of an order: a resident ID is checked (GB 11643); other papers by length. */
const VisitorSchema = z
  .object({
    name: f.text('姓名', { required: true, max: 30 }).schema,
    idType: f.status(
      '证件类型',
      [1, 2, 3, 4, 5, 6].map((value) => ({ value, label: String(value) })),
      {
        required: true,
      },
    ).schema,
    idNumber: z
      .string({ error: () => '请填写证件号' })
      .trim()
      .min(1, '请填写证件号')
      .max(30, '证件号不能超过 30 个字符')
      .transform((v) => v.toUpperCase()),
  })
  .superRefine((v, ctx) => {
    if (v.idType === 1) {
      const p = idCardProblem(v.idNumber);
      if (p) ctx.addIssue({ code: 'custom', path: ['idNumber'], message: `参观人“${v.name}”的证件号${p}` });
    } else if (!/^[A-Z0-9-]{5,30}$/.test(v.idNumber))
      ctx.addIssue({
        code: 'custom',
        path: ['idNumber'],
        message: `参观人“${v.name}”的证件号须为 5–30 位字母或数字`,
      });
  });
/** The record fields' schemas answer `unknown`; these are what the calls' bodies hold once read. */
export interface VisitorInput {
  name: string;
  idType: number;
  idNumber: string;
}

export const Visitors = (max: number) =>
  z
    .array(VisitorSchema as unknown as z.ZodType<VisitorInput>, { error: () => '请填写参观人' })
    .min(1, '请至少填写一位参观人')
    .max(max, `参观人最多 ${max} 位`);

export interface BookInput {
  ticketId: number;
  contactName: string;
  contactPhone: string;
  channel?: number;
  visitors: VisitorInput[];
}
export const BookBody = z.object({
  ticketId: Id,
  contactName: f.text('联系人', { required: true, max: 30 }).schema,
  contactPhone: z
    .string({ error: () => '请填写联系电话' })
    .trim()
    .regex(/^1[3-9]\d{9}$/, '联系电话须为 11 位手机号'),
  channel: f.status('渠道', CHANNELS).schema,
  visitors: Visitors(20),
}) as unknown as z.ZodType<BookInput>;

export const GenerateBody = z.object({
  days: z.coerce
    .number('生成天数必须是数字')
    .int('生成天数必须是整数')
    .min(1, '生成天数不能小于 1')
    .max(60, '生成天数不能大于 60')
    .optional(),
});

const Flag = (label: string) => f.bool(label).schema;

/** Open or close one ticket (`id`) or every ticket of a day (`date`). */
export interface OpenOrCloseInput {
  id?: number;
  date?: string;
  open: boolean;
  reason?: string;
  force?: boolean;
}
export const OpenOrCloseBody = z.object({
  id: Id.optional(),
  date: f.date('日期').schema,
  open: f.bool('开放', { required: true }).schema,
  reason: f.textarea('关闭原因', { max: 100 }).schema,
  force: Flag('强制关闭').optional(),
}) as unknown as z.ZodType<OpenOrCloseInput>;

export interface SurplusInput {
  id: number;
  surplusSum: number;
  reason: string;
}
export const SurplusBody = z.object({
  id: Id,
  surplusSum: z.coerce
    .number('个人剩余名额必须是数字')
    .int('个人剩余名额必须是整数')
    .min(0, '个人剩余名额不能小于 0')
    .max(99_999, '个人剩余名额不能大于 99999'),
  reason: f.textarea('调整原因', { required: true, max: 200 }).schema,
}) as unknown as z.ZodType<SurplusInput>;

/**
 * Gate check-in: an order's entry code, a visitor's ID number, or (the gate tablet, which
 * matched the code on the device: README 入馆核验) the order's id; all or some visitors. A
 * check-in made offline carries the device's clock (`DeviceClock`).
 */
export interface FinishInput extends DeviceClock {
  verifyCode?: string;
  idNumber?: string;
  orderId?: number;
  visitorIds?: number[];
}
export const FinishBody = z.object({
  verifyCode: f.text('入馆码', { max: 40 }).schema,
  idNumber: f.text('证件号', { max: 30 }).schema,
  orderId: Id.optional(),
  visitorIds: z
    .array(Id, { error: () => '参观人编号列表格式不正确' })
    .max(20)
    .optional(),
  ...deviceClockFields('设备'),
}) as unknown as z.ZodType<FinishInput>;
// The gate tablet's clock (the volunteer's phone names its own 手机时间).
addRecordLabels({ deviceTime: '设备时间', orderId: '预约单' });

/** A team's form (the record's own fields, read as the engine reads them) and its name list. */
export type TeamSaveInput = Record<string, unknown> & {
  ticketId: number;
  visitorCount: number;
  adultCount: number;
  minorCount: number;
  leaderIdNumber: string;
  visitors?: VisitorInput[];
};
export const TeamSaveBody = createSchema(appointTeamOrder).extend({
  visitors: Visitors(500).optional(),
}) as unknown as z.ZodType<TeamSaveInput>;

export interface ApproveInput {
  id: number;
  result: 1 | 2;
  comment?: string;
}
export const ApproveBody = z.object({
  id: Id,
  result: z.preprocess(
    (v) => (typeof v === 'string' ? Number(v) : v),
    z.union([z.literal(1), z.literal(2)], { error: () => '审核结果只能是 1（通过）或 2（不通过）' }),
  ),
  comment: f.textarea('审核意见', { max: 200 }).schema,
}) as unknown as z.ZodType<ApproveInput>;

const StatDay = z
  .string({ error: () => '请选择日期' })
  .refine(isRealDate, '日期须为有效日期，格式 yyyy-MM-dd（如 2026-12-01）');
/** Of one venue (1 主馆, 2 儿童体验馆; migration 0033), or of both when absent. */
const StatVenue = f.status('场馆', VENUES).schema as z.ZodType<number | undefined>;
/** dayStat and weekStat: a day (the week is Monday to Sunday around it). */
export const StatDayQuery = z.object({ date: StatDay, venue: StatVenue });
export const StatMonthQuery = z.object({
  venue: StatVenue,
  month: z
    .string({ error: () => '请选择月份' })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份须为 yyyy-MM 格式（如 2026-12）'),
});
export const StatYearQuery = z.object({
  venue: StatVenue,
  year: z.coerce
    .number('年份必须是数字')
    .int('年份必须是整数')
    .min(2000, '年份须在 2000–2100 之间')
    .max(2100, '年份须在 2000–2100 之间'),
});
