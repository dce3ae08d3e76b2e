import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { REASON_MAX } from '../../../shared/api/workflow';
import { tCore } from '../../lib/i18n-core';
import { tApprovalProcess } from '../../lib/i18n/approval-process';
import { reasonProblem, type DialogAction } from './process-rules';

const D = tApprovalProcess.dialog;

/**
 * The approval action dialog (spec §2, 420 px): agree with an optional opinion; refuse, cancel
 * and comment with a required reason (必填); at most 200 characters with a counter. `submit`
 * resolves true when the dialog may close; on false (the write failed) it stays open with the
 * text kept, so nothing typed is lost.
 */
export function ActionDialog({
  action,
  onClose,
  submit,
}: {
  action: DialogAction | null;
  onClose: () => void;
  submit: (action: DialogAction, reason: string) => Promise<boolean>;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      opened={action !== null}
      onClose={() => !busy && onClose()}
      title={action ? D[action] : ''}
      size={420}
      closeOnClickOutside={false}
      centered
    >
      {/* Mounted per opening: each opening starts with an empty reason. */}
      {action && (
        <DialogBody action={action} onClose={onClose} submit={submit} busy={busy} setBusy={setBusy} />
      )}
    </Modal>
  );
}

function DialogBody({
  action,
  onClose,
  submit,
  busy,
  setBusy,
}: {
  action: DialogAction;
  onClose: () => void;
  submit: (action: DialogAction, reason: string) => Promise<boolean>;
  busy: boolean;
  setBusy: (b: boolean) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  const go = async () => {
    const problem = reasonProblem(action, reason, REASON_MAX);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      if (await submit(action, reason.trim())) onClose();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="action-dialog">
      <Textarea
        label={D.reasonLabel[action]}
        placeholder={D.placeholder[action]}
        withAsterisk={action !== 'agree'}
        value={reason}
        onChange={(e) => {
          setReason(e.currentTarget.value);
          if (error) setError(null);
        }}
        error={error}
        autosize
        minRows={3}
        maxRows={8}
        maxLength={REASON_MAX}
        data-autofocus
        data-testid="action-reason"
      />
      <Text
        size="xs"
        c={reason.length >= REASON_MAX ? 'red' : 'dimmed'}
        ta="right"
        data-testid="action-counter"
      >
        {D.counter(reason.length, REASON_MAX)}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={busy}>
          {tCore.common.cancel}
        </Button>
        <Button
          onClick={() => void go()}
          loading={busy}
          color={action === 'refuse' || action === 'cancel' ? 'red' : undefined}
          data-testid="action-submit"
        >
          {D.submit}
        </Button>
      </Group>
    </Stack>
  );
}
