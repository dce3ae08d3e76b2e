import { z } from 'zod';
import { Id } from './fields';
import { addRecordLabels } from './labels';

/**
 * 业务数据's summaries (issue 18; the records are in shared/records/office/business-data.ts),
 * under /singleMuseum/businessData:
 *
 * - GET summary?deptId=&year=&month=: one department's month as its head and the office read
 *   it: the month's closing state, the department's own figures, the sums of its members'
 *   personal indicators (with who has reported and who has not), and the plans in force that
 *   month (the year's, the quarter's, the month's) with their progress. The department's
 *   heads (部门业务数据, members of the department) and the office (业务数据汇总) may read it;
 *   another department's summary is refused.
 * - GET overview?year=&month=: every department's month at a glance, for the office: whether
 *   its figures are in, how many of its people have reported, its plans' mean progress.
 */

const Year = z.coerce
  .number('年份必须是数字')
  .int('年份必须是整数')
  .min(2000, '年份须在 2000–2100 之间')
  .max(2100, '年份须在 2000–2100 之间');
const Month = z.coerce
  .number('月份必须是数字')
  .int('月份必须是整数')
  .min(1, '月份须在 1–12 之间')
  .max(12, '月份须在 1–12 之间');

export const SummaryQuery = z.object({ deptId: Id, year: Year, month: Month });
export const OverviewQuery = z.object({ year: Year, month: Month });
addRecordLabels({ deptId: '部门', year: '年份', month: '月份' });

const Indicator = z.object({ indicator: z.string(), value: z.number() });
const PlanLine = z.object({
  id: z.number(),
  title: z.string(),
  period: z.number(),
  periodNo: z.number().nullable(),
  status: z.number(),
  /** How many items, their mean progress (0–100), and how many are in each state (1–4). */
  items: z.number(),
  progress: z.number(),
  byState: z.record(z.string(), z.number()),
});

export const MonthState = z.object({
  /** The 月结 row, when the office has made one. */
  id: z.number().nullable(),
  /** 0 填报中, 1 已关账. */
  status: z.number(),
});

export const DeptSummary = z.object({
  deptId: z.number(),
  year: z.number(),
  month: z.number(),
  monthState: MonthState,
  /** The department's own row for the month, if saved. */
  dept: z.object({ id: z.number(), indicators: z.array(Indicator), summary: z.string() }).nullable(),
  personal: z.object({
    /** Per personal indicator: the sum of the members' values, and how many reported it. */
    totals: z.array(Indicator.extend({ people: z.number(), unit: z.string() })),
    /** The department's members (enabled), and whether each has saved the month. */
    members: z.array(z.object({ userId: z.number(), name: z.string(), reported: z.boolean() })),
  }),
  plans: z.array(PlanLine),
  deptName: z.string(),
});
export type DeptSummary = z.infer<typeof DeptSummary>;

export const Overview = z.object({
  year: z.number(),
  month: z.number(),
  monthState: MonthState,
  depts: z.array(
    z.object({
      deptId: z.number(),
      name: z.string(),
      /** Whether the department's figures for the month are saved. */
      reported: z.boolean(),
      members: z.number(),
      /** Members who saved their own month. */
      personalReported: z.number(),
      plans: z.number(),
      /** The mean progress of the plans in force that month, 0–100 (0 without plans). */
      progress: z.number(),
    }),
  ),
});
export type Overview = z.infer<typeof Overview>;
