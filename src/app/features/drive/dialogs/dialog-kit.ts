import { notifications } from '@mantine/notifications';
import { tOffline } from '../../../lib/i18n/offline';

/** The toast after a drive write: done, or waiting in the outbox (offline). */
export function notifyDone(message: string, queued: boolean) {
  if (queued) notifications.show({ color: 'yellow', message: tOffline.queuedToast, autoClose: 4000 });
  else notifications.show({ color: 'green', message });
}
