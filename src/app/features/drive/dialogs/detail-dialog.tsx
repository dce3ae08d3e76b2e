import { Anchor, Group, Image, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { formatSize } from '../../../../shared/drive/file-types';
import { ROOT, joinName } from '../../../../shared/drive/names';
import { tDrive } from '../../../lib/i18n/drive';
import { tShare } from '../../../lib/i18n/share';
import { type ReadArea, useDetail } from '../drive-data';
import type { DriveView } from '../drive-view';
import { FileIcon } from '../file-icon';
import type { DriveItem } from '../overlay';
import { DIALOG_WIDTH, type DialogResult } from '../../../components/dialog-kit';

/** m:ss (or h:mm:ss) of a track length in seconds. */
function clock(seconds: number): string {
  const s = Math.round(seconds);
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** The lyric lines without their [mm:ss.xx] stamps, for reading. */
function lyricText(lrc: string): string {
  return lrc
    .split(/\r?\n/)
    .map((l) => l.replace(/\[[^\]]*\]/g, '').trim())
    .filter(Boolean)
    .join('\n');
}

export interface DetailDialogProps {
  opened: boolean;
  /** Where file/detail reads the item (the share page: through its share); null: no read. */
  view: { area: DriveView['area']; areaQuery: ReadArea } | null;
  item: DriveItem | null;
  /** fileType 8 (我的分享): the share's type, time and expiry. */
  share?: { shareType: number; shareTime: string; endTime: string };
  /** The screen's fileType: decides which fields show (spec §2 "File details"). */
  fileType: number;
  /** Opens a folder path in the list (the path field's link). */
  onOpenPath: (path: string) => void;
  onClose: (result: DialogResult) => void;
}

/**
 * 文件详情 (spec §2.1). Fields by fileType: 0 and 8 hide the path; 6 labels it 原路径 and shows
 * the deletion date; 7 and 8 hide the modified date; 8 shows the share's type, time and expiry. Clicking the path opens that folder in the
 * list and closes the dialog. Shows the row at once and file/detail's answer when it arrives.
 */
export function DetailDialog({
  opened,
  view,
  item,
  fileType,
  share,
  onOpenPath,
  onClose,
}: DetailDialogProps) {
  // Binned entries are not live: their row is all there is to show.
  const detail = useDetail(
    view ?? { area: 'own', areaQuery: {} },
    view && opened && item && item.userFileId > 0 && fileType !== 6 ? item.userFileId : null,
  );
  const shown: DriveItem | null = item ? { ...item, ...(detail.data ?? {}) } : null;
  const d = tDrive.detail;
  const rows: [string, React.ReactNode][] = [];
  if (shown) {
    rows.push([d.name, joinName(shown.fileName, shown.extendName)]);
    rows.push([d.type, shown.isDir ? tDrive.folderType : shown.extendName || tDrive.noExt]);
    if (!shown.isDir) rows.push([d.size, formatSize(shown.fileSize)]);
    if (shown.imageWidth && shown.imageHeight)
      rows.push([d.dimensions, `${shown.imageWidth} × ${shown.imageHeight}`]);
    if (fileType !== 0 && fileType !== 8) {
      rows.push([
        fileType === 6 ? d.originalPath : d.path,
        <Anchor
          component="button"
          type="button"
          size="sm"
          title={d.openPath}
          data-testid="detail-path"
          onClick={() => {
            onOpenPath(shown.filePath);
            onClose('cancel');
          }}
        >
          {shown.filePath === ROOT ? tDrive.rootName : shown.filePath}
        </Anchor>,
      ]);
    }
    if (fileType !== 7 && fileType !== 8) rows.push([d.uploadTime, shown.uploadTime]);
    if (fileType === 6 && shown.deleteTime) rows.push([d.deleteTime, shown.deleteTime]);
    if (fileType === 8 && share) {
      // Spec §2.1: share type 1 is private, anything else public.
      rows.push([tShare.mine.shareType, share.shareType === 1 ? tShare.mine.private : tShare.mine.public]);
      rows.push([tShare.mine.shareTime, share.shareTime]);
      rows.push([tShare.mine.endTime, share.endTime]);
    }
    const music = detail.data?.music;
    if (music) {
      if (music.artist) rows.push([d.artist, music.artist]);
      if (music.album) rows.push([d.album, music.album]);
      // Only an image data: URL from the server's tag reader; anything else is not shown.
      if (music.albumImage?.startsWith('data:image/'))
        rows.push([
          d.albumImage,
          <Image src={music.albumImage} alt={d.albumImage} w={96} h={96} radius="sm" />,
        ]);
      if (music.trackLength) rows.push([d.trackLength, clock(music.trackLength)]);
      rows.push([
        d.lyrics,
        music.lyrics ? (
          <ScrollArea.Autosize mah={160} data-testid="detail-lyrics">
            <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
              {lyricText(music.lyrics)}
            </Text>
          </ScrollArea.Autosize>
        ) : (
          <Text size="sm" c="dimmed">
            {d.noLyrics}
          </Text>
        ),
      ]);
    }
  }
  return (
    <Modal opened={opened} onClose={() => onClose('cancel')} title={d.title} size={DIALOG_WIDTH.standard}>
      {shown && (
        <Stack gap="md">
          <Group gap="sm" wrap="nowrap">
            <FileIcon isDir={shown.isDir} extendName={shown.extendName} size={40} />
            <Text fw={600} style={{ wordBreak: 'break-all' }}>
              {joinName(shown.fileName, shown.extendName)}
            </Text>
          </Group>
          <Table variant="vertical" layout="fixed" withTableBorder data-testid="detail-table">
            <Table.Tbody>
              {rows.map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Th w={110}>{k}</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{v}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Modal>
  );
}
