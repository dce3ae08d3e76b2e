import type { SidebarCounts } from './notice';

/**
 * The live stream (GET /singleMuseum/notice/stream, Server-Sent Events). Each `change` event's
 * data is `{"topics": [...], "counts"?: SidebarCounts}`: which of the signed-in user's lists
 * changed and, when the side menu's counts moved (notice, cooperation, approval), their new
 * values, so the bell moves without a round trip. The page refetches the lists and the rest of
 * the counts; no content travels on the stream.
 *
 * Kept apart from notice.ts's schemas, without zod: every signed-in page opens the stream, and
 * zod would otherwise load with the workbench (issue 25). notice.ts re-exports all of it.
 */

/**
 * `announce`: an announcement meant for me was published, withdrawn, changed or deleted.
 * `registration`: a self-registration arrived or was decided (the 人员审核 badge of its approvers).
 * `books`: the librarian's queue counts (借阅、领用、续借审批) changed.
 */
export const LIVE_TOPICS = [
  'notice',
  'cooperation',
  'approval',
  'announce',
  'registration',
  'books',
] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];
export const LIVE_STREAM_PATH = '/notice/stream';

/** The counts a change may carry: every key of SidebarCounts, which the compiler holds to. */
const COUNT_KEYS = [
  'todoCount',
  'copytoCount',
  'total',
  'noticeCount',
  'cooperationCount',
  'approvalCount',
] as const satisfies readonly (keyof SidebarCounts)[];
// Fails to compile when SidebarCounts gains a key this list lacks.
const _allKeys: Exclude<keyof SidebarCounts, (typeof COUNT_KEYS)[number]> extends never ? true : never = true;
void _allKeys;

export interface LiveChange {
  topics: LiveTopic[];
  counts?: SidebarCounts;
}

/**
 * A change event's data as the client trusts it, or null for anything else (an older or newer
 * server, a proxy's garbage): the client then rereads everything, which is always safe.
 */
export function readLiveChange(data: string): LiveChange | null {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const { topics, counts } = v as { topics?: unknown; counts?: unknown };
  if (!Array.isArray(topics) || !topics.every((t) => (LIVE_TOPICS as readonly unknown[]).includes(t)))
    return null;
  if (counts === undefined) return { topics: topics as LiveTopic[] };
  if (typeof counts !== 'object' || counts === null) return null;
  const c = counts as Record<string, unknown>;
  if (!COUNT_KEYS.every((k) => typeof c[k] === 'number' && Number.isFinite(c[k]))) return null;
  return {
    topics: topics as LiveTopic[],
    counts: Object.fromEntries(COUNT_KEYS.map((k) => [k, c[k]])) as SidebarCounts,
  };
}
