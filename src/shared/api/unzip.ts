import { z } from 'zod';
import { AreaQuery, FolderPath } from './drive';
import { Id } from './fields';

/**
 * Unzip (spec/drive.md §4 "Unzip dialog", §7 `file/unzipfile`; issue 6). The call starts a
 * server-side job and answers it; a small archive usually finishes within the answer. Jobs are
 * kept in the database, so a closed page asks again (`file/unzipjob`, `file/unzipjobs`).
 */

/** 0: into the archive's folder; 1: into a new folder named after the archive; 2: into `filePath`. */
export const UnzipMode = z.coerce
  .number()
  .int()
  .refine((v) => v === 0 || v === 1 || v === 2, '解压方式不正确');

/** POST file/unzipfile. `filePath` is the target of mode 2 (default '/'), ignored otherwise. */
export const UnzipBody = AreaQuery.extend({
  unzipMode: UnzipMode.default(0),
  userFileId: Id,
  filePath: FolderPath.optional(),
});

export const UnzipStatus = z.enum(['running', 'done', 'failed']);
export type UnzipStatus = z.infer<typeof UnzipStatus>;

/** A job as every unzip call answers it. Totals are 0 until the archive has been read. */
export const UnzipJob = z.object({
  jobId: z.string(),
  status: UnzipStatus,
  /** Chinese: 解压成功 (with notes on skipped links or replaced names), or why it failed. */
  message: z.string(),
  archiveName: z.string(),
  /** The folder the entries went (or go) into. */
  targetPath: z.string(),
  unzipMode: z.number(),
  entriesDone: z.number(),
  entriesTotal: z.number(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
  /** The top-level names created in the target (after the collision rule), once done. */
  names: z.array(z.string()),
  createTime: z.string(),
  finishTime: z.string().nullable(),
});
export type UnzipJob = z.infer<typeof UnzipJob>;

/** GET file/unzipjob: one of the caller's own jobs. */
export const UnzipJobQuery = z.object({ jobId: z.string().uuid() });

/** GET file/unzipjobs: the caller's recent jobs (newest first, at most 20, the last 7 days). */
export const UnzipJobList = z.object({ list: z.array(UnzipJob) });

/** How many recent jobs file/unzipjobs answers, and for how long a finished job is listed. */
export const UNZIP_RECENT_MAX = 20;
export const UNZIP_RECENT_MS = 7 * 24 * 3600_000;
