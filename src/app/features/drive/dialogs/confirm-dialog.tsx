import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { tCore } from '../../../lib/i18n-core';
import { OutboxRefusal } from '../../../lib/outbox';
import { DIALOG_WIDTH, type DialogResult } from '../../../components/dialog-kit';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: ReactNode;
  note?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  /** Shown beside a spinner while the write runs (the restore dialog's loading message). */
  busyText?: string;
  /** Formats a refusal for display (delete: '删除失败，{message}'). */
  refusal?: (message: string) => string;
  /** Runs on confirm; resolves `true` when the write only got queued (offline). */
  run: () => Promise<boolean>;
  onClose: (result: DialogResult, queued?: boolean) => void;
}

/**
 * The drive's confirmations (删除文件, 永久删除, 还原文件): 550 px, the confirm button waits for
 * the write with a loading state, a refusal stays in the dialog with the server's reason, and
 * the opener hears 'confirm' or 'cancel'. Mounted afresh for each opening (the opener keys it).
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const queued = await props.run();
      props.onClose('confirm', queued);
    } catch (err) {
      const message =
        err instanceof OutboxRefusal || err instanceof Error ? err.message : tCore.errors.server;
      setError(props.refusal ? props.refusal(message) : message);
      setBusy(false);
    }
  };

  const cancel = () => {
    if (!busy) props.onClose('cancel');
  };

  return (
    <Modal
      opened={props.opened}
      onClose={cancel}
      title={props.title}
      size={DIALOG_WIDTH.standard}
      closeOnEscape={!busy}
      withCloseButton={!busy}
    >
      <Stack gap="sm">
        <Text size="sm">{props.message}</Text>
        {props.note && (
          <Text size="sm" c="dimmed">
            {props.note}
          </Text>
        )}
        {busy && props.busyText && (
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              {props.busyText}
            </Text>
          </Group>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={cancel} disabled={busy}>
            {tCore.common.cancel}
          </Button>
          <Button
            color={props.danger ? 'red' : undefined}
            loading={busy}
            onClick={() => void confirm()}
            data-autofocus
          >
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
