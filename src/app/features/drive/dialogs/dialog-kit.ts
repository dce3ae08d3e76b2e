import { notifications } from '@mantine/notifications';
import { t } from '../../../lib/i18n';

/** The toast after a drive write: done, or waiting in the outbox (offline). */
export function notifyDone(message: string, queued: boolean) {
  if (queued) notifications.show({ color: 'yellow', message: t.offline.queuedToast, autoClose: 4000 });
  else notifications.show({ color: 'green', message });
}
