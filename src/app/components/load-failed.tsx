import { Button, EmptyState } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { tCore } from '../lib/i18n-core';

/**
 * A list or page that could not load: the reason when there is one (else a hint), and 重试.
 * The API client has usually toasted the reason already; this keeps it in place.
 */
export function LoadFailed({
  error,
  onRetry,
  retrying,
}: {
  error?: unknown;
  onRetry: () => void;
  retrying?: boolean;
}) {
  return (
    <EmptyState
      py="xl"
      icon={<IconAlertTriangle size={28} />}
      title={tCore.common.loadFailed}
      description={error instanceof Error ? error.message : tCore.common.loadFailedHint}
    >
      <EmptyState.Actions>
        <Button variant="light" onClick={onRetry} loading={retrying}>
          {tCore.common.retry}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
