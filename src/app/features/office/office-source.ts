import type { AreaQuery } from '../../../shared/api/drive';
import { SESSION_EXPIRED_STATUS } from '../../../shared/api/codes';
import { sessionExpired } from '../../lib/api';
import { tCore } from '../../lib/i18n-core';
import { tPreview } from '../../lib/i18n/preview';
import { isOnline, serverAnswered, serverUnreachable } from '../../lib/online';

/*
 * Where the /onlyoffice page gets its facts. The route's query is all it is given
 * (spec/office.md §2: userFileId, fileName, extendName, filePath, ot, plus the drive area flags
 * fileType, isAdmin, isFmt). `fileUrl` of the spec is never read: the page only ever fetches our
 * own download address, so a crafted link cannot point it anywhere else.
 *
 * The read-only viewer takes the bytes from `filetransfer/downloadfile` (the session cookie
 * authorises a GET), which the server always sends as an `application/octet-stream`
 * attachment with nosniff: no office file is ever served as active content on our origin, and
 * the preview route stays as it is. (This feature folder does not import the drive's, so the
 * two URL builders below are its own, over the same contract.)
 */

export type OfficeMode = 'add' | 'detail' | 'edit';

export interface OfficeQuery {
  userFileId: number | null;
  fileName: string;
  extendName: string;
  filePath: string;
  ot: OfficeMode;
  area: AreaQuery;
}

const flag = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined);

export function readQuery(search: Record<string, string | undefined>): OfficeQuery {
  const id = flag(search.userFileId);
  const ot = search.ot === 'edit' || search.ot === 'add' ? search.ot : 'detail';
  const area: AreaQuery = {};
  for (const k of ['fileType', 'isFmt'] as const) {
    const v = flag(search[k]);
    if (v !== undefined) area[k] = v;
  }
  // isAdmin is a yes/no (AreaQuery: 0 or 1); only 1 ever asked for the management rights.
  const admin = flag(search.isAdmin);
  if (admin !== undefined) area.isAdmin = admin === 1 ? 1 : 0;
  return {
    userFileId: id && id > 0 ? id : null,
    fileName: search.fileName ?? '',
    extendName: (search.extendName ?? '').toLowerCase(),
    filePath: search.filePath?.startsWith('/') ? search.filePath : '/',
    ot,
    area,
  };
}

function areaParams(area: AreaQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(area)) if (v !== undefined) params.set(k, String(v));
  return params;
}

/** The address that downloads the file (a navigation: the browser streams it to disk). */
export function downloadHref(area: AreaQuery, userFileId: number): string {
  const params = areaParams(area);
  params.set('userFileId', String(userFileId));
  return `/wangpan/filetransfer/downloadfile?${params.toString()}`;
}

/** The drive folder the file lives in, on the drive route of its area (the 返回 target). */
export function driveFolder(
  area: AreaQuery,
  filePath: string,
): { to: string; search: Record<string, string> } {
  if (area.isFmt === 2) return { to: '/resources/hd-picture-management', search: { isFmt: '2', filePath } };
  if (area.isAdmin === 1)
    return { to: '/resources/other-resource-management', search: { isAdmin: '1', filePath } };
  if (area.fileType === 9) return { to: '/resources/other-resource', search: { fileType: '9', filePath } };
  return { to: '/resources/net-disk', search: { fileType: '0', filePath } };
}

/** A file's bytes, and the MD5 of that content when the server named it (the ETag). */
export interface LoadedBytes {
  bytes: ArrayBuffer;
  md5: string | null;
}

/** The file's bytes for the viewer and the editors. Throws with a Chinese message a person can act on. */
export async function loadBytes(
  area: AreaQuery,
  userFileId: number,
  signal?: AbortSignal,
): Promise<LoadedBytes> {
  let res: Response;
  try {
    res = await fetch(downloadHref(area, userFileId), { credentials: 'same-origin', signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    serverUnreachable();
    throw new Error(isOnline() ? tPreview.office.loadFailed : tPreview.office.offline, { cause: err });
  }
  serverAnswered();
  if (res.status === SESSION_EXPIRED_STATUS) {
    sessionExpired();
    throw new Error(tCore.session.expired);
  }
  if (!res.ok || res.headers.get('content-type')?.includes('json')) {
    let message: string = tPreview.office.loadFailed;
    try {
      message = ((await res.json()) as { message?: string }).message ?? message;
    } catch {
      /* not an envelope: keep the generic message */
    }
    throw new Error(message);
  }
  // The download's ETag is the content's MD5: the version an edit continues from.
  const tag = /^"?([0-9a-f]{32})"?$/i.exec(res.headers.get('etag') ?? '');
  return { bytes: await res.arrayBuffer(), md5: tag ? tag[1]!.toLowerCase() : null };
}

const MANAGE_GRANT = { res: 'resources.otherResourceManagement', hd: 'resources.hdPicture' } as const;

/**
 * Whether the signed-in person may change files of this area (the server's areas.manage):
 * always in their own drive, in a library with its management page's grant. Decides whether the
 * page offers 编辑; the server checks again on saving.
 */
export function mayEdit(area: AreaQuery, grantedKeys: readonly string[]): boolean {
  if (area.projectId !== undefined) return false;
  if (area.isFmt === 2) return grantedKeys.includes(MANAGE_GRANT.hd);
  if (area.fileType === 9 || area.isAdmin === 1 || area.isFmt === 1)
    return grantedKeys.includes(MANAGE_GRANT.res);
  return true;
}
