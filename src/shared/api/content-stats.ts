import { z } from 'zod';
import { CONTENT_RECORDS, bsRelation } from '../records/content/index';
import { DATE_RE, parseMuseumDate } from '../rules/museum-time';

/**
 * 访问统计 (`/website/tongji`, `/en-website/tongji`; README "View counts and 统计"): ours, the
 * spec names no calls. `GET /singleMuseum/bs/tongji/days`, `months`, `top`, `records`, each for
 * one site: `website` (the Chinese website and the mini-program: every content record that is
 * not English) or `enWebsite` (the English rows). Days and months are the museum's
 * (Asia/Shanghai): a visit at 23:59 museum time counts on that day, one at 00:00 on the next.
 */

export const TONGJI_SITES = ['website', 'enWebsite'] as const;
export type TongjiSite = (typeof TONGJI_SITES)[number];

/** Counted records: every content record but the relation rows. */
const COUNTED = CONTENT_RECORDS.filter((d) => d !== bsRelation);

/** The records a site's statistics cover, with their Chinese names, in the menu's order. */
export const TONGJI_RECORDS: Record<TongjiSite, readonly { record: string; title: string }[]> = {
  website: COUNTED.filter((d) => !d.name.startsWith('en')).map((d) => ({ record: d.name, title: d.title })),
  enWebsite: COUNTED.filter((d) => d.name.startsWith('en')).map((d) => ({ record: d.name, title: d.title })),
};

/** The grant (menu leaf) that opens a site's statistics. */
export const TONGJI_GRANT: Record<TongjiSite, string> = {
  website: 'website.tongji',
  enWebsite: 'enWebsite.tongji',
};

/** The default range: the last 30 museum days, today included. */
export const TONGJI_DEFAULT_DAYS = 30;
/** The longest range asked at once (a year and a day: a leap year whole). */
export const TONGJI_MAX_DAYS = 366;

const date = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (DATE_RE.test(v) && parseMuseumDate(v) !== null), `${what}格式应为 yyyy-MM-dd`)
    .transform((v) => (v === '' ? undefined : v))
    .optional();

const site = z.enum(TONGJI_SITES, {
  error: () => '网站只能是 website（官网与小程序）或 enWebsite（英文网站）',
});

/** A site and a range of museum days (both ends included; the last 30 days when left out). */
export const TongjiQuery = z.object({ site, from: date('开始日期'), to: date('结束日期') });
export type TongjiQuery = z.input<typeof TongjiQuery>;

export const TongjiTopQuery = TongjiQuery.extend({
  limit: z.coerce.number().int('数量必须是整数').min(1, '数量至少为 1').max(50, '数量最多为 50').optional(),
});

/** Views and plays per museum day of the range, oldest first (a day without visits is 0). */
export const TongjiDays = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(z.string()),
  views: z.array(z.number()),
  plays: z.array(z.number()),
});
export type TongjiDays = z.infer<typeof TongjiDays>;

/** Views and plays per museum month, the 12 months ending with the range's last, oldest first. */
export const TongjiMonths = z.object({
  months: z.array(z.string()),
  views: z.array(z.number()),
  plays: z.array(z.number()),
});
export type TongjiMonths = z.infer<typeof TongjiMonths>;

/** The rows viewed most in the range, most first (ties: the record's order, then the id). */
export const TongjiTop = z.object({
  items: z.array(
    z.object({
      record: z.string(),
      /** The record's Chinese name (展览, 英文资讯 …). */
      recordTitle: z.string(),
      id: z.number(),
      /** The row's title now; '' for a row without one (a carousel image). */
      title: z.string(),
      views: z.number(),
      plays: z.number(),
      /** The row was deleted since (its visits still count). */
      deleted: z.boolean(),
    }),
  ),
});
export type TongjiTop = z.infer<typeof TongjiTop>;

/** Views and plays per record in the range, every record of the site (0 when none), and the totals. */
export const TongjiRecords = z.object({
  records: z.array(
    z.object({
      record: z.string(),
      title: z.string(),
      views: z.number(),
      plays: z.number(),
      /** How many of its rows were visited in the range. */
      rows: z.number(),
    }),
  ),
  total: z.object({ views: z.number(), plays: z.number() }),
});
export type TongjiRecords = z.infer<typeof TongjiRecords>;
