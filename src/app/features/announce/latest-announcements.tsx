import { Anchor, Card, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { Link, useNavigate } from '@tanstack/react-router';
import dayjs from 'dayjs';
import type { AnnounceReadPage } from '../../../shared/api/announce';
import { OfflineNote } from '../../components/offline-note';
import { useCachedQuery } from '../../lib/cached-query';
import { tCore } from '../../lib/i18n-core';
import { tAnnounce } from '../../lib/i18n/announce';
import { announceCalls, announceKeys } from './announce-data';

const W = tAnnounce.latest;
const LATEST = { currentPage: 1, pageCount: 5 };

/**
 * The workbench card of the latest 5 announcements for me (title and date) with 更多. Kept on
 * the device, so it shows offline with the time of the last sync.
 */
export function LatestAnnouncements() {
  const navigate = useNavigate();
  const view = useCachedQuery<AnnounceReadPage>({
    queryKey: announceKeys.read(LATEST),
    fetch: ({ signal }) => announceCalls.readPage(LATEST, signal),
    toastErrors: false,
  });
  const list = view.data?.list ?? [];
  let body;
  if (view.status === 'loading')
    body = (
      <Text c="dimmed" size="sm">
        {tCore.common.loading}
      </Text>
    );
  else if (view.status === 'not-cached')
    body = (
      <Text c="dimmed" size="sm">
        {W.notCached}
      </Text>
    );
  else if (view.status === 'error')
    body = (
      <Text c="dimmed" size="sm">
        {W.failed}
      </Text>
    );
  else if (list.length === 0)
    body = (
      <Text c="dimmed" size="sm">
        {W.empty}
      </Text>
    );
  else
    body = (
      <Stack gap={0}>
        {list.map((row) => (
          <UnstyledButton
            key={row.id}
            py={8}
            onClick={() => void navigate({ to: '/approve/notice-detail', search: { id: row.id } })}
            data-testid="latest-announcement"
          >
            <Group gap="sm" wrap="nowrap" justify="space-between">
              <Text size="sm" truncate style={{ flex: 1, minWidth: 0 }}>
                {row.title}
              </Text>
              <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
                {dayjs(row.publishTime).format('MM-DD')}
              </Text>
            </Group>
          </UnstyledButton>
        ))}
      </Stack>
    );
  return (
    <Card radius="lg" p="md" withBorder data-testid="latest-announcements">
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <IconSpeakerphone size={18} />
          <Text fw={600}>{W.title}</Text>
          <OfflineNote view={view} />
        </Group>
        <Anchor component={Link} to="/home/notice-list" size="sm">
          {W.more}
        </Anchor>
      </Group>
      {body}
    </Card>
  );
}
