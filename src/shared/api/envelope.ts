import { z } from 'zod';

/**
 * The response envelopes (ARCHITECTURE.md §3). The drive (`/wangpan`) answers `data`, the
 * museum (`/singleMuseum`) answers `result`; both carry `success`, `code` (0 on success) and a
 * Chinese `message`.
 */
export const DRIVE_PREFIX = '/wangpan';
export const MUSEUM_PREFIX = '/singleMuseum';

export function driveEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.boolean(), code: z.number(), message: z.string(), data: data.optional() });
}
export function museumEnvelope<T extends z.ZodType>(result: T) {
  return z.object({ success: z.boolean(), code: z.number(), message: z.string(), result: result.optional() });
}

/** Business and protocol codes. 0 is success; 999 is the spec's session timeout (HTTP 999 too). */
export const ErrorCode = {
  ok: 0,
  badRequest: 400,
  notFound: 404,
  sessionExpired: 999,
  loginFailed: 1001,
  accountDisabled: 1002,
  loginLocked: 1003,
  /** Reserved by the spec for batch-import line errors. */
  batchImport: 1004,
  forbidden: 1005,
  conflict: 1007,
  rateLimited: 1008,
  inProgress: 1009,
  invalid: 1010,
  /** Sign-in with a registered phone whose registration waits for an administrator. */
  registrationPending: 1011,
  /** Sign-in with a registered phone whose registration was refused (the reason is the message). */
  registrationRefused: 1012,
  serverError: 500,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export const SESSION_EXPIRED_MESSAGE = '登录超时，请重新登录';
export const SESSION_EXPIRED_STATUS = 999;

/** Page parameters in the spec's own names (drive: currentPage, pageCount). */
export const PageQuery = z.object({
  currentPage: z.coerce.number().int().min(1).default(1),
  pageCount: z.coerce.number().int().min(1).max(200).default(20),
});
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), total: z.number() });
}
