import { ActionIcon, Group, Text } from '@mantine/core';
import { IconPaperclip, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** One attachment in a list: its name, then `status` (a size, a percentage, a reason) and `action`. */
export function AttachmentLine({
  name,
  status,
  statusColor = 'dimmed',
  action,
  testId,
}: {
  name: string;
  status: ReactNode;
  statusColor?: string;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <Group gap="xs" wrap="nowrap" data-testid={testId}>
      <IconPaperclip size={16} style={{ flex: 'none' }} />
      <Text size="sm" truncate style={{ flex: 1 }}>
        {name}
      </Text>
      <Text size="xs" c={statusColor}>
        {status}
      </Text>
      {action}
    </Group>
  );
}

/** The small ✕ that removes a line. */
export function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <ActionIcon variant="subtle" color="gray" aria-label={label} onClick={onClick}>
      <IconX size={14} />
    </ActionIcon>
  );
}
