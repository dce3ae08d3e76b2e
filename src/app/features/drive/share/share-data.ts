import type { z } from 'zod';
import type {
  CancelShareBody,
  MyShareEntry,
  MyShareList,
  SaveShareBody,
  ShareFileBody,
  ShareFileList,
  ShareInfo,
  ShareResult,
  ShareToUsersBody,
  UserLookupRow,
} from '../../../../shared/api/share';
import { sharePath, shareText } from '../../../../shared/drive/share-rules';
import { drive, museum } from '../../../lib/api';
import { useCachedQuery } from '../../../lib/cached-query';
import { allPages, PAGE_SIZE } from '../drive-data';

/**
 * Sharing's calls over the contract in shared/api/share.ts. The visitor's calls pass
 * `quietExpiry`: with SHARE_REQUIRE_LOGIN the server answers HTTP 999 to anonymous visitors,
 * and the share page sends them to /login and back instead of the 登录超时 dialog.
 */

type Body<T extends z.ZodType> = z.input<T>;

export const shareKeys = {
  mine: ['share', 'mine'] as const,
};

/** The absolute address of a share link, as the copy text and the success view show it. */
export function shareLink(shareBatchNum: string): string {
  return new URL(sharePath(shareBatchNum), window.location.origin).toString();
}

/** The text a person copies to pass a share on (link, code if any, how to use them). */
export function shareCopyText(shareBatchNum: string, extractionCode: string | null): string {
  return shareText(shareLink(shareBatchNum), extractionCode);
}

/** Writes text to the clipboard; false when the browser refuses (no permission, insecure page). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export const shareCalls = {
  create: (body: Body<typeof ShareFileBody>) =>
    drive.post<ShareResult>('/share/sharefile', body, { silent: true }),
  lookup: (nameOrPhone: string, signal?: AbortSignal) =>
    museum.get<UserLookupRow[]>('/sysUser/lookup', { query: { nameOrPhone }, silent: true, signal }),
  sendToUsers: (body: Body<typeof ShareToUsersBody>) =>
    museum.post<unknown>('/notice/shareFileToUsers', body, { silent: true }),
  cancel: (body: Body<typeof CancelShareBody>) =>
    drive.post<unknown>('/share/cancelshare', body, { silent: true }),

  // ——— the visitor's calls (no session needed, unless the server requires sign-in) ———
  info: (shareBatchNum: string) =>
    drive.get<ShareInfo>('/share/sharetype', { query: { shareBatchNum }, silent: true, quietExpiry: true }),
  checkCode: (shareBatchNum: string, extractionCode: string) =>
    drive.get<unknown>('/share/checkextractioncode', {
      query: { shareBatchNum, extractionCode },
      silent: true,
      quietExpiry: true,
    }),
  list: (shareBatchNum: string, shareFilePath: string, signal?: AbortSignal) =>
    allPages(
      (page) =>
        drive.get<ShareFileList>('/share/sharefileList', {
          query: { shareBatchNum, shareFilePath, currentPage: page, pageCount: PAGE_SIZE },
          silent: true,
          quietExpiry: true,
          signal,
        }),
      () => undefined,
    ),
  save: (body: Body<typeof SaveShareBody>) =>
    drive.post<unknown>('/share/savesharefile', body, { silent: true, quietExpiry: true }),
};

/** 我的分享: every page of share/shareList, kept on the device like the other drive lists. */
export function useMyShares() {
  return useCachedQuery<{ list: MyShareEntry[]; total: number }>({
    queryKey: shareKeys.mine,
    fetch: ({ signal, progress }) =>
      allPages(
        (page) =>
          drive.get<MyShareList>('/share/shareList', {
            query: { currentPage: page, pageCount: PAGE_SIZE },
            signal,
            silent: true,
          }),
        progress,
      ),
  });
}
