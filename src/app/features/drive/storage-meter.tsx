import { Group, Progress, Stack, Text } from '@mantine/core';
import { IconDatabase } from '@tabler/icons-react';
import { formatSize } from '../../../shared/drive/file-types';
import { tDrive } from '../../lib/i18n/drive';
import { useStorage } from './drive-data';
import classes from './drive.module.css';

/**
 * 存储空间: used and total of the personal drive (filetransfer/getstorage), shown at the foot
 * of the 数字资源 side menu as the spec's drive shows it. Cached for offline like every read;
 * refreshed after each drive write (every write's scope includes the storage key).
 */
export function StorageMeter() {
  const storage = useStorage();
  const s = storage.data;
  if (!s) return null;
  const pct =
    s.totalStorageSize > 0 ? Math.min(100, Math.round((s.storageSize / s.totalStorageSize) * 100)) : 0;
  const color = pct >= 90 ? 'red' : pct >= 75 ? 'orange' : 'museum';
  return (
    <Stack gap={6} className={classes.storage} data-testid="storage-meter">
      <Group gap={6} justify="space-between" wrap="nowrap">
        <Group gap={4} wrap="nowrap">
          <IconDatabase size={14} color="var(--mantine-color-gray-6)" />
          <Text size="xs" fw={600} c="gray.7">
            {tDrive.storage.title}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {tDrive.storage.label(pct)}
        </Text>
      </Group>
      <Progress value={pct} color={color} size="sm" aria-label={tDrive.storage.label(pct)} />
      <Text size="xs" c="dimmed">
        {tDrive.storage.used(formatSize(s.storageSize), formatSize(s.totalStorageSize))}
      </Text>
    </Stack>
  );
}
