import { Card, Group, Pagination, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { AnnounceReadPage } from '../../../shared/api/announce';
import { SearchField } from '../../components/search-field';
import { LoadFailed } from '../../components/load-failed';
import { OfflineNote } from '../../components/offline-note';
import { EmptyBlock, LoadingBlock } from '../../components/page-states';
import { useCachedQuery } from '../../lib/cached-query';
import { tAnnounce } from '../../lib/i18n/announce';
import { announceCalls, announceKeys, formatTime } from './announce-data';

const L = tAnnounce.list;
const PAGE_SIZE = 15;

/** /home/notice-list 通知公告: the announcements for me, newest first, paged, searchable by title. */
export function NoticeListPage() {
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const q = { currentPage: page, pageCount: PAGE_SIZE, keyword: keyword || undefined };
  const view = useCachedQuery<AnnounceReadPage>({
    queryKey: announceKeys.read(q),
    fetch: ({ signal }) => announceCalls.readPage(q, signal),
  });
  const list = view.data?.list ?? [];
  const total = view.data?.total ?? 0;

  let body;
  if (view.status === 'loading') body = <LoadingBlock />;
  else if (view.status === 'not-cached') body = <EmptyBlock title={L.notCached} />;
  else if (view.status === 'error') body = <LoadFailed error={view.error} onRetry={view.refetch} />;
  else if (list.length === 0) body = <EmptyBlock title={keyword ? L.noMatch : L.empty} />;
  else
    body = (
      <Stack gap={0}>
        {list.map((row) => (
          <UnstyledButton
            key={row.id}
            onClick={() => void navigate({ to: '/approve/notice-detail', search: { id: row.id } })}
            py="sm"
            px="xs"
            style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
            data-testid="notice-row"
          >
            <Group gap="sm" wrap="nowrap">
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Text fw={500} lineClamp={2}>
                  {row.title}
                </Text>
                <Text size="xs" c="dimmed">
                  {row.authorName} · {formatTime(row.publishTime)}
                </Text>
              </Stack>
              <IconChevronRight size={18} color="var(--mantine-color-dimmed)" />
            </Group>
          </UnstyledButton>
        ))}
      </Stack>
    );

  return (
    <Stack gap="md" data-testid="notice-list-page">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{L.title}</Title>
        <OfflineNote view={view} />
      </Group>
      <Card withBorder radius="md" p="md">
        <Stack gap="sm">
          <SearchField
            placeholder={L.search}
            onSearch={(v) => {
              setKeyword(v);
              setPage(1);
            }}
            maw={420}
          />
          {body}
          {total > PAGE_SIZE && (
            <Group justify="center">
              <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} size="sm" />
            </Group>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
