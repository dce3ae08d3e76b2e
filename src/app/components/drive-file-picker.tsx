import {
  Anchor,
  Breadcrumbs,
  Button,
  Group,
  Modal,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconFile, IconFolder } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { INLINE_IMAGE_EXTS } from '../../shared/api/attach';
import type { FileEntry, FileList } from '../../shared/api/drive';
import { formatSize } from '../../shared/drive/file-types';
import { drive } from '../lib/api';
import { tCore } from '../lib/i18n-core';
import { tApprovalStart } from '../lib/i18n/approval-start';
import { useOnline } from '../lib/online';
import { LoadFailed } from './load-failed';
import { LoadingBlock } from './page-states';

const P = tApprovalStart.drivePicker;
/** One page is enough for a picker; a larger folder is better searched in the drive itself. */
const PAGE = 200;

/** A drive entry's name with its extension, as the person sees it and an attachment is named. */
export const driveFileName = (f: Pick<FileEntry, 'fileName' | 'extendName'>) =>
  f.extendName ? `${f.fileName}.${f.extendName}` : f.fileName;
const inlineImage = (f: FileEntry) =>
  (INLINE_IMAGE_EXTS as readonly string[]).includes(f.extendName.toLowerCase());

/**
 * Picks one file of the caller's own drive (/wangpan/file/getfilelist, folder by folder). The
 * caller decides what a pick does (an approval form makes an attachment of it); `onPick`
 * rejecting keeps the dialog open with the reason shown. `images`: only folders and the image
 * types an inline image may be are listed (an image field, the rich-text editor).
 */
export function DriveFilePicker({
  opened,
  onClose,
  onPick,
  images = false,
}: {
  opened: boolean;
  onClose: () => void;
  onPick: (file: FileEntry) => Promise<void>;
  images?: boolean;
}) {
  const [path, setPath] = useState('/');
  const [busy, setBusy] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const online = useOnline();
  const list = useQuery({
    queryKey: ['drive-file-picker', path],
    enabled: opened && online,
    queryFn: ({ signal }) =>
      drive.get<FileList>('/file/getfilelist', {
        query: { filePath: path, currentPage: 1, pageCount: PAGE },
        signal,
        silent: true,
      }),
  });
  const parts = path.split('/').filter(Boolean);
  const open = (p: string) => {
    setFailure(null);
    setPath(p);
  };
  const pick = async (f: FileEntry) => {
    setBusy(f.userFileId);
    setFailure(null);
    try {
      await onPick(f);
      onClose();
    } catch (err) {
      setFailure(err instanceof Error ? err.message : tCore.errors.server);
    } finally {
      setBusy(null);
    }
  };
  // Folders first, as the drive lists them.
  const rows = [...(list.data?.list ?? [])]
    .filter((f) => !images || f.isDir || inlineImage(f))
    .sort((a, b) => b.isDir - a.isDir);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={images ? P.imageTitle : P.title}
      size={550}
      closeOnClickOutside={false}
    >
      <Stack gap="sm" data-testid="drive-file-picker">
        <Breadcrumbs separatorMargin={4}>
          <Anchor component="button" type="button" size="sm" onClick={() => open('/')}>
            {P.root}
          </Anchor>
          {parts.map((name, i) => (
            <Anchor
              key={i}
              component="button"
              type="button"
              size="sm"
              onClick={() => open(`/${parts.slice(0, i + 1).join('/')}/`)}
            >
              {name}
            </Anchor>
          ))}
        </Breadcrumbs>
        {!online ? (
          <Text c="dimmed" size="sm">
            {P.notCached}
          </Text>
        ) : list.isPending ? (
          <LoadingBlock minHeight={120} />
        ) : list.isError ? (
          <LoadFailed error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />
        ) : rows.length === 0 ? (
          <Text c="dimmed" size="sm">
            {images && list.data?.list.length ? P.noImages : P.empty}
          </Text>
        ) : (
          <ScrollArea.Autosize mah="55vh">
            <Stack gap={2}>
              {rows.map((f) =>
                f.isDir ? (
                  <UnstyledButton
                    key={f.userFileId}
                    onClick={() => open(`${f.filePath}${f.fileName}/`)}
                    py={8}
                    px={4}
                  >
                    <Group gap="xs" wrap="nowrap">
                      <IconFolder size={18} color="var(--mantine-color-yellow-6)" style={{ flex: 'none' }} />
                      <Text size="sm" truncate>
                        {f.fileName}
                      </Text>
                    </Group>
                  </UnstyledButton>
                ) : (
                  <Group
                    key={f.userFileId}
                    gap="xs"
                    wrap="nowrap"
                    py={4}
                    px={4}
                    data-testid="drive-picker-file"
                  >
                    <IconFile size={18} style={{ flex: 'none' }} />
                    <Text size="sm" truncate style={{ flex: 1 }}>
                      {driveFileName(f)}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
                      {formatSize(f.fileSize)}
                    </Text>
                    <Button
                      size="compact-sm"
                      variant="light"
                      loading={busy === f.userFileId}
                      disabled={busy !== null && busy !== f.userFileId}
                      onClick={() => void pick(f)}
                      aria-label={`${P.pick} ${driveFileName(f)}`}
                    >
                      {P.pick}
                    </Button>
                  </Group>
                ),
              )}
            </Stack>
          </ScrollArea.Autosize>
        )}
        {failure && (
          <Text c="red" size="sm" role="alert">
            {failure}
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
