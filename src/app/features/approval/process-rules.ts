import type { InstListState } from '../../../shared/api/workflow';
import { tApprovalProcess } from '../../lib/i18n/approval-process';

/**
 * The pure rules of the approval lists and the detail panel (issue 8): which list a route
 * shows, what it asks the server, and which buttons the panel offers (spec/office.md §4).
 */

export type Category = 'normal' | 'gongwen';
export interface ProcessRoute {
  state: InstListState;
  /** Absent: every category (the everyday /approve lists). */
  category?: Category;
  title: string;
}

const T = tApprovalProcess.titles;

/**
 * The list routes of spec §2. **Decision (issue 17 §4):** /gongwen/* list exactly the requests
 * whose template is a 公文; the everyday /approve/* lists show every request, 公文 included.
 * 普通员工 may start a 发文 from 发起审批 but has no 公文 menu, and the people who decide a
 * 公文 must find it in 待我审批 like any other request awaiting them: nothing that awaits or
 * concerns a person may be hidden in a list they cannot open.
 */
export const PROCESS_ROUTES: Readonly<Record<string, ProcessRoute>> = {
  '/approve/process-pending': { state: 'pending', title: T.pending },
  '/approve/process-done': { state: 'done', title: T.done },
  '/approve/process-mystart': { state: 'mystart', title: T.mystart },
  '/approve/process-copy': { state: 'copy', title: T.copy },
  '/gongwen/process-list': { state: 'list', category: 'gongwen', title: T.gongwenList },
  '/gongwen/process-pending': { state: 'pending', category: 'gongwen', title: T.gongwenPending },
  '/gongwen/process-mystart': { state: 'mystart', category: 'gongwen', title: T.gongwenMystart },
};

export const PAGE_SIZE = 15;

export interface ListFilters {
  keyword: string;
  /** '' for every status. */
  status: string;
  /** '' for every template. */
  templateId: string;
  page: number;
}

/** The list call of a route and its filters; empty filters are left out (one cache key each). */
export function listQuery(route: ProcessRoute, f: ListFilters) {
  const status = Number(f.status);
  const templateId = Number(f.templateId);
  return {
    state: route.state,
    ...(route.category && { category: route.category }),
    keyword: f.keyword.trim(),
    currentPage: Math.max(1, Math.floor(f.page) || 1),
    pageCount: PAGE_SIZE,
    ...([1, 3, 4, 6].includes(status) && { status }),
    ...(Number.isInteger(templateId) && templateId > 0 && { templateId }),
  };
}

/** `actvityId` of the URL (the notice popup links with it), or null when absent or not an id. */
export function parseActvityId(raw: unknown): number | null {
  const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!/^[1-9]\d{0,15}$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * The panel modes of spec §6: requester (mystart), pending approver, copy-to recipient, done.
 * 公文列表 shows every request I may read, so it opens in the read-only done mode.
 */
export type PanelMode = 'mystart' | 'pending' | 'copy' | 'done';
export function modeOf(state: InstListState): PanelMode {
  return state === 'list' ? 'done' : state;
}

export type PanelButton = 'cancel' | 'comment' | 'transfer' | 'refuse' | 'agree' | 'print';
/** Buttons that only work online (agree, refuse and comment are queued offline). */
export const NEEDS_NETWORK: readonly PanelButton[] = ['transfer', 'cancel', 'print'];

/**
 * Spec §4, in its order:
 * - requester: status 1 offers cancel (hidden when isCancel is set) and comment; status 6
 *   offers print and comment; otherwise only comment;
 * - pending approver: status 1 offers comment, transfer, refuse and agree; status 6 print and
 *   comment; otherwise (refused, cancelled) comment;
 * - copy-to and done: the spec names no buttons; as the others, print once passed, and comment.
 * A decision already taken on this device (queued) hides transfer, refuse and agree.
 */
export function panelButtons(
  mode: PanelMode,
  status: number,
  isCancel: 0 | 1,
  queuedDecision = false,
): PanelButton[] {
  if (status === 6) return ['print', 'comment'];
  if (status !== 1) return ['comment'];
  if (mode === 'mystart') return isCancel ? ['comment'] : ['cancel', 'comment'];
  if (mode === 'pending') return queuedDecision ? ['comment'] : ['comment', 'transfer', 'refuse', 'agree'];
  return ['comment'];
}

export type DialogAction = 'agree' | 'refuse' | 'cancel' | 'comment';

/** The action dialog's reason rule (spec §5): required but for agree, at most 200 characters. */
export function reasonProblem(action: DialogAction, reason: string, max: number): string | null {
  const D = tApprovalProcess.dialog;
  const text = reason.trim();
  if (action !== 'agree' && text === '') return D.required;
  if (text.length > max) return D.tooLong(max);
  return null;
}

export const STATUS_COLOR: Readonly<Record<number, string>> = { 1: 'blue', 3: 'red', 4: 'gray', 6: 'green' };
export const PRIORITY_COLOR: Readonly<Record<number, string>> = { 1: 'gray', 2: 'orange', 3: 'red' };
