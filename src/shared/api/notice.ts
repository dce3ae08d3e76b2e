import { z } from 'zod';
import { Id } from './fields';

/**
 * The notice centre's calls (spec/office.md §3 "Notices and collaboration", §7), under
 * /singleMuseum. Field names are the spec's, spelling included (`actvityId`).
 *
 * Decisions the spec leaves open (issue 7):
 * - Lists are the newest 100 of each kind; the popup is a to-do list, not an archive.
 * - Reading or clearing is idempotent and scoped to the caller: an id that is not the caller's
 *   (or no longer exists) changes nothing and still answers success, so an offline replay never
 *   fails on an item already cleared on another device, and the answer never tells whether
 *   someone else's id exists.
 * - Times are museum time `yyyy-MM-dd HH:mm:ss`; the app shows them the spec's way (今天, 昨天 …).
 */

export const LIST_MAX = 100;

/** A notice; status '1' unread, '2' read. `link` is where opening it goes in the app, or null. */
export const NoticeRow = z.object({
  noticeId: z.number(),
  noticeContent: z.string(),
  status: z.enum(['1', '2']),
  createTimeStr: z.string(),
  source: z.string(),
  link: z.string().nullable(),
});
export type NoticeRow = z.infer<typeof NoticeRow>;
export const NoticeList = z.array(NoticeRow);

export const NoticeReadBody = z.object({ noticeId: Id });
/** The spec sends `noticeId: ''` to clear; the field is accepted and ignored. */
export const NoticeClearBody = z.object({ noticeId: z.union([z.string(), z.number()]).optional() }).loose();

/** A collaboration item ('1' text, '2' task checklist); only unread items are listed. */
export const CooperationRow = z.object({
  cooperationId: z.number(),
  cooperationTitle: z.string(),
  cooperationContent: z.string(),
  cooperationType: z.enum(['1', '2']),
  createTimeStr: z.string(),
  userImg: z.string(),
  userName: z.string(),
  projectId: z.number().nullable(),
  taskId: z.number().nullable(),
  /** 1 when the item's task was deleted since: opening it warns 此任务已被删除. */
  isDelete: z.union([z.literal(0), z.literal(1)]),
});
export type CooperationRow = z.infer<typeof CooperationRow>;
export const CooperationList = z.array(CooperationRow);
export const CooperationReadBody = z.object({ cooperationId: Id });
export const CooperationClearBody = z.object({}).loose();

/**
 * An approval that needs me: status '1' awaiting my decision, '10' copied to me and unread.
 * `type` is the request's kind; 'collect' is special in the spec (collection objects).
 */
export const ApprovalMessageRow = z.object({
  actvityId: z.number(),
  title: z.string(),
  startTime: z.string(),
  status: z.enum(['1', '10']),
  type: z.string(),
  userImg: z.string(),
  userName: z.string(),
});
export type ApprovalMessageRow = z.infer<typeof ApprovalMessageRow>;
export const ApprovalMessageList = z.array(ApprovalMessageRow);

/* POST /workflowInst/read moved to the approval requests: shared/api/workflow.ts (InstIdBody). */

/**
 * GET /workflowActvity/count. todoCount: awaiting my decision; copytoCount: copied to me and
 * unread; approvalCount = todoCount + copytoCount (the 审批流 tab); noticeCount: unread notices;
 * cooperationCount: unread collaboration items; total: all of them (the top bar's bell).
 */
export const SidebarCounts = z.object({
  todoCount: z.number(),
  copytoCount: z.number(),
  total: z.number(),
  noticeCount: z.number(),
  cooperationCount: z.number(),
  approvalCount: z.number(),
});
export type SidebarCounts = z.infer<typeof SidebarCounts>;

/**
 * GET /bsDigitalassetsInfo/countApproval, for the digital-resources module: approvals of
 * resource data awaiting my decision. uploadCount: uploaded collection data waiting for review
 * (approval type 'resourceUpload', the 数据审核 entry); applyCount: requests to use or extract
 * resource data (type 'resourceApply', the 数据管理 entry); all: both.
 */
export const ResourceCounts = z.object({
  all: z.number(),
  uploadCount: z.number(),
  applyCount: z.number(),
});
export type ResourceCounts = z.infer<typeof ResourceCounts>;
export const RESOURCE_APPROVAL_TYPES = { upload: 'resourceUpload', apply: 'resourceApply' } as const;

// The live stream's topics, path and change (without zod, for every signed-in page): live.ts.
export { LIVE_STREAM_PATH, LIVE_TOPICS, readLiveChange, type LiveChange, type LiveTopic } from './live';
