import { Anchor, Modal, Stack, Text } from '@mantine/core';
import type { RecordDef } from '../../../shared/records/define';
import { tApplet } from '../../lib/i18n/applet';
import { useRecordDetail } from '../../lib/records';
import { isVideoName } from './content-rules';

const A = tApplet;

/**
 * 播放 on an audio or video row (音视频, 电台节目, a guide's 讲解音频): the file in an <audio> or
 * <video> player, the file first and the outside address (https on the allow-list) when there
 * is no file (README "Mini-program pages"). The file is the record's attachment: until the
 * attachment calls answer Range, a player seeks only within what it has loaded.
 */
export function MediaDialog({
  def,
  id,
  field,
  onClose,
}: {
  def: RecordDef;
  /** The row to play (its detail brings the file's address), or null when closed. */
  id: number | null;
  /** The file field to play. */
  field: string;
  onClose: () => void;
}) {
  const detail = useRecordDetail(def, id);
  const row = id !== null && detail.data?.record.id === id ? detail.data.record : null;
  const names = detail.data?.names ?? { users: {}, depts: {} };
  const ids = (row?.[field] as number[] | undefined) ?? [];
  const file = ids.length ? names.files?.[String(ids[0])] : undefined;
  const url = typeof row?.url === 'string' && row.url ? row.url : '';
  const src = file?.attPath ?? url;
  const video = file ? isVideoName(file.attName) : Number(row?.mediaType) === 1;
  return (
    <Modal
      opened={id !== null}
      onClose={onClose}
      size={video ? 720 : 480}
      closeOnClickOutside={false}
      title={String(row?.title ?? '')}
      closeButtonProps={{ 'aria-label': A.closePlayer }}
    >
      <Stack gap="xs" data-testid="media-player">
        {!src ? (
          <Text size="sm" c="dimmed">
            {A.noMedia}
          </Text>
        ) : video ? (
          <video src={src} controls preload="metadata" style={{ width: '100%', maxHeight: '60vh' }} />
        ) : (
          <audio src={src} controls preload="metadata" style={{ width: '100%' }} />
        )}
        {file ? (
          <Text size="xs" c="dimmed">
            {file.attName}
          </Text>
        ) : (
          url && (
            <Anchor href={url} target="_blank" rel="noopener noreferrer" size="xs">
              {url}
            </Anchor>
          )
        )}
      </Stack>
    </Modal>
  );
}
