import { z } from 'zod';
import { spoofProblem } from '../drive/names';
import { BoolFlag, Id, rule } from './fields';

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
 * - POST attach/uploadMulti: multipart, form field `tableName` first, then up to
 *   ATTACH_MULTI_MAX parts named `file`. All or none: when any file is refused (empty, too
 *   large, not allowed) none is kept and the answer is that refusal; else `result` is the
 *   Attachment of each file in the order sent (each carries its `attPath`, the spec's list).
 * - POST attach/chunk: a resumable upload in chunks of exactly ATTACH_CHUNK_BYTES
 *   (2,048,000; the last chunk is the rest), for files of more than one chunk, at most 500 MB.
 *   Multipart, the fields before the `file` part (AttachChunkFields): `uploadId` (chosen by the
 *   client, 8–64 of A–Z a–z 0–9 _ -, one per file; scoped to the caller), `chunkNumber`
 *   (1-based), `totalChunks` (= ceil(totalSize / ATTACH_CHUNK_BYTES)), `totalSize`, `fileName`,
 *   `tableName`. Every chunk repeats the same description; a different one under the same
 *   uploadId is refused. A chunk already held is not written again (a retry is harmless). The
 *   answer is AttachChunkAnswer: `uploaded` (the chunk numbers held), and when the chunk
 *   numbered `totalChunks` arrives with all others held, the chunks are assembled and hashed
 *   and `attachment` is the new Attachment (`done` true); sending that last chunk again answers
 *   the same attachment. The last chunk with others missing is refused, naming them (they
 *   stay; send the missing ones, then the last again). A chunk of the wrong size, a number out
 *   of range, a count that does not fit the size, or a size over 500 MB is refused in Chinese.
 *   GET attach/chunk?uploadId= answers `uploaded` so far (resume after a reload). Partial
 *   uploads untouched for a day are removed.
 * - POST attach/fromDrive {tableName, userFileId, image?}: an attachment made from a file of
 *   the caller's own drive (个人网盘; looked up inside their space, so another person's id
 *   answers like a missing one). The bytes are copied into the attachment store: the drive
 *   file may be edited, moved to the bin or emptied later, and the record (an approval is
 *   evidence) must keep what was submitted; both stores deduplicate by MD5 on their own, and
 *   neither's clean-up can then remove bytes the other uses. `image` true: the bytes must be a
 *   PNG, JPEG, GIF or WebP of at most 10 MB, kept as an inline image.
 */

export const ATTACH_MAX_BYTES = 500 * 1024 * 1024;
export const ATTACH_TOO_LARGE = '上传文件大小不能超过500MB';
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_TOO_LARGE = '图片大小不能超过10MB';
/**
 * The extensions of the image types an inline image may be (PNG, JPEG, GIF, WebP): what a drive
 * picker for images lists. The server decides from the bytes; this only spares a doomed pick.
 */
export const INLINE_IMAGE_EXTS = ['png', 'jpg', 'jpeg', 'gif', 'webp'] as const;
/** The spec's hint under an attachment upload (§5). */
export const ATTACH_HINT_TYPES = ['rar', 'zip', 'doc', 'docx', 'pdf', 'jpg'] as const;

/**
 * The table an attachment belongs to: a hand-made module's ('announcement', 'approval',
 * 'project') or a record's name (its rich text images and file fields). Which tables exist is
 * decided by the server, where each registers who may upload and read (an unknown one is
 * refused there with the same words).
 */
export const AttachTable = z
  .string({ message: '不支持的附件类别（tableName）' })
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,49}$/, '不支持的附件类别（tableName）');
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

/** The chunk size of attach/chunk (spec §7): every chunk but the last has exactly this many bytes. */
export const ATTACH_CHUNK_BYTES = 2_048_000;
/** How many times the client tries one chunk before giving up (spec §7). */
export const ATTACH_CHUNK_TRIES = 3;
/** Files one uploadMulti call may carry. */
export const ATTACH_MULTI_MAX = 20;

const intField = (msg: string) => z.coerce.number(msg).int(msg).min(1, msg);
export const AttachChunkFields = z.object({
  uploadId: z.string('缺少上传标识').regex(/^[A-Za-z0-9_-]{8,64}$/, '上传标识不正确'),
  chunkNumber: intField('分片序号不正确'),
  totalChunks: intField('分片数量不正确'),
  totalSize: z.coerce
    .number('文件大小不正确')
    .int('文件大小不正确')
    .min(1, '文件为空，请重新选择')
    .max(ATTACH_MAX_BYTES, ATTACH_TOO_LARGE),
  fileName: z
    .string('缺少文件名称')
    .trim()
    .min(1, '缺少文件名称')
    .max(255, '文件名称最多 255 个字')
    // The drive's rule against names that spoof what they are (shared/drive/names.ts).
    .superRefine(rule((v) => spoofProblem(v, '文件名称'))),
  tableName: AttachTable,
});
export type AttachChunkFields = z.output<typeof AttachChunkFields>;
export const AttachChunkQuery = z.object({ uploadId: AttachChunkFields.shape.uploadId });
export const AttachChunkAnswer = z.object({
  done: z.boolean(),
  uploaded: z.array(z.number()),
  attachment: Attachment.optional(),
});
export type AttachChunkAnswer = z.infer<typeof AttachChunkAnswer>;

export const AttachFromDriveBody = z.object({
  tableName: AttachTable,
  userFileId: z.coerce.number('请选择网盘中的文件').int('请选择网盘中的文件').positive('请选择网盘中的文件'),
  image: BoolFlag().default(false),
});

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
