import { z } from 'zod';
import { Id } from './fields';
import { addRecordLabels } from './labels';

/**
 * The volunteer's own calls (ours; issue 20, README "Volunteer accounts and the phone view"),
 * under /singleMuseum/v2/volunteer. Every call answers the signed-in volunteer's own data only:
 * none takes a volunteer id.
 *
 * - GET me: the phone view's home in one answer (number, status, hours, certificates, the next
 *   7 days of my sessions, sessions I may claim, recruits I may sign up for, notices).
 * - GET me/records: my service records, paged.
 * - POST me/claim {sessionId}: take a place on an open session (开放认领).
 * - POST me/cancelSign {signId}: withdraw my sign-up to a recruit; the place goes back.
 * The sign-up itself is the recruit's POST bsVolunteerV2Recruit/signUp (without volunteerId).
 */

export const ClaimBody = z.object({ sessionId: Id });
export const CancelSignBody = z.object({ signId: Id });
export const MyRecordsQuery = z.object({
  currentPage: z.coerce.number('页码必须是数字').int('页码必须是整数').min(1, '页码须大于 0').default(1),
  pageCount: z.coerce
    .number('每页条数必须是数字')
    .int('每页条数必须是整数')
    .min(1, '每页条数须在 1–100 之间')
    .max(100, '每页条数须在 1–100 之间')
    .default(20),
});

addRecordLabels({ sessionId: '场次', signId: '报名' });

/** Minutes of confirmed service (pending counted apart: they are not hours yet). */
export const MyHours = z.object({
  year: z.number(),
  yearMinutes: z.number(),
  totalMinutes: z.number(),
  pendingMinutes: z.number(),
});

export const MyCertificate = z.object({
  id: z.number(),
  exhibitionName: z.string(),
  hall: z.string(),
  certNo: z.string(),
  issueDate: z.string(),
});

export const MySession = z.object({
  id: z.number(),
  exhibitionName: z.string(),
  hall: z.string(),
  serviceDate: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  /** The session's status (SESSION_STATES), and why it was cancelled. */
  status: z.number(),
  cancelReason: z.string(),
  /** My check-in's status (CHECKIN_STATES) and times (ms), null before any. */
  checkStatus: z.number(),
  checkInTime: z.number().nullable(),
  checkOutTime: z.number().nullable(),
});

export const OpenSession = z.object({
  id: z.number(),
  exhibitionName: z.string(),
  hall: z.string(),
  serviceDate: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  quota: z.number(),
  left: z.number(),
});

export const OpenRecruit = z.object({
  id: z.number(),
  title: z.string(),
  location: z.string(),
  activityStart: z.number().nullable(),
  activityEnd: z.number().nullable(),
  signupEnd: z.number().nullable(),
  hoursPerPerson: z.string(),
  needReview: z.boolean(),
  left: z.number(),
  /** My sign-up, if any (SIGN_STATES), and whether I may still withdraw it. */
  mySign: z.object({ id: z.number(), status: z.number(), cancellable: z.boolean() }).nullable(),
});

export const MyNotice = z.object({
  id: z.number(),
  title: z.string(),
  category: z.number(),
  summary: z.string(),
  content: z.string(),
  publishTime: z.number().nullable(),
  isTop: z.boolean(),
});

export const VolunteerMe = z.object({
  /** The museum's today ('yyyy-MM-dd'), so a phone with a wrong clock still says 今天 right. */
  today: z.string(),
  mustChangePassword: z.boolean(),
  volunteer: z.object({
    id: z.number(),
    number: z.string(),
    name: z.string(),
    /** ADULT_STATES: 1 见习, 2 正式, 3 已退出, 9 已停用. */
    status: z.number(),
    /** 1 社会(成人): students have no accounts. */
    kind: z.number(),
    groupName: z.string(),
    joinDate: z.string(),
    regularDate: z.string(),
  }),
  hours: MyHours,
  certificates: z.array(MyCertificate),
  sessions: z.array(MySession),
  openSessions: z.array(OpenSession),
  recruits: z.array(OpenRecruit),
  notices: z.array(MyNotice),
});
export type VolunteerMe = z.infer<typeof VolunteerMe>;
export type MySession = z.infer<typeof MySession>;
export type OpenSession = z.infer<typeof OpenSession>;
export type OpenRecruit = z.infer<typeof OpenRecruit>;
export type MyNotice = z.infer<typeof MyNotice>;

export const MyRecord = z.object({
  id: z.number(),
  serviceDate: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  serviceMinutes: z.number(),
  content: z.string(),
  location: z.string(),
  /** SERVICE_RECORD_STATES: 0 待确认, 1 已确认, 2 已驳回. */
  status: z.number(),
  rejectReason: z.string(),
});
export type MyRecord = z.infer<typeof MyRecord>;
export const MyRecords = z.object({ list: z.array(MyRecord), total: z.number() });
export type MyRecords = z.infer<typeof MyRecords>;

export const ClaimAnswer = z.object({ sessionId: z.number(), left: z.number() });
