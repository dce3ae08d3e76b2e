import { z } from 'zod';
import { Id } from './fields';

/**
 * Attachments (spec office.md §7 "Attachments"), under /singleMuseum. Bytes belong to a record
 * of a table (`tableName`, e.g. 'announcement'); they are uploaded first, unbound, and bound
 * when the record is saved with their ids. Decisions:
 *
 * - POST attach/upload: multipart, field `file` and form field `tableName`. At most 500 MB
 *   (上传文件大小不能超过500MB, spec §5); the bytes stream to disk and are hashed by the server.
 * - POST attach/uploadimage: an editor image, field `file` (optional `tableName`, default
 *   'announcement'). PNG, JPEG, GIF or WebP decided from the bytes, at most 10 MB. Answers the
 *   URL the editor puts in `<img src>`: attach/image?attachmentId=…, the only image source the
 *   rich text sanitizer keeps.
 * - GET attach/downloadFile?attachmentId=: always an attachment with nosniff.
 *   GET attach/image?attachmentId=: an editor image inline, with its sniffed type, nosniff and
 *   a sandbox CSP; anything else is refused. Both are readable by the uploader, or by whoever
 *   may read the record the attachment is bound to (each table says who: the announcement's
 *   readers and its administrators).
 * - GET attach/deleteAttachment?id= (spec: GET): the uploader only, and only while the
 *   attachment is not bound to a published record. Being a change, it needs the `token`
 *   header; the cookie alone does not authorise it.
 * - Uploaded but never bound attachments are removed after a day.
 */

export const ATTACH_MAX_BYTES = 500 * 1024 * 1024;
export const ATTACH_TOO_LARGE = '上传文件大小不能超过500MB';
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_TOO_LARGE = '图片大小不能超过10MB';
/** The spec's hint under an attachment upload (§5). */
export const ATTACH_HINT_TYPES = ['rar', 'zip', 'doc', 'docx', 'pdf', 'jpg'] as const;

/** Tables that take attachments (each registers who may upload and read). */
export const ATTACH_TABLES = ['announcement', 'approval'] as const;
export const AttachTable = z.enum(ATTACH_TABLES, { message: '不支持的附件类别（tableName）' });
export type AttachTable = z.infer<typeof AttachTable>;

/** An attachment as the spec names it (§3 "Attachment"). */
export const Attachment = z.object({
  attId: z.number(),
  attName: z.string(),
  /** The download URL (attach/downloadFile), or for an editor image attach/image. */
  attPath: z.string(),
  /** The extension, lower case, '' when none. */
  attFileTypeStr: z.string(),
  attSize: z.number(),
});
export type Attachment = z.infer<typeof Attachment>;

export const AttachmentIdQuery = z.object({ attachmentId: Id });
export const DeleteAttachmentQuery = z.object({ id: Id });

/** The path of an editor image, as the editor writes it into `<img src>`. */
export function imagePath(attachmentId: number): string {
  return `/singleMuseum/attach/image?attachmentId=${attachmentId}`;
}
export function downloadPath(attachmentId: number): string {
  return `/singleMuseum/attach/downloadFile?attachmentId=${attachmentId}`;
}
/** Matches exactly an `imagePath` and captures its id. */
export const IMAGE_PATH_RE = /^\/singleMuseum\/attach\/image\?attachmentId=([1-9]\d{0,9})$/;
