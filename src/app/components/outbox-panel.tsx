import {
  Badge,
  Button,
  Card,
  Drawer,
  Group,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { dialogs } from '../lib/dialogs';
import { IconAlertTriangle, IconCloudCheck, IconCloudUpload, IconRefresh } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { tCore } from '../lib/i18n-core';
import { tOffline } from '../lib/i18n/offline';
import { outbox, outboxEditors, useOutbox } from '../lib/offline';
import { useOnline } from '../lib/online';
import type { OutboxOp } from '../lib/outbox';

/**
 * The 待同步 panel (ARCHITECTURE.md §5): every queued write of this user with its state, and
 * for a write the server refused, its reason with 重试 (optionally 修改后重试) and 放弃. Shared
 * by every feature that queues writes; the button shows only while something waits.
 */
export function OutboxButton() {
  const ops = useOutbox();
  const [opened, setOpened] = useState(false);
  const failed = ops.filter((o) => o.status === 'failed').length;
  const waiting = ops.filter((o) => o.status !== 'failed' && o.status !== 'done').length;
  const o = tOffline.outbox;
  if (failed === 0 && waiting === 0 && !opened) return null;
  return (
    <>
      <Button
        variant="light"
        color={failed ? 'red' : 'yellow'}
        leftSection={failed ? <IconAlertTriangle size={16} /> : <IconCloudUpload size={16} />}
        onClick={() => setOpened(true)}
        data-testid="outbox-button"
        aria-label={`${failed ? o.failedButton : o.button} ${failed || waiting}`}
      >
        {failed ? `${o.failedButton} ${failed}` : `${o.button} ${waiting}`}
      </Button>
      <OutboxDrawer opened={opened} onClose={() => setOpened(false)} ops={ops} />
    </>
  );
}

function statusBadge(op: OutboxOp) {
  const o = tOffline.outbox;
  if (op.status === 'failed') return <Badge color="red">{o.failed}</Badge>;
  if (op.status === 'sending') return <Badge color="blue">{o.sending}</Badge>;
  if (op.status === 'done') return <Badge color="green">{o.done}</Badge>;
  return <Badge color="yellow">{o.pending}</Badge>;
}

/**
 * A binary write that cannot be sent (a document saved in the browser whose file is gone) still
 * holds the person's work: it can be downloaded from here before it is discarded.
 */
async function downloadBytes(op: OutboxOp) {
  const blob = await outbox.bytesOf(op.id);
  if (!blob) return;
  const meta = op.meta as { name?: unknown } | null;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = typeof meta?.name === 'string' && meta.name ? meta.name : 'download';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function OpCard({ op }: { op: OutboxOp }) {
  const o = tOffline.outbox;
  const editor = outboxEditors.get(op.kind);
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const problem = editing && editor ? editor.validate(value) : null;

  const retry = async () => {
    setBusy(true);
    try {
      if (editing && editor) {
        if (problem) return;
        await outbox.retry(op.id, editor.apply(op, value));
        setEditing(false);
      } else await outbox.retry(op.id);
    } finally {
      setBusy(false);
    }
  };

  const discard = () =>
    dialogs.openConfirmModal({
      title: o.discardTitle,
      children: <Text size="sm">{o.discardConfirm(op.label)}</Text>,
      labels: { confirm: o.discard, cancel: tCore.common.cancel },
      confirmProps: { color: 'red' },
      onConfirm: () => void outbox.discard(op.id),
    });

  return (
    <Card withBorder padding="sm" radius="md" data-testid="outbox-item" data-status={op.status}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
            {op.label}
          </Text>
          {statusBadge(op)}
        </Group>
        <Text size="xs" c="dimmed">
          {o.queuedAt(dayjs(op.createdAt).format('YYYY-MM-DD HH:mm:ss'))}
        </Text>
        {op.status === 'failed' && (
          <Text size="sm" c="red" data-testid="outbox-reason">
            {o.reason}
            {op.error}
          </Text>
        )}
        {op.status === 'failed' && editing && editor && (
          <TextInput
            size="sm"
            label={editor.field}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={problem}
            data-autofocus
            onKeyDown={(e) => {
              if (e.key === 'Enter') void retry();
            }}
          />
        )}
        {op.status === 'failed' && (
          <Group gap="xs" justify="flex-end">
            {editor && !editing && (
              <Button
                size="xs"
                variant="default"
                onClick={() => {
                  setValue(editor.value(op));
                  setEditing(true);
                }}
              >
                {o.edit}
              </Button>
            )}
            {op.binary && (
              <Button size="xs" variant="default" onClick={() => void downloadBytes(op)}>
                {tOffline.downloadBytes}
              </Button>
            )}
            <Button size="xs" variant="default" color="red" onClick={discard} disabled={busy}>
              {o.discard}
            </Button>
            <Button size="xs" onClick={() => void retry()} loading={busy} disabled={Boolean(problem)}>
              {o.retry}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

export function OutboxDrawer({
  opened,
  onClose,
  ops,
}: {
  opened: boolean;
  onClose: () => void;
  ops: OutboxOp[];
}) {
  const online = useOnline();
  const narrow = useMediaQuery('(max-width: 767.98px)') ?? false;
  const o = tOffline.outbox;
  const [syncing, setSyncing] = useState(false);
  const waiting = ops.some((op) => op.status === 'pending');
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 440}
      title={o.title}
      closeOnClickOutside
      data-testid="outbox-drawer"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text size="xs" c="dimmed">
            {online ? o.orderHint : o.offlineHint}
          </Text>
          {waiting && online && (
            <Tooltip label={o.syncNow}>
              <Button
                size="xs"
                variant="light"
                leftSection={<IconRefresh size={14} />}
                loading={syncing}
                onClick={() => {
                  setSyncing(true);
                  void outbox.replay().finally(() => setSyncing(false));
                }}
              >
                {o.syncNow}
              </Button>
            </Tooltip>
          )}
        </Group>
        {ops.length === 0 ? (
          <Stack align="center" gap={6} py="xl">
            <IconCloudCheck size={36} color="var(--mantine-color-green-6)" />
            <Text fw={500}>{o.empty}</Text>
            <Text size="sm" c="dimmed" ta="center">
              {o.emptyHint}
            </Text>
          </Stack>
        ) : (
          <ScrollArea.Autosize mah="calc(100dvh - 140px)">
            <Stack gap="sm">
              {ops.map((op) => (
                <OpCard key={op.id} op={op} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Stack>
    </Drawer>
  );
}
