import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { dialogHostListening } from './dialogs';
import { tCore as t } from './i18n-core';

/**
 * The hosts of the app's dialogs (`modals.openConfirmModal`) and toasts (`notifications.show`),
 * loaded just after the first screen (issue 25): the sign-in form needs neither, and the
 * dialog's code (Modal, its scroll area and positioning) is about a tenth of the first screen's
 * JavaScript. Both are driven through Mantine's event API and store, never through context, so
 * a host beside the app works as one around it did; a toast shown before the host is there
 * waits in the store. The router's signed-in guard waits for this chunk, so no page that could
 * open a dialog runs before its host's code has arrived, but React may draw the host itself a
 * moment after the page: dialogs asked for in between wait in lib/dialogs.ts until the effect
 * below says the host is listening.
 */
export function Overlays() {
  // Runs after ModalsProvider's own effects (children's first), so its listeners are attached.
  useEffect(() => {
    dialogHostListening(true);
    return () => dialogHostListening(false);
  }, []);
  return (
    <>
      <ModalsProvider labels={{ confirm: t.common.confirm, cancel: t.common.cancel }} />
      <Notifications position="top-center" />
    </>
  );
}
