import { z } from 'zod';
import { DAY_MS, parseMuseumDate, parseMuseumMinute } from '../rules/museum-time';
import { lineProblem } from '../rules/validators';
import { BoolFlag, Id, rule } from './fields';
import { overlaps, scheduleSpan } from './schedule-span';

/**
 * A person's own schedule (日程), `/singleMuseum/applet/bsSchedule/*` (spec office.md §7).
 * Times are museum time 'yyyy-MM-dd HH:mm'. Nobody sees or changes another person's items.
 */

export const SCHEDULE = {
  titleMax: 50,
  locationMax: 50,
  remarkMax: 500,
  /** The longest range one list call covers (two months and a bit). */
  rangeMaxDays: 62,
} as const;

export const ScheduleItem = z.object({
  id: z.number(),
  title: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  allDay: z.boolean(),
  location: z.string(),
  remark: z.string(),
});
export type ScheduleItem = z.infer<typeof ScheduleItem>;

export const ScheduleList = z.object({ list: z.array(ScheduleItem) });
export type ScheduleList = z.infer<typeof ScheduleList>;

// The span an item covers, without zod for the workbench's 今日日程 card: schedule-span.ts.
export { overlaps, scheduleSpan };

const Minute = (what: string) =>
  z
    .string(`请选择${what}`)
    .trim()
    .superRefine(
      rule((v) => {
        if (!v) return `请选择${what}`;
        return parseMuseumMinute(v) === null ? `${what}格式应为 yyyy-MM-dd HH:mm` : null;
      }),
    );

const Fields = z.object({
  title: z
    .string('请输入日程标题')
    .trim()
    .superRefine(rule((v) => lineProblem(v, '日程标题', SCHEDULE.titleMax, true))),
  startTime: Minute('开始时间'),
  endTime: Minute('结束时间'),
  allDay: BoolFlag().default(false),
  location: z
    .string()
    .trim()
    .superRefine(rule((v) => lineProblem(v, '地点', SCHEDULE.locationMax)))
    .default(''),
  remark: z.string().trim().max(SCHEDULE.remarkMax, `备注不能超过 ${SCHEDULE.remarkMax} 个字符`).default(''),
});

function endNotBeforeStart(v: z.output<typeof Fields>, ctx: z.RefinementCtx) {
  const span = scheduleSpan(v);
  if (span && span.end < span.start)
    ctx.addIssue({ code: 'custom', path: ['endTime'], message: '结束时间不能早于开始时间' });
}

export const ScheduleSave = Fields.superRefine(endNotBeforeStart);
export type ScheduleSave = z.input<typeof ScheduleSave>;
export const ScheduleUpdate = Fields.extend({ id: Id }).superRefine(endNotBeforeStart);
export type ScheduleUpdate = z.input<typeof ScheduleUpdate>;
export const ScheduleIdQuery = z.object({ id: Id });

const Day = (what: string) =>
  z
    .string()
    .trim()
    .superRefine(rule((v) => (parseMuseumDate(v) === null ? `${what}格式应为 yyyy-MM-dd` : null)));

/** One day (`date`), or the days `from`–`to` inclusive, at most 62 of them. */
export const ScheduleListQuery = z
  .object({ date: Day('日期').optional(), from: Day('开始日期').optional(), to: Day('结束日期').optional() })
  .superRefine((q, ctx) => {
    const range = q.from !== undefined || q.to !== undefined;
    if (q.date !== undefined && range) {
      ctx.addIssue({ code: 'custom', message: '请只指定日期，或只指定开始和结束日期' });
    } else if (q.date === undefined && !range) {
      ctx.addIssue({ code: 'custom', message: '请指定日期' });
    } else if (range && (q.from === undefined || q.to === undefined)) {
      ctx.addIssue({ code: 'custom', message: '请同时指定开始日期和结束日期' });
    } else if (range) {
      const days = (parseMuseumDate(q.to!)! - parseMuseumDate(q.from!)!) / DAY_MS + 1;
      if (days < 1) ctx.addIssue({ code: 'custom', message: '结束日期不能早于开始日期' });
      else if (days > SCHEDULE.rangeMaxDays)
        ctx.addIssue({ code: 'custom', message: `查询范围不能超过 ${SCHEDULE.rangeMaxDays} 天` });
    }
  });
export type ScheduleListQuery = z.input<typeof ScheduleListQuery>;

/** The epoch-ms range [from, to) a list query covers; the query must have passed the schema. */
export function queryRange(q: z.output<typeof ScheduleListQuery>): { from: number; to: number } {
  const first = parseMuseumDate(q.date ?? q.from!)!;
  const last = parseMuseumDate(q.date ?? q.to!)!;
  return { from: first, to: last + DAY_MS };
}
