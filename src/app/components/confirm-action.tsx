import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import { dialogs } from '../lib/dialogs';
import { tCore } from '../lib/i18n-core';

interface ConfirmOptions {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  /** Runs on confirm; the dialog stays open with a spinner until it settles and closes only on success. */
  run: () => Promise<unknown>;
}

/**
 * A confirmation whose confirm button waits for the write. Closing at once would hide a
 * failure behind a toast with nothing left to retry from; staying open lets the user try again
 * or cancel.
 */
export function confirmAction({ title, message, confirmLabel, danger, run }: ConfirmOptions) {
  const color = danger ? 'red' : undefined;
  const modalId = dialogs.openConfirmModal({
    title,
    children: <Text size="sm">{message}</Text>,
    labels: { confirm: confirmLabel, cancel: tCore.common.cancel },
    confirmProps: { color },
    closeOnConfirm: false,
    closeOnClickOutside: false,
    onConfirm: () => {
      const busy = (loading: boolean) =>
        dialogs.updateModal({
          modalId,
          confirmProps: { color, loading },
          cancelProps: { disabled: loading },
          closeOnEscape: !loading,
          withCloseButton: !loading,
        });
      busy(true);
      run().then(
        () => dialogs.close(modalId),
        () => busy(false),
      );
    },
  });
}
