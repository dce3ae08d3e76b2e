import type {
  ApprovalMessageRow,
  CooperationRow,
  NoticeRow,
  ResourceCounts,
  SidebarCounts,
} from '../../shared/api/notice';
import type { BookQueueCounts } from '../../shared/api/books-admin';
import type { PendingStaffCount } from '../../shared/api/registration';
import { museum } from './api';
import { useCachedQuery } from './cached-query';
import { tNotices } from './i18n/notices';
import { NOTICE_KEY, useLiveUp } from './live';
import { submitWrite } from './offline';
import {
  overlayApproval,
  overlayCooperation,
  overlayCounts,
  overlayNotices,
  type Counts,
  type NoticeOpKind,
} from './notice-overlay';
import type { NewOp } from './outbox';
import { session } from './session';

/**
 * The notice centre's data (issue 7), shared by the top bar, the side-menu badges, the popup
 * and the workbench. Every list is a cached view (lib/cached-query.ts): it shows the device's
 * copy at once and offline, with its last sync time. Reading and clearing go through the
 * outbox, so they work offline, show at once (the overlays below) and replay once online.
 */

export const noticeKeys = {
  counts: [NOTICE_KEY, 'counts'],
  notice: [NOTICE_KEY, 'notice'],
  cooperation: [NOTICE_KEY, 'cooperation'],
  approval: [NOTICE_KEY, 'approval'],
} as const;

/** The grant of 人员审核, whose holders see the count of registrations waiting. */
const PERSON_PENDING = 'system.personPending';
/** The librarian's grant (借阅审批), whose holders see the book queues' counts. */
const BOOK_MANAGE = 'book.borrowManagement';

/** The spec's count refresh (office.md §4, §9): the fallback while the live stream is down. */
export const COUNTS_REFRESH_MS = 3000;

export type { Counts };

const user = () => session.get()?.user.userId ?? 0;

/** Every count of the top bar, side menu and workbench; live, with the 3 s refresh as fallback. */
export function useCounts() {
  const live = useLiveUp();
  return useCachedQuery<Counts>({
    queryKey: [...noticeKeys.counts, user()],
    fetch: async ({ signal }) => {
      // Registrations waiting (人员审核's badge): asked only by those who decide them.
      const granted = session.get()?.menu.grantedKeys ?? [];
      const decides = granted.includes(PERSON_PENDING);
      // The book queues' waiting requests (借阅审批、领用审批、续借审批): the librarian's only.
      const lends = granted.includes(BOOK_MANAGE);
      const [side, resources, pending, books] = await Promise.all([
        museum.get<SidebarCounts>('/workflowActvity/count', { signal, silent: true }),
        museum.get<ResourceCounts>('/bsDigitalassetsInfo/countApproval', { signal, silent: true }),
        decides
          ? museum.get<PendingStaffCount>('/sysUserPending/count', { signal, silent: true })
          : Promise.resolve({}),
        lends
          ? museum.get<BookQueueCounts>('/book/bsBookApproval/countPending', { signal, silent: true })
          : Promise.resolve({}),
      ]);
      return { ...side, ...resources, ...pending, ...books };
    },
    overlay: overlayCounts,
    toastErrors: false,
    refetchInterval: live ? false : COUNTS_REFRESH_MS,
  });
}

export function useNotices(enabled = true) {
  return useCachedQuery<NoticeRow[]>({
    queryKey: [...noticeKeys.notice, user()],
    fetch: ({ signal }) => museum.post<NoticeRow[]>('/notice/list', {}, { signal, silent: true }),
    overlay: overlayNotices,
    enabled,
    toastErrors: false,
  });
}

export function useCooperation(enabled = true) {
  return useCachedQuery<CooperationRow[]>({
    queryKey: [...noticeKeys.cooperation, user()],
    fetch: ({ signal }) =>
      museum.post<CooperationRow[]>('/sysCooperation/list', {}, { signal, silent: true }),
    overlay: overlayCooperation,
    enabled,
    toastErrors: false,
  });
}

export function useApprovalMessages(enabled = true) {
  return useCachedQuery<ApprovalMessageRow[]>({
    queryKey: [...noticeKeys.approval, user()],
    fetch: ({ signal }) =>
      museum.post<ApprovalMessageRow[]>('/workflowActvity/message/list', {}, { signal, silent: true }),
    overlay: overlayApproval,
    enabled,
    toastErrors: false,
  });
}

function write(
  kind: NoticeOpKind,
  path: string,
  body: unknown,
  label: string,
  list: keyof typeof noticeKeys,
  meta = {},
) {
  const op: NewOp = {
    client: 'museum',
    path,
    body,
    label,
    kind,
    meta,
    // The list it changes and the counts: refreshed after it settles, overlaid while queued.
    scope: [[...noticeKeys[list]], [...noticeKeys.counts]],
  };
  return submitWrite(op);
}

/** The notice centre's writes; each works offline (queued, replayed once, in order). */
export const noticeWrites = {
  readNotice: (n: NoticeRow) =>
    write('notice.read', '/notice/read', { noticeId: n.noticeId }, tNotices.opRead, 'notice', {
      id: n.noticeId,
      unread: n.status === '1',
    }),
  clearNotices: () => write('notice.clear', '/notice/clear', { noticeId: '' }, tNotices.opClear, 'notice'),
  readCooperation: (c: CooperationRow) =>
    write(
      'cooperation.read',
      '/sysCooperation/read',
      { cooperationId: c.cooperationId },
      tNotices.opReadCooperation,
      'cooperation',
      { id: c.cooperationId },
    ),
  clearCooperation: () =>
    write('cooperation.clear', '/sysCooperation/clear', {}, tNotices.opClearCooperation, 'cooperation'),
  readCopy: (m: ApprovalMessageRow) =>
    write(
      'approval.read',
      '/workflowInst/read',
      { actvityId: m.actvityId },
      tNotices.opReadCopy(m.title),
      'approval',
      {
        id: m.actvityId,
      },
    ),
};

/** Opens the notice centre popup at a tab (the workbench's count tiles); the popup listens. */
export const OPEN_NOTICE_CENTRE = 'gwy:open-notice-centre';
export function openNoticeCentre(tab: 'notice' | 'cooperation' | 'approval') {
  window.dispatchEvent(new CustomEvent(OPEN_NOTICE_CENTRE, { detail: tab }));
}
