import { Badge, Button, Card, Group, Pagination, Select, Stack, Text, Title } from '@mantine/core';
import { IconEye, IconPencil, IconPlus, IconSend, IconArrowBackUp, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { SearchField } from '../../components/search-field';
import { ANNOUNCE_STATUS } from '../../../shared/api/announce';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '../../components/page-states';
import { tCore } from '../../lib/i18n-core';
import { tAnnounce } from '../../lib/i18n/announce';
import { useAnnounceActions } from './announce-actions';
import { AnnounceEditor } from './announce-editor';
import { announceCalls, announceKeys, audienceSummary, formatTime } from './announce-data';

const P = tAnnounce.admin;
const PAGE_SIZE = 20;
const STATUS_COLOR = ['gray', 'green', 'orange'] as const;

/**
 * /approve/info-publish 信息发布: every announcement with search, 新建, 编辑, 发布/撤回 and 删除;
 * 查看 opens its full page for publishers (/staff/info-publish/detail).
 */
export function InfoPublishPage() {
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<{ opened: boolean; id: number | null }>({ opened: false, id: null });

  const q = {
    currentPage: page,
    pageCount: PAGE_SIZE,
    keyword: keyword || undefined,
    status: status === null ? undefined : (Number(status) as 0 | 1 | 2),
  };
  const list = useQuery({
    queryKey: announceKeys.admin(q),
    queryFn: ({ signal }) => announceCalls.adminPage(q, signal),
    placeholderData: keepPreviousData,
  });
  const { publishOrCancel, remove } = useAnnounceActions();

  // A list rather than a table: on a tablet beside the side menu every row keeps its actions in view.
  const rows = (list.data?.list ?? []).map((row) => (
    <Group
      key={row.id}
      justify="space-between"
      wrap="wrap"
      gap="xs"
      py="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      data-testid="announce-row"
    >
      <Stack gap={4} style={{ flex: '1 1 300px', minWidth: 0 }}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Badge color={STATUS_COLOR[row.status] ?? 'gray'} variant="light" style={{ flex: 'none' }} mt={2}>
            {P.status[row.status as 0 | 1 | 2]}
          </Badge>
          <Text size="sm" fw={500} lineClamp={2} style={{ wordBreak: 'break-word' }}>
            {row.title}
          </Text>
        </Group>
        <Text size="xs" c="dimmed" lineClamp={2}>
          {P.meta(audienceSummary(row.audience), formatTime(row.publishTime), row.authorName || '—')}
        </Text>
      </Stack>
      <Group gap={4} wrap="nowrap">
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconEye size={14} />}
          onClick={() => void navigate({ to: '/staff/info-publish/detail', search: { id: row.id } })}
        >
          {P.view}
        </Button>
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconPencil size={14} />}
          onClick={() => setEditing({ opened: true, id: row.id })}
        >
          {tCore.common.edit}
        </Button>
        <Button
          size="xs"
          variant="subtle"
          color={row.status === ANNOUNCE_STATUS.published ? 'orange' : 'green'}
          leftSection={
            row.status === ANNOUNCE_STATUS.published ? <IconArrowBackUp size={14} /> : <IconSend size={14} />
          }
          onClick={() => publishOrCancel(row)}
        >
          {row.status === ANNOUNCE_STATUS.published ? P.cancel : P.publish}
        </Button>
        <Button
          size="xs"
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={14} />}
          onClick={() => remove(row)}
        >
          {tCore.common.delete}
        </Button>
      </Group>
    </Group>
  ));

  let body;
  if (list.isPending) body = <LoadingBlock />;
  else if (list.isError && !list.data)
    body = <ErrorBlock onRetry={() => void list.refetch()} retrying={list.isFetching} />;
  else if (rows.length === 0)
    body = <EmptyBlock title={keyword || status !== null ? P.noMatch : P.empty} description={P.emptyHint} />;
  else body = <Stack gap={0}>{rows}</Stack>;

  const total = list.data?.total ?? 0;
  return (
    <Stack gap="md" data-testid="info-publish-page">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={3}>{P.title}</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ opened: true, id: null })}>
          {P.create}
        </Button>
      </Group>
      <Card withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group gap="sm" wrap="wrap">
            <SearchField
              placeholder={P.search}
              onSearch={(v) => {
                setKeyword(v);
                setPage(1);
              }}
              style={{ flex: '1 1 220px', maxWidth: 360 }}
            />
            <Select
              aria-label={P.columns.status}
              placeholder={P.allStatus}
              clearable
              value={status}
              onChange={(v) => {
                setStatus(v);
                setPage(1);
              }}
              data={[0, 1, 2].map((s) => ({ value: String(s), label: P.status[s as 0 | 1 | 2] }))}
              w={140}
            />
          </Group>
          {body}
          {total > PAGE_SIZE && (
            <Group justify="flex-end">
              <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} size="sm" />
            </Group>
          )}
        </Stack>
      </Card>
      <AnnounceEditor
        opened={editing.opened}
        id={editing.id}
        onClose={() => setEditing((e) => ({ ...e, opened: false }))}
      />
    </Stack>
  );
}
