import { z } from 'zod';
import { END_TIME_RE } from '../drive/share-rules';
import { FileEntry, FolderPath, PageFields } from './drive';
import { spoofProblem } from '../drive/names';
import { Id, idListField, oneOrMany, rule } from './fields';

/**
 * Sharing by link (spec/drive.md §7 share/*, issue 6). Where the spec says "not shown", the
 * shapes follow research/qiwen-drive.md §2.3 minus its mistakes: every call that reads through a
 * share checks the share's expiry and code on the server; no answer to a visitor carries the
 * extraction code or where the sharer keeps the files; a right code buys this client a
 * short-lived grant (an HttpOnly cookie bound to that one share), so the code is not carried in
 * every URL afterwards.
 *
 * The visitor's calls (sharetype, checkendtime, checkextractioncode, sharefileList, preview and
 * download with shareBatchNum) need no session, unless SHARE_REQUIRE_LOGIN is set. Saving needs
 * a session.
 */

/** The link id as it arrives; anything malformed simply names no share (never a crash). */
export const ShareBatchNum = z.string().trim().min(1, '分享链接不正确').max(64, '分享链接不正确');

/** POST share/sharefile */
export const ShareFileBody = z.object({
  files: idListField('userFileId'),
  endTime: z
    .string({ message: '请选择链接有效期' })
    .trim()
    .min(1, '请选择链接有效期')
    .regex(END_TIME_RE, '链接有效期格式不正确，应为 yyyy-MM-dd HH:mm:ss'),
  /** 1 with an extraction code (private), 0 without (public). */
  shareType: z.coerce
    .number({ message: '分享类型不正确' })
    .int('分享类型不正确')
    .min(0, '分享类型不正确')
    .max(1, '分享类型不正确')
    .default(0),
  /** Shown to every visitor: refuses what could make it read as something else (names.ts). */
  remarks: z
    .string()
    .trim()
    .max(200, '备注最多 200 个字')
    .superRefine(rule((v) => spoofProblem(v, '备注')))
    .default(''),
});
export const ShareResult = z.object({
  shareBatchNum: z.string(),
  /** Only to the sharer, only here and in their own share list; null for a public share. */
  extractionCode: z.string().nullable(),
  endTime: z.string(),
});
export type ShareResult = z.infer<typeof ShareResult>;

export const ShareBatchQuery = z.object({ shareBatchNum: ShareBatchNum });

/**
 * GET share/sharetype: what the share page needs before showing anything. `needCode` is true
 * for a private share this client holds no grant for. Fails with 分享已过期, 该分享已被取消 or
 * 分享链接不存在或已失效 (code 404/1010) like share/checkendtime.
 */
export const ShareInfo = z.object({
  shareType: z.number(),
  needCode: z.boolean(),
  shareTime: z.string(),
  endTime: z.string(),
  remarks: z.string(),
  /** The sharer's name, so a visitor knows who sent the link. */
  sharer: z.string(),
  /** How many items the sharer chose. */
  fileCount: z.number(),
});
export type ShareInfo = z.infer<typeof ShareInfo>;

/** GET share/checkendtime: success with the end time while the link is live. */
export const EndTimeResult = z.object({ endTime: z.string() });

/**
 * GET share/checkextractioncode: success sets the grant cookie. A wrong code fails with
 * 提取码错误，还可尝试 N 次; too many fail with the minutes to wait (code 1008).
 */
export const CheckCodeQuery = ShareBatchQuery.extend({
  extractionCode: z.string().trim().min(1, '请输入提取码').max(16, '提取码不正确'),
});

/**
 * GET share/sharefileList: one folder of the share. `shareFilePath` is the folder inside the
 * share ('/' for the top); the spec's `path` is accepted as its other name.
 */
export const ShareFileListQuery = ShareBatchQuery.extend({
  shareFilePath: FolderPath.optional(),
  path: FolderPath.optional(),
});

/** A row of a share's listing: what a visitor may know, nothing about the sharer's drive. */
export const ShareFileEntry = FileEntry.pick({
  userFileId: true,
  fileName: true,
  extendName: true,
  isDir: true,
  fileSize: true,
  uploadTime: true,
  imageWidth: true,
  imageHeight: true,
}).extend({
  /** The folder inside the share this row sits in. */
  shareFilePath: z.string(),
});
export type ShareFileEntry = z.infer<typeof ShareFileEntry>;
export const ShareFileList = z.object({ list: z.array(ShareFileEntry), total: z.number() });
export type ShareFileList = z.infer<typeof ShareFileList>;

/** GET share/shareList: my shares, one row per chosen item, newest share first. */
export const MyShareQuery = z.object({ ...PageFields });
/**
 * The item as it is in my drive now (filePath: it may have moved since; deleteFlag: set when it
 * was deleted since it was shared, so it no longer opens), with its share.
 */
export const MyShareEntry = FileEntry.extend({
  shareBatchNum: z.string(),
  shareType: z.number(),
  shareTime: z.string(),
  endTime: z.string(),
  remarks: z.string(),
  extractionCode: z.string().nullable(),
  expired: z.boolean(),
  /** Downloads through the link (all items of the share together). */
  downloadCount: z.number(),
  /** Items in the share (the rows with this shareBatchNum). */
  fileCount: z.number(),
});
export type MyShareEntry = z.infer<typeof MyShareEntry>;
export const MyShareList = z.object({ list: z.array(MyShareEntry), total: z.number() });
export type MyShareList = z.infer<typeof MyShareList>;

/** POST share/cancelshare: revoke shares of mine; the links stop working at once. */
export const CancelShareBody = z.object({
  shareBatchNums: z.array(ShareBatchNum).min(1, '请选择要取消的分享').max(1000, '一次最多操作 1000 项'),
});

/**
 * POST share/savesharefile: copies items of a share (ids from its listing) into a folder of
 * the caller's own drive. Needs a session, a live share and its code (the grant); blobs are
 * shared, the caller's quota is charged, names follow the collision rule.
 */
export const SaveShareBody = z.object({
  shareBatchNum: ShareBatchNum,
  files: idListField('userFileId'),
  filePath: FolderPath,
});

/** GET /singleMuseum/sysUser/lookup: staff found by name or phone (the share dialog's picker). */
export const UserLookupQuery = z.object({
  nameOrPhone: z.string().trim().min(1, '请输入姓名或手机号').max(50, '搜索内容过长'),
});
export const UserLookupRow = z.object({
  userId: z.number(),
  userName: z.string(),
  /** Masked (138****1234) unless the whole number was typed. */
  phone: z.string(),
  deptName: z.string(),
});
export type UserLookupRow = z.infer<typeof UserLookupRow>;
export const UserLookupList = z.array(UserLookupRow);

/** POST /singleMuseum/notice/shareFileToUsers: one notice per chosen person. */
export const ShareToUsersBody = z.object({
  noticeContent: z.string().trim().min(1, '请输入通知内容').max(1000, '通知内容最多 1000 个字'),
  /** User ids: an array, the spec's text "1,2,3", or one id (a number or "5") as a list of one. */
  receiver: oneOrMany(z.array(Id).min(1, '请选择接收人').max(200, '一次最多发送给 200 人')).transform(
    (ids) => [...new Set(ids)],
  ),
});
