import { z } from 'zod';
import { DATE_RE, parseMuseumDate } from '../rules/museum-time';

/**
 * The dashboards (spec office.md §7 "Applet dashboards (GET)"; research/records-design.md §9;
 * README "Dashboards and the workbench"), under `/singleMuseum/applet/` beside the spec's other
 * applet call (`applet/bsSchedule`):
 *
 * - `culturarelic/pie?by=category|level|preservation`: the collection per 文物类别 (or level, or
 *   state of preservation), the 9 largest and 其他.
 * - `exhibition/ExhibitionLine`: exhibitions open per month for 12 months, 基本陈列 and 临时展览,
 *   with the museum's visitors per month (tickets are for the museum, not per exhibition).
 * - `socialEducational/activity`: social-education activities and participants per month.
 * - `volunteer/serviceCount` (the spec's "people and service counts"): volunteers in post, this
 *   year's confirmed service hours and the people they served.
 * - `exhibition/oAExhibitionList`: exhibitions on now and coming, with their dates.
 * - `tourRecord/tourLine?by=day|month&date=`: visitors per day (30 days) or month (12) by source.
 * - `tourRecord/pageList`, `tourRecord/save`, `tourRecord/delete` (ours): typed 观众记录.
 */

// The calls' base and who may read each, without zod for the workbench's cards: dashboard-grants.ts.
export { DASHBOARD_BASE, DASHBOARD_GRANTS } from './dashboard-grants';

const day = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => DATE_RE.test(v) && parseMuseumDate(v) !== null, `${what}格式应为 yyyy-MM-dd`);

const optionalDay = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (DATE_RE.test(v) && parseMuseumDate(v) !== null), `${what}格式应为 yyyy-MM-dd`)
    .transform((v) => (v === '' ? undefined : v))
    .optional();

export const RELIC_PIE_BY = ['category', 'level', 'preservation'] as const;
export const RelicPieQuery = z.object({
  by: z
    .enum(RELIC_PIE_BY, {
      error: () => '分组方式只能是 category（类别）、level（级别）或 preservation（保存状态）',
    })
    .optional(),
});
export const RelicPie = z.object({
  by: z.enum(RELIC_PIE_BY),
  /** All the collection's records counted. */
  total: z.number(),
  items: z.array(z.object({ label: z.string(), value: z.number() })),
});
export type RelicPie = z.infer<typeof RelicPie>;

export const ExhibitionLine = z.object({
  months: z.array(z.string()),
  permanent: z.array(z.number()),
  temporary: z.array(z.number()),
  /** The museum's visitors per month (观众记录). */
  visitors: z.array(z.number()),
});
export type ExhibitionLine = z.infer<typeof ExhibitionLine>;

const ExhibitionItem = z.object({
  id: z.number(),
  title: z.string(),
  exhType: z.number(),
  typeLabel: z.string(),
  startDate: z.string(),
  /** '' for a permanent exhibition. */
  endDate: z.string(),
});
export const OAExhibitionList = z.object({
  today: z.string(),
  current: z.array(ExhibitionItem),
  upcoming: z.array(ExhibitionItem),
});
export type OAExhibitionList = z.infer<typeof OAExhibitionList>;

export const ActivityLine = z.object({
  months: z.array(z.string()),
  activities: z.array(z.number()),
  participants: z.array(z.number()),
});
export type ActivityLine = z.infer<typeof ActivityLine>;

export const ServiceCount = z.object({
  year: z.number(),
  /** Adult volunteers 见习 and 正式, and student volunteers 在册. */
  trainee: z.number(),
  regular: z.number(),
  students: z.number(),
  /** Confirmed service this year, in minutes (the UI shows hours). */
  serviceMinutes: z.number(),
  /** People served this year (服务人数 of confirmed records). */
  served: z.number(),
  /** Confirmed service records this year. */
  records: z.number(),
});
export type ServiceCount = z.infer<typeof ServiceCount>;

export const TourLineQuery = z.object({
  by: z.enum(['day', 'month'], { error: () => '分组方式只能是 day（按日）或 month（按月）' }).optional(),
  /** The last day shown (default: today). */
  date: optionalDay('日期'),
});
const nums = z.array(z.number());
export const TourLine = z.object({
  by: z.enum(['day', 'month']),
  labels: z.array(z.string()),
  reserved: nums,
  team: nums,
  walkIn: nums,
  manual: nums,
  total: nums,
  minors: nums,
  teams: nums,
  /** Today's visitors so far (museum day). */
  today: z.number(),
  sum: z.object({ total: z.number(), minors: z.number(), teams: z.number() }),
});
export type TourLine = z.infer<typeof TourLine>;

/** The furthest back a person may type visitor numbers (a year's report) and the largest day. */
export const TOUR_BACKFILL_DAYS = 366;
export const TOUR_MAX_COUNT = 100_000;

const int = (label: string, min: number) =>
  z.coerce
    .number({ error: () => `${label}必须是数字` })
    .int(`${label}必须是整数`)
    .min(min, `${label}不能小于 ${min}`)
    .max(TOUR_MAX_COUNT, `${label}不能超过 ${TOUR_MAX_COUNT}`);

export const TourRecordSave = z
  .object({
    date: day('日期'),
    source: z.coerce
      .number({ error: () => '请选择来源' })
      .refine((v) => v === 3 || v === 4, '来源只能是 现场/闸机 或 手工补录（预约与团队入馆由核验自动记录）'),
    count: int('人数', 1),
    minorCount: int('未成年人数', 0).default(0),
    teamCount: int('团队数', 0).default(0),
    remark: z.string().trim().min(1, '请填写说明（如闸机编号、补录原因）').max(200, '说明最多 200 个字'),
  })
  .superRefine((v, ctx) => {
    if (v.minorCount > v.count)
      ctx.addIssue({ code: 'custom', path: ['minorCount'], message: '未成年人数不能多于人数' });
    if (v.teamCount > v.count)
      ctx.addIssue({ code: 'custom', path: ['teamCount'], message: '团队数不能多于人数' });
  });
export type TourRecordSave = z.input<typeof TourRecordSave>;

export const TourRecordListQuery = z.object({
  from: optionalDay('开始日期'),
  to: optionalDay('结束日期'),
  source: z.coerce.number().int().min(1).max(4).optional(),
  currentPage: z.coerce.number().int().min(1).default(1),
  pageCount: z.coerce.number().int().min(1).max(200).default(20),
});

export const TourRecordRow = z.object({
  id: z.number(),
  date: z.string(),
  source: z.number(),
  count: z.number(),
  minorCount: z.number(),
  teamCount: z.number(),
  remark: z.string(),
  createTime: z.number(),
  createBy: z.string(),
});
export type TourRecordRow = z.infer<typeof TourRecordRow>;
export const TourRecordList = z.object({ list: z.array(TourRecordRow), total: z.number() });
export type TourRecordList = z.infer<typeof TourRecordList>;

export const TourRecordId = z.object({ id: z.coerce.number().int().positive('编号不正确') });
