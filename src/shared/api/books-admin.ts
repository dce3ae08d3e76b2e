import { z } from 'zod';

/**
 * The librarian's queue counts (README "Book lending"): the side menu's badges on 借阅审批,
 * 领用审批 and 续借审批 (spec §3 "Sidebar counts"; ours, the spec shows no call).
 */
export const BookQueueCounts = z.object({
  /** 借阅 applications waiting for a decision (applyType 1, status 1 待审批). */
  bookBorrowCount: z.number(),
  /** 领用 applications waiting for a decision (applyType 2, status 1 待审批). */
  bookReceiveCount: z.number(),
  /** Renewals asked for (status 6 延期审批中). */
  bookDelayCount: z.number(),
});
export type BookQueueCounts = z.infer<typeof BookQueueCounts>;
