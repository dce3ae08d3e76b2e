import { notifications } from '@mantine/notifications';
import { t } from '../../../lib/i18n';

/** Every drive dialog reports its outcome to its opener (spec §2 "Dialogs and overlays"). */
export type DialogResult = 'confirm' | 'cancel';

/** Dialog widths (spec §9): 550 standard, 700 the move (and copy) dialog. */
export const DIALOG_WIDTH = { standard: 550, move: 700 } as const;

export function notifyDone(message: string, queued: boolean) {
  if (queued) notifications.show({ color: 'yellow', message: t.offline.queuedToast, autoClose: 4000 });
  else notifications.show({ color: 'green', message });
}
