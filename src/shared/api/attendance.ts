import { z } from 'zod';
import { MONTH_RE } from '../workflow/attendance';
import { Id } from './fields';

/**
 * 考勤 and the summaries (issue 8), under /singleMuseum/attendance (ours: the spec shows the pages
 * /approve/view, view-person, view-person-detail, department-summary and personal-summary, not
 * their calls). Days are numbers of days with at most 2 decimals (shared/workflow/attendance.ts:
 * hours count 8 to a day; a request across months is split by its days in each).
 *
 * Who sees what (the service enforces it):
 * - month (考勤统计) needs the oa.attendance.overview grant; departments (部门汇总) needs
 *   oa.attendance.departmentSummary. Their scope: the whole museum for administrators and for the
 *   top of the organisation (no superior: the director); a department head (someone to whom
 *   another member of their department reports) sees the departments they head, with their
 *   sub-departments; any other holder of the grant (a personnel clerk) sees the whole museum.
 * - person: one's own month always; another person's only with the overview grant and inside
 *   that scope. personal (个人汇总): only one's own year.
 */

export const MonthField = z
  .string('请选择月份')
  .regex(MONTH_RE, '月份格式应为 yyyy-MM')
  .refine((m) => m >= '2000-01' && m <= '2099-12', '月份超出范围');

export const MonthQuery = z.object({
  month: MonthField,
  /** Narrow 考勤统计 to one department of the caller's scope (and its sub-departments). */
  deptId: Id.optional(),
});
export type MonthQuery = z.output<typeof MonthQuery>;
export const PersonQuery = z.object({ month: MonthField, userId: Id.optional() });
export type PersonQuery = z.output<typeof PersonQuery>;
export const YearQuery = z.object({
  year: z.coerce.number('请选择年份').int('请选择年份').min(2000, '年份超出范围').max(2099, '年份超出范围'),
});

const Days = z.object({ leave: z.number(), travel: z.number(), overtime: z.number(), count: z.number() });
export type Days = z.infer<typeof Days>;

/** One person's row of 考勤统计. */
export const PersonRow = Days.extend({ userId: z.number(), name: z.string(), deptNames: z.string() });
export type PersonRow = z.infer<typeof PersonRow>;
export const ScopeDept = z.object({ deptId: z.number(), deptName: z.string() });
export const MonthSheet = z.object({
  month: z.string(),
  /** The departments the caller may filter by (their scope). */
  depts: z.array(ScopeDept),
  list: z.array(PersonRow),
});
export type MonthSheet = z.infer<typeof MonthSheet>;

/** One department's row of 部门汇总: its own members' days (a person in two counts in both). */
export const DeptRow = Days.extend({ deptId: z.number(), deptName: z.string(), people: z.number() });
export type DeptRow = z.infer<typeof DeptRow>;
export const DeptSheet = z.object({ month: z.string(), list: z.array(DeptRow) });
export type DeptSheet = z.infer<typeof DeptSheet>;

/** One approved request counted in a person's month (个人考勤 and its detail). */
export const CountedRow = z.object({
  actvityId: z.number(),
  title: z.string(),
  templateName: z.string(),
  kind: z.enum(['leave', 'travel', 'overtime']),
  start: z.string(),
  end: z.string(),
  /** A range in days: which half of its first and last day (上午 am, 下午 pm). */
  startHalf: z.enum(['am', 'pm']).optional(),
  endHalf: z.enum(['am', 'pm']).optional(),
  /** The whole request, in its field's unit. */
  duration: z.number(),
  unit: z.union([z.literal(0), z.literal(1)]),
  /** Days it counts in this month. */
  days: z.number(),
});
export type CountedRow = z.infer<typeof CountedRow>;
export const PersonSheet = z.object({
  month: z.string(),
  userId: z.number(),
  name: z.string(),
  deptNames: z.string(),
  totals: Days,
  list: z.array(CountedRow),
});
export type PersonSheet = z.infer<typeof PersonSheet>;

/** 个人汇总: the caller's twelve months. */
export const YearSheet = z.object({
  year: z.number(),
  name: z.string(),
  list: z.array(Days.extend({ month: z.string() })),
  totals: Days,
});
export type YearSheet = z.infer<typeof YearSheet>;

/** The workbook names, the same on the server (Content-Disposition) and the client (save as). */
export const exportName = {
  month: (month: string) => `考勤统计-${month}.xlsx`,
  departments: (month: string) => `部门汇总-${month}.xlsx`,
  personal: (year: number, name: string) => `个人汇总-${name}-${year}.xlsx`,
};
