import type { z } from 'zod';
import type {
  AnnounceAdminPage,
  AnnounceCreate,
  AnnounceDetail,
  AnnouncePageQuery,
  AnnounceReadPage,
  AnnounceReadQuery,
  AnnounceSaved,
  AnnounceUpdate,
  Audience,
} from '../../../shared/api/announce';
import dayjs from 'dayjs';
import { museum } from '../../lib/api';
import { ANNOUNCE_KEY } from '../../lib/live';
import { tAnnounce } from '../../lib/i18n/announce';

type AdminQuery = z.output<typeof AnnouncePageQuery>;
type ReadQuery = z.output<typeof AnnounceReadQuery>;

/**
 * The calls of 信息发布 (src/shared/api/announce.ts); every query lives under ['announce', …],
 * the prefix the live stream refreshes when an announcement changes for me (lib/live.ts).
 */
export const announceKeys = {
  all: [ANNOUNCE_KEY] as const,
  admin: (q: AdminQuery) => [ANNOUNCE_KEY, 'admin', q] as const,
  read: (q: ReadQuery) => [ANNOUNCE_KEY, 'read', q] as const,
  detail: (id: number) => [ANNOUNCE_KEY, 'detail', id] as const,
  /**
   * The editor's own read of a record (not the device-cached reader view). Outside the prefix:
   * a live refresh must not reload the record under the person's edits.
   */
  edit: (id: number) => ['announce-edit', id] as const,
};

export const announceCalls = {
  adminPage: (q: AdminQuery, signal?: AbortSignal) =>
    museum.get<AnnounceAdminPage>('/infoPublish/pageList', { query: q, signal }),
  readPage: (q: ReadQuery, signal?: AbortSignal) =>
    museum.get<AnnounceReadPage>('/infoPublish/readList', { query: q, signal }),
  detail: (id: number, opts: { signal?: AbortSignal; silent?: boolean } = {}) =>
    museum.get<AnnounceDetail>('/infoPublish/detail', { query: { id }, ...opts }),
  add: (body: z.output<typeof AnnounceCreate>, idempotencyKey: string) =>
    museum.post<AnnounceSaved>('/infoPublish/add', body, { idempotencyKey, silent: true }),
  edit: (body: z.output<typeof AnnounceUpdate>, idempotencyKey: string) =>
    museum.post<AnnounceSaved>('/infoPublish/edit', body, { idempotencyKey, silent: true }),
  remove: (id: number, idempotencyKey: string) =>
    museum.post<unknown>('/infoPublish/delete', { id }, { idempotencyKey }),
  publishOrCancel: (id: number, status: 1 | 2, idempotencyKey: string) =>
    museum.post<{ status: number }>('/infoPublish/publishOrCancel', { id, status }, { idempotencyKey }),
};

/** 全员, the departments' names, or the first names and how many people. */
export function audienceSummary(a: Audience): string {
  const A = tAnnounce.audience;
  if (a.type === 'all') return A.all;
  if (a.type === 'dept') return a.depts.map((d) => d.name).join('、') || A.none;
  if (a.users.length <= 3) return a.users.map((u) => u.name).join('、') || A.none;
  return A.people(
    a.users
      .slice(0, 3)
      .map((u) => u.name)
      .join('、'),
    a.users.length,
  );
}

export function formatTime(ms: number | null): string {
  return ms === null ? '—' : dayjs(ms).format('YYYY-MM-DD HH:mm');
}
