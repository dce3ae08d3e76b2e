import type { AreaQuery } from '../../shared/api/drive';
import { tPreview } from './i18n/preview';
import { submitWrite } from './offline';
import { OFFICE_SAVE_KIND, type OfficeSaveMeta } from './office-save-notice';
import type { SubmitResult } from './outbox';

/*
 * Saving a document edited in the browser (POST /wangpan/office/savefile; contract in
 * shared/api/office.ts). It goes through the outbox like every other write: online it is sent
 * at once, offline it waits — its bytes kept as a Blob in IndexedDB beside the queued row, so a
 * reload or an app restart loses nothing — and replays once, in order, with its fixed
 * Idempotency-Key. The save names the content it continues from (`baseMd5`): the server never
 * overwrites somebody else's newer version with it, but stores a conflict copy instead.
 */

export { OFFICE_SAVE_KIND, type OfficeSaveMeta } from './office-save-notice';

export function saveOfficeFile(p: {
  area: AreaQuery;
  userFileId: number;
  name: string;
  bytes: Uint8Array;
  baseMd5: string;
  asCopy?: boolean;
}): Promise<SubmitResult> {
  const meta: OfficeSaveMeta = { userFileId: p.userFileId, name: p.name };
  const query: Record<string, string | number> = { userFileId: p.userFileId, baseMd5: p.baseMd5 };
  for (const [k, v] of Object.entries(p.area)) if (v !== undefined) query[k] = v;
  if (p.asCopy) query.asCopy = 1;
  return submitWrite({
    client: 'drive',
    path: '/office/savefile',
    body: null,
    query,
    blob: new Blob([p.bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }),
    label: p.asCopy ? tPreview.office.savedCopyLabel(p.name) : tPreview.office.savedLabel(p.name),
    kind: OFFICE_SAVE_KIND,
    // The drive's views show the new size and time (or the copy) once it lands.
    scope: [['drive']],
    meta,
  });
}
