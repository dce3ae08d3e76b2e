import type { QueryClient } from '@tanstack/react-query';
import { MUSEUM_PREFIX } from '../../../shared/api/codes';
import type { AddInput, BorrowCheck, UserInfo } from '../../../shared/api/books';
import type { RecordPage } from '../../../shared/records/api';
import { bsBookApproval, bsBookInfo } from '../../../shared/records/book/books';
import { museum, OfflineError } from '../../lib/api';
import { useCachedQuery } from '../../lib/cached-query';
import { recordKeys } from '../../lib/records';

/**
 * The readers' calls of book lending (shared/api/books.ts; README "Book lending"). Reads are kept
 * on the device like every record's (the catalogue, one's own applications and the rules open
 * offline with their sync time). Requests are sent at once and never queued: asking for a book,
 * cancelling, asking again and renewing all depend on the stock and rules of the moment, so
 * offline the buttons say they need the network instead (issue 22: "requests need the network
 * and say so"). Each carries an Idempotency-Key, so a double tap or a retried request lands once.
 */

const APPLY = bsBookApproval.base;
const BOOK = bsBookInfo.base;

/** The `borrow` pre-check: may I ask for this row now (changes nothing). */
export function precheck(id: number, applyType: 1 | 2, signal?: AbortSignal) {
  return museum.get<BorrowCheck>(`${BOOK}/borrow`, { query: { id, applyType }, signal, silent: true });
}

const once = () => ({ idempotencyKey: crypto.randomUUID(), silent: true });

/** `bsBookApproval/add`: the request, status 待审批. Rejects with the server's words. */
export function applyFor(input: AddInput) {
  return museum.post<{ id: number }>(`${APPLY}/add`, input, once());
}

/** The applicant's transitions, through the spec GETs' POST twins. */
export function ownTransition(
  name: 'cancel' | 'reapply' | 'applyDeferredDays',
  id: number,
  input: Record<string, unknown> = {},
) {
  return museum.post<unknown>(`${APPLY}/${name}`, { id, ...input }, once());
}

/** After a request: the catalogue's counts and one's own lists read the server again. */
export function refreshAfterRequest(qc: QueryClient) {
  void qc.invalidateQueries({ queryKey: recordKeys.all(bsBookApproval) });
  void qc.invalidateQueries({ queryKey: recordKeys.all(bsBookInfo) });
}

/** Words for a refused or failed request: offline says the request needs the network. */
export function requestError(err: unknown, offlineWords: string): string {
  if (err instanceof OfflineError) return offlineWords;
  return err instanceof Error ? err.message : String(err);
}

/** `getUserInfo`: who I am to the reading room (loans, overdue loans) and the lending rules. */
export function useReaderInfo() {
  return useCachedQuery<UserInfo>({
    queryKey: [...recordKeys.all(bsBookApproval), 'userInfo'],
    fetch: ({ signal }) => museum.get<UserInfo>(`${APPLY}/getUserInfo`, { signal, silent: true }),
    toastErrors: false,
  });
}

/**
 * One page of my own applications (`pageListEmployee`), kept on the device under the record's
 * prefix (a write to it refreshes this too) but apart from the librarian's list of everyone's.
 */
export function useOwnApplications(query: Record<string, unknown>, enabled = true) {
  return useCachedQuery<RecordPage>({
    enabled,
    queryKey: [...recordKeys.all(bsBookApproval), 'mine', query],
    fetch: ({ signal }) => {
      const q: Record<string, string | number> = {};
      for (const [k, v] of Object.entries(query))
        if (v !== undefined && v !== null && v !== '') q[k] = v as string | number;
      return museum.get<RecordPage>(`${APPLY}/pageListEmployee`, { query: q, signal, silent: true });
    },
  });
}

/**
 * The e-book of a row (`bsBookInfo/download`, served as an attachment and logged by the server):
 * a plain link, so the browser streams the file to disk with the session cookie, as the drive's
 * and 下载中心's downloads do.
 */
export function ebookHref(id: number): string {
  return `${MUSEUM_PREFIX}${BOOK}/download?id=${id}`;
}
