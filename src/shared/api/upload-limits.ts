/**
 * The most one file may be (spec/drive.md §7). Kept apart from upload.ts's schemas, without
 * zod, because the upload queue resumes with every signed-in page and zod would otherwise load
 * with the workbench (issue 25). upload.ts re-exports both.
 */
export const UPLOAD_MAX_BYTES = 500 * 1024 * 1024;
export const UPLOAD_TOO_LARGE = '上传文件大小不能超过500MB';
