import { z } from 'zod';
import { NAME_MAX } from '../drive/names';
import { Flag } from './fields';

/**
 * The chunked upload (spec/drive.md §7; issue 4), compatible with simple-uploader.js: its test
 * request (GET) and each chunk (multipart POST, field `file`) carry these parameters.
 */

// The most one file may be, without zod for the upload queue every signed-in page resumes:
// upload-limits.ts.
export { UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE } from './upload-limits';
/** Bounds of the client-chosen chunk size (nominally 1 MiB). The last chunk may be up to twice it. */
export const CHUNK_MIN_BYTES = 64 * 1024;
export const CHUNK_MAX_BYTES = 2 * 1024 * 1024;
/** Body limit of the chunk route: the largest last chunk plus multipart overhead. */
export const CHUNK_BODY_LIMIT = 4 * 1024 * 1024 + 64 * 1024;

// Messages come from the error map with the field's name: 分片序号必须是数字, 分片序号不能小于 1.
const Int = (min: number) => z.coerce.number().int().min(min);

export const UploadParams = z.object({
  chunkNumber: Int(1),
  chunkSize: Int(1),
  currentChunkSize: Int(0),
  totalSize: Int(0),
  identifier: z.string().regex(/^[0-9a-f]{32}$/, '文件标识不正确'),
  filename: z
    .string()
    .min(1, '文件名称不能为空')
    // The name rules proper run in the service; the cap gives their words (it said 文件名称过长).
    .max(NAME_MAX + 45, `文件名称不能超过 ${NAME_MAX} 个字符`),
  relativePath: z.string().max(4096, '路径过长').default(''),
  totalChunks: Int(1),
  filePath: z.string().max(4096, '路径过长').default('/'),
  /** The answer to `challenge`: md5 of (nonce as UTF-8 bytes + the file's bytes start..end). */
  proof: z
    .string()
    .regex(/^[0-9a-f]{32}$/, '校验值不正确')
    .optional(),
  fileType: z.coerce.number().int().min(0).max(99).optional(),
  isFmt: z.coerce.number().int().min(0).max(99).optional(),
  isAdmin: Flag().optional(),
  /** A project's documents (AreaQuery). */
  projectId: z.coerce.number().int().positive('项目不正确').optional(),
});
export type UploadParams = z.output<typeof UploadParams>;

/**
 * The cancel call (issue 16 §1): `DELETE /wangpan/filetransfer/uploadfile` with the upload's
 * key in the query string (as the test request names it) drops the caller's own unfinished
 * session at once, its chunks and the room it held. Idempotent; answers `{cancelled}`.
 */
export const UploadCancelParams = UploadParams.pick({
  identifier: true,
  filename: true,
  relativePath: true,
  filePath: true,
  fileType: true,
  isFmt: true,
  isAdmin: true,
  projectId: true,
});
export type UploadKey = Pick<UploadParams, 'identifier' | 'filename' | 'relativePath' | 'filePath'>;

/** The answer of the test request and of each chunk. */
export interface UploadAnswer {
  skipUpload: boolean;
  /** The chunk numbers the server holds, ascending. */
  uploaded: number[];
  /** True when the file exists in the drive (instant upload, or the last chunk completed it). */
  done?: boolean;
  userFileId?: number;
  /**
   * Proof of possession, sent when the content exists on the server but not in the caller's
   * area: repeat the test request with `proof` = md5(nonce + bytes[start..end], both inclusive)
   * to get `skipUpload`. A client that cannot answer simply uploads the chunks.
   */
  challenge?: { nonce: string; start: number; end: number };
}

/** The most bytes a proof-of-possession range covers. */
export const PROOF_RANGE_BYTES = 64 * 1024;
