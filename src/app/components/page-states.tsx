import type { ReactNode } from 'react';
import { Center, EmptyState, Loader, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconInbox } from '@tabler/icons-react';
import { LoadFailed } from './load-failed';
import { t } from '../lib/i18n';

/** Shared page bits: state blocks, the success toast and the async confirm dialog. */

export function notifySuccess(message: string) {
  notifications.show({ color: 'green', message });
}

export function LoadingBlock({ minHeight = 160 }: { minHeight?: number }) {
  return (
    <Center mih={minHeight} aria-busy="true" aria-label={t.common.loading}>
      <Loader size="sm" />
    </Center>
  );
}

/** Shown when a list could not load; the reason was already toasted by the API client. */
export function ErrorBlock({ onRetry, retrying }: { onRetry: () => void; retrying?: boolean }) {
  return <LoadFailed onRetry={onRetry} retrying={retrying} />;
}

export function EmptyBlock({
  title = t.common.empty,
  description,
  action,
}: {
  title?: string;
  description?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <EmptyState py="xl" icon={<IconInbox size={28} />} title={title} description={description}>
      {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
    </EmptyState>
  );
}

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
  const modalId = modals.openConfirmModal({
    title,
    children: <Text size="sm">{message}</Text>,
    labels: { confirm: confirmLabel, cancel: t.common.cancel },
    confirmProps: { color },
    closeOnConfirm: false,
    closeOnClickOutside: false,
    onConfirm: () => {
      const busy = (loading: boolean) =>
        modals.updateModal({
          modalId,
          confirmProps: { color, loading },
          cancelProps: { disabled: loading },
          closeOnEscape: !loading,
          withCloseButton: !loading,
        });
      busy(true);
      run().then(
        () => modals.close(modalId),
        () => busy(false),
      );
    },
  });
}
