import { notifications } from '@mantine/notifications';
import type { SavedOfficeFile } from '../../shared/api/office';
import { tOffline } from './i18n/offline';
import type { OutboxOp } from './outbox';

/** The outbox kind of a document saved in the browser (lib/office-save.ts). */
export const OFFICE_SAVE_KIND = 'office.save';

export interface OfficeSaveMeta {
  userFileId: number;
  /** The file's full name when it was saved, for messages. */
  name: string;
}

/**
 * A queued save that reached the server later (replayed when the network came back) may have
 * become a conflict copy: the person is told where their work went.
 */
export function announceReplayedSave(op: OutboxOp, data: unknown) {
  if (op.kind !== OFFICE_SAVE_KIND) return;
  const saved = data as Partial<SavedOfficeFile> | undefined;
  if (!saved?.conflict || !saved.fileName) return;
  const meta = op.meta as OfficeSaveMeta | null;
  notifications.show({
    color: 'orange',
    autoClose: false,
    message: tOffline.officeReplayedConflict(
      meta?.name ?? '',
      saved.extendName ? `${saved.fileName}.${saved.extendName}` : saved.fileName,
    ),
  });
}
