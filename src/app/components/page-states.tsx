import type { ReactNode } from 'react';
import { Center, EmptyState, Loader } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconInbox } from '@tabler/icons-react';
import { LoadFailed } from './load-failed';
import { tCore } from '../lib/i18n-core';

/** Shared page bits: state blocks, the success toast and the async confirm dialog. */

/** The confirm dialog, also exported here with the other page bits. */
export { confirmAction } from './confirm-action';

export function notifySuccess(message: string) {
  notifications.show({ color: 'green', message });
}

export function LoadingBlock({ minHeight = 160 }: { minHeight?: number }) {
  return (
    <Center mih={minHeight} aria-busy="true" aria-label={tCore.common.loading}>
      <Loader size="sm" />
    </Center>
  );
}

/** Shown when a list could not load; the reason was already toasted by the API client. */
export function ErrorBlock({ onRetry, retrying }: { onRetry: () => void; retrying?: boolean }) {
  return <LoadFailed onRetry={onRetry} retrying={retrying} />;
}

export function EmptyBlock({
  title = tCore.common.empty,
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
