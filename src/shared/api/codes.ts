/**
 * The API's prefixes and codes (ARCHITECTURE.md §3), without the envelopes' schemas: what the
 * front end's API client needs is kept apart from zod, so the sign-in page's JavaScript does
 * not carry the schema library (issue 25). envelope.ts re-exports all of it.
 */
export const DRIVE_PREFIX = '/wangpan';
export const MUSEUM_PREFIX = '/singleMuseum';

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
