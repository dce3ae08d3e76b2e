import { Button, Group, Modal, ScrollArea, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconCheck, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { LoadFailed } from '../../components/load-failed';
import { LoadingBlock } from '../../components/page-states';
import { UserAvatar } from '../../components/user-avatar';
import { useContacts } from '../../lib/approvals';
import { tCore } from '../../lib/i18n-core';
import { tApprovalProcess } from '../../lib/i18n/approval-process';
import { session } from '../../lib/session';

const P = tApprovalProcess.picker;

type Submit = (userId: number) => Promise<boolean>;

/**
 * 选择联系人 (spec §2, 360 px): whom to transfer my decision to. Every enabled colleague but me
 * (/workflowConfig/approverUserList), filtered by the typed name. `submit` resolves true when
 * the picker may close.
 */
export function ContactPicker({
  opened,
  onClose,
  submit,
}: {
  opened: boolean;
  onClose: () => void;
  submit: Submit;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      opened={opened}
      onClose={() => !busy && onClose()}
      title={P.title}
      size={360}
      closeOnClickOutside={false}
    >
      {/* Mounted per opening: each opening starts with no search and nobody chosen. */}
      {opened && <PickerBody onClose={onClose} submit={submit} busy={busy} setBusy={setBusy} />}
    </Modal>
  );
}

function PickerBody({
  onClose,
  submit,
  busy,
  setBusy,
}: {
  onClose: () => void;
  submit: Submit;
  busy: boolean;
  setBusy: (b: boolean) => void;
}) {
  const contacts = useContacts(true);
  const [key, setKey] = useState('');
  const [chosen, setChosen] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const me = session.get()?.user.userId;
  const people = (contacts.data?.userlist ?? []).filter(
    (u) => u.userId !== me && u.name.toLowerCase().includes(key.trim().toLowerCase()),
  );

  const go = async () => {
    if (chosen === null) {
      setError(P.choose);
      return;
    }
    setBusy(true);
    try {
      if (await submit(chosen)) onClose();
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (contacts.isPending) body = <LoadingBlock minHeight={120} />;
  else if (contacts.isError)
    body = <LoadFailed error={new Error(P.failed)} onRetry={() => void contacts.refetch()} />;
  else if (people.length === 0)
    body = (
      <Text size="sm" c="dimmed" ta="center" py="md">
        {P.none}
      </Text>
    );
  else
    body = (
      <ScrollArea.Autosize mah={360}>
        <Stack gap={2}>
          {people.map((u) => (
            <UnstyledButton
              key={u.userId}
              onClick={() => {
                setChosen(u.userId);
                setError(null);
              }}
              p={6}
              style={{
                borderRadius: 6,
                background: chosen === u.userId ? 'var(--mantine-color-blue-light)' : undefined,
              }}
              aria-pressed={chosen === u.userId}
              data-testid="contact-row"
            >
              <Group gap="sm" wrap="nowrap">
                <UserAvatar name={u.name} image={u.userImage} size={32} />
                <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                  <Text size="sm">{u.name}</Text>
                  <Text size="xs" c="dimmed" truncate>
                    {u.departmentNames}
                  </Text>
                </Stack>
                {chosen === u.userId && <IconCheck size={16} color="var(--mantine-color-blue-6)" />}
              </Group>
            </UnstyledButton>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    );

  return (
    <Stack gap="sm" data-testid="contact-picker">
      <TextInput
        placeholder={P.search}
        aria-label={P.search}
        leftSection={<IconSearch size={14} />}
        value={key}
        onChange={(e) => setKey(e.currentTarget.value)}
        data-testid="contact-search"
      />
      {body}
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={busy}>
          {tCore.common.cancel}
        </Button>
        <Button onClick={() => void go()} loading={busy} data-testid="contact-submit">
          {tCore.common.confirm}
        </Button>
      </Group>
    </Stack>
  );
}
