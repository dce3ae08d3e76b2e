import { IconDownload } from '@tabler/icons-react';
import { MUSEUM_PREFIX } from '../../../shared/api/codes';
import { bsBookInfo } from '../../../shared/records/book/books';
import { errorToast } from '../../lib/api';
import { tBooksIsbn } from '../../lib/i18n/books-isbn';
import { isOnline } from '../../lib/online';

/**
 * 下载电子版 for a catalogue row (`GET bsBookInfo/download`, README "Book lending"): a navigation,
 * as the drive's and 下载中心's downloads, so the browser streams the file to disk with the
 * session cookie; the server names the file after the title and logs the download. Offline it
 * says the download needs the network instead of leaving a failed download behind.
 */

export const ebookUrl = (id: number) => `${MUSEUM_PREFIX}${bsBookInfo.base}/download?id=${id}`;

export function downloadEbook(id: number): void {
  if (!isOnline()) {
    errorToast(tBooksIsbn.ebookOffline);
    return;
  }
  const a = document.createElement('a');
  a.href = ebookUrl(id);
  a.download = '';
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * The row action a catalogue page passes to RecordListPage's `rowActions` (shaped as its
 * RowActionDef): shown only for rows that carry an e-book.
 */
export function ebookRowActions(row: { id: number; ebookFileId?: unknown }) {
  return Array.isArray(row.ebookFileId) && row.ebookFileId.length
    ? [
        {
          key: 'ebook',
          label: tBooksIsbn.ebook,
          icon: IconDownload,
          run: () => downloadEbook(row.id),
        },
      ]
    : [];
}
