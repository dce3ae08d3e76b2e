import { z } from 'zod';
import { Attachment } from './attach';
import { PageQuery } from './envelope';
import { BoolFlag, Id, oneOrMany, visibleText } from './fields';

/**
 * Notice publishing (信息发布, issue 7), under /singleMuseum/infoPublish. The spec names only
 * `publishOrCancel`; the other paths mirror its volunteer notices (pageList, detail, add, edit,
 * delete), with reads as GET and changes as POST (ARCHITECTURE.md §3), plus `readList` for staff.
 *
 * Decisions:
 * - Administrators are those granted the page 信息发布 (`oa.infoPublish`): they list every
 *   announcement (pageList), add, edit, delete and publish or cancel any of them, whoever wrote it.
 * - `content` is rich HTML, sanitized by the server on every save (an allowlist: p, h1–h3, pre,
 *   code, strong, em, u, s, blockquote, lists, links with http, https, mailto or relative
 *   targets opening in a new tab with rel="noopener noreferrer", images only from our own
 *   attach/image URLs, br, hr and simple tables). Scripts, styles, frames, event handlers and
 *   javascript: URLs never reach the database. At most 200,000 characters as sent.
 * - Audience: 'all' (全员), 'dept' (departments, each with its sub-departments) or 'user'
 *   (people). Departments and people must exist (and people be enabled) when saved.
 * - Status: 0 draft (a new announcement), 1 published, 2 cancelled (撤回). publishOrCancel
 *   publishes a draft or cancelled one and cancels a published one; `status` (1 or 2) names
 *   the wanted state, so a double click or a stale page cannot flip it back.
 * - Publishing (the first time, or again after cancelling) sends every enabled person in the
 *   audience, the author included when in it, the notice 【通知公告】<title> that opens
 *   /approve/notice-detail?id=<id>. Cancelling sends nothing.
 * - Editing a published announcement is allowed and stays published; it notifies nobody again,
 *   except people the edit adds to the audience, who get the notice as at publishing.
 * - add and edit take `publish` (issue 17 §5: the editor offers 保存草稿 and 发布 side by side):
 *   true saves and publishes in one call, as publishOrCancel would, and the answer says what
 *   happened (`status`, `notified`). Should the publishing fail after the save (a receiver
 *   disabled meanwhile), the announcement stays saved as it was and the answer carries
 *   `publishError`: the text is never lost and a retry cannot add it twice.
 * - Every change a reader can see (publish, cancel, delete or edit of a published one) tells
 *   the audience's live streams (topic `announce`), so the workbench's 通知公告 card and the
 *   list follow within a second, like the bell.
 * - Readers (every member of staff with the workbench) see only published announcements whose
 *   audience includes them, through readList and detail; any other id answers
 *   该通知不存在或已撤回, the same as an id that never existed.
 */

export const TITLE_MAX = 100;
export const CONTENT_MAX_CHARS = 200_000;
export const AUDIENCE_DEPTS_MAX = 200;
export const AUDIENCE_USERS_MAX = 1000;
export const ATTACHMENTS_MAX = 20;

export const ANNOUNCE_STATUS = { draft: 0, published: 1, cancelled: 2 } as const;
export type AnnounceStatus = (typeof ANNOUNCE_STATUS)[keyof typeof ANNOUNCE_STATUS];
export const AudienceType = z.enum(['all', 'dept', 'user'], { message: '请选择发布范围' });
export type AudienceType = z.infer<typeof AudienceType>;

/** The words a reader gets for anything not readable (never says whether the id exists). */
export const NOT_READABLE = '该通知不存在或已撤回';

/** The notice text each receiver gets (plain text, shown as text). */
export function announceNoticeText(title: string): string {
  return `【通知公告】${title}`;
}
export function noticeDetailPath(id: number): string {
  return `/approve/notice-detail?id=${id}`;
}

const IdList = (max: number, tooMany: string) => oneOrMany(z.array(Id).max(max, tooMany)).default([]);

