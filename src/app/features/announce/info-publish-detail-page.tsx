import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconArrowBackUp, IconPencil, IconSend, IconTrash } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ANNOUNCE_STATUS } from '../../../shared/api/announce';
import { tCore } from '../../lib/i18n-core';
import { tAnnounce } from '../../lib/i18n/announce';
import { useSession } from '../../lib/session';
import { useAnnounceActions } from './announce-actions';
import { audienceSummary, formatTime } from './announce-data';
import { AnnounceEditor } from './announce-editor';
import { AnnouncementFrame, AnnouncementView, useAnnounceDetail, useAnnounceId } from './notice-detail-page';

const P = tAnnounce.admin;
const X = tAnnounce.publisherDetail;
const STATUS_COLOR = ['gray', 'green', 'orange'] as const;
/** The grant of 信息发布: its holders write and publish announcements. */
const INFO_PUBLISH = 'oa.infoPublish';

/**
 * /staff/info-publish/detail?id= (outside the layout): an announcement's full page for those who
 * publish, opened from 信息发布's 查看. **Decision (the spec shows only the path):** the two detail
 * routes show one view (AnnouncementView). /approve/notice-detail is the readers' page (from the
 * notice centre, 通知公告 and the workbench: back to 通知公告); this is the publishers' page:
 * back to 信息发布, and above the article what a publisher checks before and after sending it —
 * its state (草稿 / 已发布 / 已撤回, drafts previewed exactly as readers will see them), who it
 * goes to, when it was last changed — with 编辑, 发布 or 撤回, and 删除. Someone without
 * 信息发布's grant who follows such a link reads the announcement as any reader does.
 */
export function InfoPublishDetailPage() {
  const { id, valid } = useAnnounceId();
  const view = useAnnounceDetail(id, valid);
  const navigate = useNavigate();
  const publisher = Boolean(useSession()?.menu.grantedKeys.includes(INFO_PUBLISH));
  const { publishOrCancel, remove } = useAnnounceActions();
  const [editing, setEditing] = useState(false);
  const d = view.data;
  const mine = publisher && d && d.audience !== null;

  const bar = mine && (
    <Card withBorder radius="md" p="sm" mb="sm" data-testid="publisher-bar">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ flex: '1 1 260px', minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap">
            <Badge color={STATUS_COLOR[d.status] ?? 'gray'} variant="light">
              {P.status[d.status as 0 | 1 | 2]}
            </Badge>
            <Text size="sm" truncate>
              {X.audience(audienceSummary(d.audience!))}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            {X.updated(formatTime(d.updateTime))}
          </Text>
        </Stack>
        <Group gap={4} wrap="wrap">
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPencil size={14} />}
            onClick={() => setEditing(true)}
          >
            {tCore.common.edit}
          </Button>
          <Button
            size="xs"
            variant="light"
            color={d.status === ANNOUNCE_STATUS.published ? 'orange' : 'green'}
            leftSection={
              d.status === ANNOUNCE_STATUS.published ? <IconArrowBackUp size={14} /> : <IconSend size={14} />
            }
            onClick={() => publishOrCancel(d)}
          >
            {d.status === ANNOUNCE_STATUS.published ? P.cancel : P.publish}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} />}
            onClick={() => remove(d, () => void navigate({ to: '/approve/info-publish' }))}
          >
            {tCore.common.delete}
          </Button>
        </Group>
      </Group>
    </Card>
  );

  return (
    <AnnouncementFrame
      back={publisher ? '/approve/info-publish' : '/home/notice-list'}
      backLabel={publisher ? X.back : tAnnounce.detail.back}
      above={bar}
    >
      <AnnouncementView view={view} valid={valid} />
      {mine && <AnnounceEditor opened={editing} id={d.id} onClose={() => setEditing(false)} />}
    </AnnouncementFrame>
  );
}
