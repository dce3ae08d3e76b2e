import { z } from 'zod';

/**
 * The response envelopes (ARCHITECTURE.md §3). The drive (`/wangpan`) answers `data`, the
 * museum (`/singleMuseum`) answers `result`; both carry `success`, `code` (0 on success) and a
 * Chinese `message`.
 */
// The prefixes and codes live in codes.ts, free of zod, for the sign-in page's light client.
export {
  DRIVE_PREFIX,
  ErrorCode,
  MUSEUM_PREFIX,
  SESSION_EXPIRED_MESSAGE,
  SESSION_EXPIRED_STATUS,
  type ErrorCodeValue,
} from './codes';

export function driveEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.boolean(), code: z.number(), message: z.string(), data: data.optional() });
}
export function museumEnvelope<T extends z.ZodType>(result: T) {
  return z.object({ success: z.boolean(), code: z.number(), message: z.string(), result: result.optional() });
}

/** Page parameters in the spec's own names (drive: currentPage, pageCount). */
export const PageQuery = z.object({
  currentPage: z.coerce.number().int().min(1).default(1),
  pageCount: z.coerce.number().int().min(1).max(200).default(20),
});
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), total: z.number() });
}