const AnnounceFields = z.object({
  title: z
    .string({ message: '请输入标题' })
    .trim()
    .min(1, '请输入标题')
    .max(TITLE_MAX, `标题最多 ${TITLE_MAX} 个字`)
    .superRefine(visibleText('标题')),
  content: z
    .string({ message: '请输入正文内容' })
    .max(CONTENT_MAX_CHARS, '正文内容过长（最多 20 万个字符），请删减后再保存'),
  audienceType: AudienceType,
  deptIds: IdList(AUDIENCE_DEPTS_MAX, `一次最多选择 ${AUDIENCE_DEPTS_MAX} 个部门`),
  userIds: IdList(AUDIENCE_USERS_MAX, `一次最多选择 ${AUDIENCE_USERS_MAX} 人`),
  /** Attachments uploaded with attach/upload (tableName 'announcement'), in display order. */
  attachmentIds: IdList(ATTACHMENTS_MAX, `附件最多 ${ATTACHMENTS_MAX} 个`),
  /** Publish once saved (a draft or cancelled one); absent or false only saves. */
  publish: BoolFlag().optional(),
});
function audienceRule(v: z.output<typeof AnnounceFields>, ctx: z.RefinementCtx) {
  if (v.audienceType === 'dept' && v.deptIds.length === 0)
    ctx.addIssue({ code: 'custom', path: ['deptIds'], message: '请选择发布的部门' });
  if (v.audienceType === 'user' && v.userIds.length === 0)
    ctx.addIssue({ code: 'custom', path: ['userIds'], message: '请选择发布的人员' });
}

/** POST infoPublish/add: creates a draft, or publishes it at once with `publish`. */
export const AnnounceCreate = AnnounceFields.superRefine(audienceRule);
export type AnnounceCreate = z.input<typeof AnnounceCreate>;

/** POST infoPublish/edit */
export const AnnounceUpdate = AnnounceFields.extend({ id: Id }).superRefine(audienceRule);
export type AnnounceUpdate = z.input<typeof AnnounceUpdate>;

/** What add and edit answer: the announcement, its status now and how many were notified. */
export interface AnnounceSaved {
  id: number;
  status: AnnounceStatus;
  /** People told by this call (0 when it only saved). */
  notified: number;
  /** Set when `publish` was asked and refused after the save; the text is saved. */
  publishError?: string;
}

export const AnnounceIdQuery = z.object({ id: Id });
/** POST infoPublish/delete */
export const AnnounceIdBody = z.object({ id: Id });
/** POST infoPublish/publishOrCancel: `status` 1 publish, 2 cancel; absent toggles. */
export const PublishOrCancelBody = z.object({
  id: Id,
  status: z.union([z.literal(1), z.literal(2)], { message: '发布状态不正确' }).optional(),
});

/** GET infoPublish/pageList (administrators): every announcement, newest change first. */
export const AnnouncePageQuery = PageQuery.extend({
  keyword: z.string().trim().max(50, '搜索内容过长').optional(),
  status: z.coerce
    .number()
    .int()
    .refine((s) => s === 0 || s === 1 || s === 2, '发布状态不正确')
    .optional(),
});
export type AnnouncePageQuery = z.input<typeof AnnouncePageQuery>;

/** GET infoPublish/readList (staff): what is published for me, newest first. */
export const AnnounceReadQuery = PageQuery.extend({
  keyword: z.string().trim().max(50, '搜索内容过长').optional(),
});
export type AnnounceReadQuery = z.input<typeof AnnounceReadQuery>;

const Named = z.object({ id: z.number(), name: z.string() });
export const Audience = z.object({
  type: AudienceType,
  depts: z.array(Named),
  users: z.array(Named),
});
export type Audience = z.infer<typeof Audience>;

/** A row of the administrators' list. Times are epoch ms (null: never published). */
export const AnnounceAdminRow = z.object({
  id: z.number(),
  title: z.string(),
  status: z.number(),
  audience: Audience,
  authorName: z.string(),
  publishTime: z.number().nullable(),
  updateTime: z.number(),
});
export type AnnounceAdminRow = z.infer<typeof AnnounceAdminRow>;
export const AnnounceAdminPage = z.object({ list: z.array(AnnounceAdminRow), total: z.number() });
export type AnnounceAdminPage = z.infer<typeof AnnounceAdminPage>;

/** A row of a reader's list. */
export const AnnounceReadRow = z.object({
  id: z.number(),
  title: z.string(),
  authorName: z.string(),
  publishTime: z.number(),
});
export type AnnounceReadRow = z.infer<typeof AnnounceReadRow>;
export const AnnounceReadPage = z.object({ list: z.array(AnnounceReadRow), total: z.number() });
export type AnnounceReadPage = z.infer<typeof AnnounceReadPage>;

/** GET infoPublish/detail. `audience` only for administrators (who edit it). */
export const AnnounceDetail = z.object({
  id: z.number(),
  title: z.string(),
  /** Sanitized HTML. */
  content: z.string(),
  status: z.number(),
  authorName: z.string(),
  publishTime: z.number().nullable(),
  updateTime: z.number(),
  attachments: z.array(Attachment),
  audience: Audience.nullable(),
});
export type AnnounceDetail = z.infer<typeof AnnounceDetail>;
