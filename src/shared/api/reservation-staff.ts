import { z } from 'zod';
import { f, isRealDate } from '../records/define';
// Links zod into the field builders, whose schemas this file reads (records/define.ts).
import '../records/schemas';
import { VENUES } from '../records/reservation/orders';

/**
 * The staff screens' own calls of visitor reservations (issue 21; README "Visitor
 * reservations"): 预约总览's export of a statistic (`GET AppointOrder/statExport`). Its period
 * is the one the matching stat call takes: a day (day, week), a month, or a year.
 */

export const STAT_KINDS = ['day', 'week', 'month', 'year'] as const;
export type StatKind = (typeof STAT_KINDS)[number];

export interface StatExportInput {
  kind: StatKind;
  date?: string;
  month?: string;
  year?: number;
  venue?: number;
}

export const StatExportQuery = z
  .object({
    kind: z.enum(STAT_KINDS, {
      error: () => '统计类型只能是 day（日）、week（周）、month（月）或 year（年）',
    }),
    date: z.string().optional(),
    month: z.string().optional(),
    year: z.coerce.number('年份必须是数字').int('年份必须是整数').optional(),
    venue: f.status('场馆', VENUES).schema,
  })
  .superRefine((q, ctx) => {
    const bad = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (q.kind === 'day' || q.kind === 'week') {
      if (!q.date) bad('date', '请选择日期');
      else if (!isRealDate(q.date)) bad('date', '日期须为有效日期，格式 yyyy-MM-dd（如 2026-12-01）');
    } else if (q.kind === 'month') {
      if (!q.month) bad('month', '请选择月份');
      else if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(q.month)) bad('month', '月份须为 yyyy-MM 格式（如 2026-12）');
    } else if (q.year === undefined) bad('year', '请选择年份');
    else if (q.year < 2000 || q.year > 2100) bad('year', '年份须在 2000–2100 之间');
  }) as unknown as z.ZodType<StatExportInput>;
