import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { PickerUser } from '../../shared/api/workflow';
import type { InstDetail, InstListQuery, InstPage, InstTemplateOption } from '../../shared/api/workflow';
import { museum } from './api';
import {
  APPROVAL_KINDS,
  overlayDetail,
  overlayList,
  type CommentMeta,
  type DecideMeta,
  type ProcessDetail,
  type ProcessRow,
} from './approval-overlay';
import { useCachedQuery } from './cached-query';
import { tApprovalProcess } from './i18n/approval-process';
import { NOTICE_KEY } from './live';
import { submitWrite } from './offline';
import type { NewOp } from './outbox';
import { session } from './session';

/**
 * The approval lists and the detail panel's data (issue 8). Lists and details are cached views
 * per user (lib/cached-query.ts): the pending, my-start and copy lists and every detail once
 * opened show offline with their last sync time. Agree, refuse, comment and read go through
 * the outbox (lib/outbox.ts): offline they are queued with their idempotency key, drawn over
 * the views as 待同步 (lib/approval-overlay.ts) and replayed once; a replay the server refuses
 * (已被他人处理, 该申请已撤销) is kept with its reason and the views refresh to the server's
 * truth. Cancel, transfer and comment deletion need the network: they are sent at once.
 */

export type { ProcessDetail, ProcessRow };
export type ListQuery = Omit<InstListQuery, 'pageCount'> & { pageCount: number };

const APPROVALS = 'approvals';
const user = () => session.get()?.user.userId ?? 0;

export const approvalKeys = {
  /** Every approval view of the signed-in user: the prefix refreshed after a write. */
  all: () => [APPROVALS, user()] as const,
  list: (q: ListQuery) => [APPROVALS, user(), 'list', q] as const,
  detail: (id: number) => [APPROVALS, user(), 'detail', id] as const,
  templates: (category: 'normal' | 'gongwen' | 'all') => [APPROVALS, user(), 'templates', category] as const,
};

/** What a decision or read changes besides our views: the notice centre's list and counts. */
const scope = () => [[...approvalKeys.all()], [NOTICE_KEY, 'approval'], [NOTICE_KEY, 'counts']];

export function useApprovalList(q: ListQuery) {
  return useCachedQuery<{ list: ProcessRow[]; total: number }>({
    queryKey: approvalKeys.list(q),
    fetch: ({ signal }) =>
      museum.get<InstPage>('/workflowInst/list', {
        query: { ...q, status: q.status, templateId: q.templateId },
        signal,
        silent: true,
      }),
    overlay: overlayList,
  });
}

export function useApprovalDetail(id: number | null) {
  const overlay = useMemo(
    () => (d: ProcessDetail, ops: Parameters<typeof overlayDetail>[2]) => overlayDetail(d, id ?? 0, ops),
    [id],
  );
  return useCachedQuery<ProcessDetail>({
    queryKey: approvalKeys.detail(id ?? 0),
    enabled: id !== null,
    fetch: async ({ signal }) => {
      const d = await museum.post<InstDetail>(
        '/workflowInst/data',
        { actvityId: id },
        { signal, silent: true },
      );
      return { ...d, queued: { syncPending: false, comments: [], read: false } };
    },
    overlay,
    // The panel shows the reason in place (审批不存在或您无权查看).
    toastErrors: false,
  });
}

/** The 模板 filter's options: a category's templates, or every template (the /approve lists). */
export function useTemplateOptions(category: 'normal' | 'gongwen' | undefined) {
  return useCachedQuery<InstTemplateOption[]>({
    queryKey: approvalKeys.templates(category ?? 'all'),
    fetch: ({ signal }) =>
      museum.get<InstTemplateOption[]>('/workflowInst/templates', {
        query: { category: category ?? 'all' },
        signal,
        silent: true,
      }),
    toastErrors: false,
  });
}

/** The transfer picker's people (选择联系人): every enabled colleague. */
export function useContacts(enabled: boolean) {
  return useQuery({
    queryKey: [APPROVALS, user(), 'contacts'],
    enabled,
    staleTime: 60_000,
    queryFn: ({ signal }) =>
      museum.get<{ userlist: PickerUser[] }>('/workflowConfig/approverUserList', { signal, silent: true }),
  });
}

function queue(op: Omit<NewOp, 'client' | 'scope'>) {
  return submitWrite({ ...op, client: 'museum', scope: scope() });
}

const O = tApprovalProcess.ops;

/**
 * The panel's writes. The queued ones resolve `{queued}` (true offline) or reject with the
 * server's words (OutboxRefusal); the online-only ones reject with an ApiError.
 */
export const approvalWrites = {
  decide: (id: number, title: string, action: 2 | 3, reason: string) =>
    queue({
      path: '/workflowInst/approval',
      body: { actvityId: id, action, ...(reason && { reason }) },
      label: action === 2 ? O.agree(title) : O.refuse(title),
      kind: APPROVAL_KINDS.decide,
      meta: { id, action, title } satisfies DecideMeta,
    }),
  comment: (id: number, title: string, comment: string) =>
    queue({
      path: '/workflowInst/comment',
      body: { actvityId: id, comment },
      label: O.comment(title),
      kind: APPROVAL_KINDS.comment,
      meta: { id, comment, title } satisfies CommentMeta,
    }),
  read: (id: number, title: string) =>
    queue({
      path: '/workflowInst/read',
      body: { actvityId: id },
      label: O.read(title),
      kind: APPROVAL_KINDS.read,
      meta: { id, title },
    }),
  cancel: (id: number, reason: string) =>
    museum.post('/workflowInst/cancel', { actvityId: id, action: 4, reason }, online()),
  deliver: (id: number, target: number) =>
    museum.post('/workflowInst/deliver', { actvityId: id, target }, online()),
  deleteComment: (id: number, commentId: number) =>
    museum.post('/workflowInst/commentDel', { actvityId: id, delete: commentId }, online()),
};

/** A write sent at once; the key still makes a double click or a retried request apply once. */
const online = () => ({ idempotencyKey: crypto.randomUUID(), silent: true });

/** After an online-only write: our views and the notice centre read the server again. */
export function refreshApprovals(qc: QueryClient) {
  for (const queryKey of scope()) void qc.invalidateQueries({ queryKey });
}

/** The print page (another part of issue 8 builds it), in a new tab. */
export function printUrl(id: number) {
  return `/singleMuseum/workflowInst/print?id=${id}`;
}
