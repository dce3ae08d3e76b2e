import { Button } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A small text button in a table row's 操作 cell (edit, delete, reset …), the same on every admin page. */
export function RowAction(props: { icon: Icon; color?: string; onClick: () => void; children: ReactNode }) {
  return (
    <Button
      size="xs"
      variant="subtle"
      color={props.color}
      leftSection={<props.icon size={14} />}
      onClick={props.onClick}
    >
      {props.children}
    </Button>
  );
}
