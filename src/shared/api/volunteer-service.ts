import { z } from 'zod';
import { deviceClockFields, oneOrMany } from './fields';
import { Id } from './fields';
import { addRecordLabels } from './labels';

/**
 * Volunteer service's own calls (README "Volunteer service and check-in"; the records are in
 * shared/records/volunteer), under /singleMuseum/v2:
 *
 * - exhibitionDetail/generate (ours), showRecruit, setExplain (spec): sessions and explainers.
 * - exhibition/qrCode, rotatingCode, revokeQr, qrKey (ours): the hall's signed code, printed or
 *   rotating on a staff tablet.
 * - exhibitionDetailUser/check, checkTime (spec, GET with a POST twin for the outbox): check-in
 *   and check-out; dayCounts (ours): a day's sessions with their counts (签到管理); mySession
 *   (ours): the phone's view of one session, with the code's key and the server's clock.
 * - serviceRecord/batchConfirm, totals, annualCheck, stats (ours): hours and the lists' charts.
 */

const Day = z
  .string({ error: () => '请选择日期' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期须为 yyyy-MM-dd 格式（如 2026-12-01）');
const Year = z.coerce
  .number('年份必须是数字')
  .int('年份必须是整数')
  .min(2000, '年份须在 2000–2100 之间')
  .max(2100, '年份须在 2000–2100 之间');
const Flag = z.preprocess(
  (v) => (v === 'true' || v === '1' || v === 1 ? true : v === 'false' || v === '0' || v === 0 ? false : v),
  z.boolean({ error: () => '开放认领只能是 true 或 false' }),
);
const Ids = oneOrMany(z.array(Id).max(200, '一次最多 200 条') as unknown as z.ZodType<number[]>);

export const GenerateQuery = z.object({
  exhibitionId: Id,
  from: Day,
  to: Day,
  type: z.coerce.number().int().min(1, '场次类型不正确').max(3, '场次类型不正确').optional(),
  quota: z.coerce
    .number('需要人数必须是数字')
    .int()
    .min(1, '需要人数须在 1–20 之间')
    .max(20, '需要人数须在 1–20 之间')
    .optional(),
});
export const ShowRecruitQuery = z.object({ id: Id, recruitOpen: Flag });
export const SetExplainQuery = z.object({
  id: Id,
  explainerIds: z.preprocess(
    (v) => (v === '' || v === undefined ? [] : v),
    oneOrMany(z.array(Id).max(20, '讲解员最多 20 人') as unknown as z.ZodType<number[]>),
  ),
});
export const CheckQuery = z.object({
  detailId: Id,
  qrPayload: z.string().max(500, '签到码格式不正确').optional(),
  ...deviceClockFields('手机'),
  clientId: z
    .string()
    .trim()
    .min(10, '签到编号格式不正确')
    .max(40, '签到编号格式不正确')
    .regex(/^[0-9A-Za-z_-]+$/, '签到编号格式不正确')
    .optional(),
  deviceId: z.string().trim().max(64).optional(),
  volunteerId: Id.optional(),
  time: z.string().trim().max(16).optional(),
  reason: z.string().trim().max(200, '原因不能超过 200 个字符').optional(),
});
export const DayQuery = z.object({ date: Day });
export const BatchConfirmBody = z.object({ ids: Ids });
export const TotalsQuery = z.object({ volunteerId: Id, year: Year.optional() });
export const AnnualCheckQuery = z.object({
  year: Year,
  volunteerKind: z.coerce.number().int().min(1, '志愿者类别不正确').max(2, '志愿者类别不正确').optional(),
});

addRecordLabels({
  exhibitionId: '展览',
  from: '开始日期',
  to: '结束日期',
  explainerIds: '讲解员',
  detailId: '场次',
  qrPayload: '签到码',
  deviceTime: '手机时间',
  serverOffsetMs: '时钟偏差',
  clientId: '签到编号',
  volunteerId: '志愿者',
  date: '日期',
  ids: '服务记录',
  year: '年份',
});

export const DaySession = z.object({
  id: z.number(),
  exhibitionName: z.string(),
  hall: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  quota: z.number(),
  status: z.number(),
  assigned: z.number(),
  waiting: z.number(),
  checkedIn: z.number(),
  checkedOut: z.number(),
  absent: z.number(),
  confirmed: z.number(),
});
export type DaySession = z.infer<typeof DaySession>;
export const DayCounts = z.object({ date: z.string(), sessions: z.array(DaySession) });
export type DayCounts = z.infer<typeof DayCounts>;

export const QrCode = z.object({
  payload: z.string(),
  qrVersion: z.number(),
  validFrom: z.number(),
  validTo: z.number(),
  hall: z.string(),
  name: z.string(),
  publicKey: z.string(),
});
export type QrCode = z.infer<typeof QrCode>;

/** The tablet's rotating code: a QrCode valid for minutes, and when to fetch the next one. */
export const RotatingCode = QrCode.extend({ serverTime: z.number(), refreshMs: z.number() });
export type RotatingCode = z.infer<typeof RotatingCode>;

export const AnnualCheck = z.object({
  year: z.number(),
  volunteerKind: z.number(),
  minMinutes: z.number(),
  checked: z.number(),
  below: z.array(z.object({ volunteerId: z.number(), name: z.string(), minutes: z.number() })),
});
export type AnnualCheck = z.infer<typeof AnnualCheck>;

/** The phone's view of one session (exhibitionDetailUser/mySession; the check-in page). */
export const MySession = z.object({
  session: z.object({
    id: z.number(),
    exhibitionId: z.number(),
    exhibitionName: z.string(),
    hall: z.string(),
    qrVersion: z.number(),
    serviceDate: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    status: z.number(),
    cancelReason: z.string(),
    earlyMinutes: z.number(),
    lateMinutes: z.number(),
  }),
  checkIn: z
    .object({
      id: z.number(),
      status: z.number(),
      checkInTime: z.number().nullable(),
      checkOutTime: z.number().nullable(),
      serviceMinutes: z.number(),
    })
    .nullable(),
  publicKey: z.string(),
  serverTime: z.number(),
});
export type MySession = z.infer<typeof MySession>;

/** serviceRecord/stats: the list pages' charts, a year at a time (sums only, no names). */
export const StatsQuery = AnnualCheckQuery;
export const VolunteerStats = z.object({
  year: z.number(),
  volunteerKind: z.number(),
  confirmedMinutes: z.number(),
  pendingMinutes: z.number(),
  /** Confirmed minutes, January first. */
  hoursByMonth: z.array(z.number()),
  hoursByGroup: z.array(z.object({ groupId: z.number().nullable(), name: z.string(), minutes: z.number() })),
  attendanceByMonth: z.array(z.object({ present: z.number(), absent: z.number() })),
  /** New adult volunteers (见习开始) per month. */
  newByMonth: z.array(z.number()),
  /** Adult volunteers in service (见习, 正式) with NO_SHOW_LIMIT no-shows or more: 建议停用. */
  suggestBlock: z.number(),
});
export type VolunteerStats = z.infer<typeof VolunteerStats>;
