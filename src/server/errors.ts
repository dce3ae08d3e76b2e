import { ErrorCode, type ErrorCodeValue } from '../shared/api/envelope';

/**
 * A failure a user can act on. Services throw these; the error plugin turns them into the
 * envelope with the Chinese message. Business failures answer HTTP 200 with success:false
 * (ARCHITECTURE.md §3), so `httpStatus` is only set for protocol-level failures.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCodeValue,
    message: string,
    readonly httpStatus = 200,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const invalid = (message: string) => new AppError(ErrorCode.invalid, message);
export const notFound = (message: string) => new AppError(ErrorCode.notFound, message);
export const conflict = (message: string) => new AppError(ErrorCode.conflict, message);
export const forbidden = (message = '无权限执行此操作') => new AppError(ErrorCode.forbidden, message);
