import { Badge, Group, Loader, Text, Tooltip } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import dayjs from 'dayjs';
import type { CachedView } from '../lib/cached-query';
import { tOffline } from '../lib/i18n/offline';

/** 'today 10:32' style for the last sync: the time alone today, the date too otherwise. */
export function syncTime(ms: number | undefined): string {
  if (!ms) return tOffline.neverSynced;
  const d = dayjs(ms);
  return d.isSame(dayjs(), 'day') ? d.format('HH:mm') : d.format('YYYY-MM-DD HH:mm');
}

/**
 * The 离线 mark of a cached view and when it was last synced (ARCHITECTURE.md §5: offline,
 * screens "say so, and show when it was last synced"); a small spinner while a refresh runs.
 */
export function OfflineNote({
  view,
}: {
  view: Pick<CachedView<unknown>, 'offline' | 'syncedAt' | 'refreshing' | 'status'>;
}) {
  if (view.offline && view.status === 'ready') {
    return (
      <Group gap={6} wrap="nowrap" data-testid="offline-mark" style={{ flex: 'none' }}>
        <Badge color="yellow" variant="light" leftSection={<IconCloudOff size={12} />} radius="sm">
          {tOffline.mark}
        </Badge>
        <Text size="xs" c="dimmed" data-testid="last-sync" style={{ whiteSpace: 'nowrap' }}>
          {tOffline.lastSync(syncTime(view.syncedAt))}
        </Text>
      </Group>
    );
  }
  if (view.refreshing && view.status === 'ready') {
    return (
      <Tooltip label={tOffline.syncing}>
        <Loader size={14} role="status" aria-label={tOffline.syncing} />
      </Tooltip>
    );
  }
  return null;
}
