import { Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import type { FileEntry } from '../../../shared/api/drive';
import { joinName } from '../../../shared/drive/names';
import { formatSize } from '../../../shared/drive/file-types';
import { friendlyDate } from '../../../shared/rules/friendly-date';
import { drive } from '../../lib/api';
import { useCachedQuery } from '../../lib/cached-query';
import { tDrive } from '../../lib/i18n/drive';
import { driveKeys } from './drive-data';
import { DRIVE_ROUTES } from './drive-view';
import classes from './drive.module.css';
import { FileIcon } from './file-icon';

export const RECENT_COUNT = 6;

/**
 * The workbench's 最近文件: the newest files of my own drive, wherever they are. Under the
 * drive's own-area key, so every drive write there refreshes it; cached for offline like the
 * drive's lists. A row opens the drive at the file's folder.
 */
export function useRecentFiles() {
  return useCachedQuery<FileEntry[]>({
    queryKey: [...driveKeys.area('own'), 'recent', RECENT_COUNT],
    fetch: ({ signal }) =>
      drive.get<FileEntry[]>('/file/recent', { query: { limit: RECENT_COUNT }, signal, silent: true }),
    toastErrors: false,
  });
}

export function RecentFiles({ files, now }: { files: FileEntry[]; now: number }) {
  const navigate = useNavigate();
  if (files.length === 0)
    return (
      <Text size="sm" c="dimmed" py="md" ta="center">
        {tDrive.recent.empty}
      </Text>
    );
  return (
    <Stack gap={2}>
      {files.map((f) => (
        <UnstyledButton
          key={f.userFileId}
          data-testid="recent-file"
          onClick={() =>
            void navigate({ to: DRIVE_ROUTES.netDisk, search: { fileType: '0', filePath: f.filePath } })
          }
          className={classes.recentRow}
        >
          <Group gap="sm" wrap="nowrap">
            <FileIcon isDir={0} extendName={f.extendName} size={28} />
            <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
              <Text size="sm" truncate>
                {joinName(f.fileName, f.extendName)}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                {f.filePath === '/' ? tDrive.rootName : f.filePath} · {formatSize(f.fileSize)}
              </Text>
            </Stack>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {friendlyDate(f.uploadTime, now)}
            </Text>
          </Group>
        </UnstyledButton>
      ))}
    </Stack>
  );
}
