import {
  Badge,
  Card,
  Group,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { EmptyBlock } from '../../components/page-states';
import { SearchField } from '../../components/search-field';
import { UserAvatar } from '../../components/user-avatar';
import { useApprovalList, useTemplateOptions, type ProcessRow } from '../../lib/approvals';
import { tApprovalProcess } from '../../lib/i18n/approval-process';
import { DetailPanel } from './detail-panel';
import {
  listQuery,
  modeOf,
  PAGE_SIZE,
  parseActvityId,
  PRIORITY_COLOR,
  PROCESS_ROUTES,
  STATUS_COLOR,
  type ListFilters,
} from './process-rules';

const P = tApprovalProcess;

/**
 * The approval lists (spec §2): 待我审批, 我已审批, 我发起的, 抄送我的 and the 公文 lists, one
 * page for all, chosen by the path. Search, status and template filters, priority and status
 * labels, paging; `actvityId` in the URL opens that request's panel (the notice popup links so).
 */
export function ProcessListPage() {
  const path = useRouterState({ select: (s) => s.location.pathname });
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const navigate = useNavigate();
  const route = PROCESS_ROUTES[path] ?? PROCESS_ROUTES['/approve/process-pending']!;
  const [filters, setFilters] = useState<ListFilters>({ keyword: '', status: '', templateId: '', page: 1 });
  const q = listQuery(route, filters);
  const view = useApprovalList(q);
  const templates = useTemplateOptions(route.category);
  const narrow = useMediaQuery('(max-width: 767px)');
  const openId = parseActvityId(search.actvityId);

  const setSearch = (actvityId: number | undefined) =>
    void navigate({
      to: path,
      search: { ...search, actvityId: actvityId === undefined ? undefined : String(actvityId) },
    });
  const change = (f: Partial<ListFilters>) => setFilters((old) => ({ ...old, page: 1, ...f }));

  const list = view.data?.list ?? [];
  const total = view.data?.total ?? 0;
  const filtered = filters.keyword !== '' || filters.status !== '' || filters.templateId !== '';

  let body;
  if (!view.data) body = <CachedViewState view={view} />;
  else if (list.length === 0) body = <EmptyBlock title={filtered ? P.noMatch : P.empty} />;
  else if (narrow)
    body = (
      <Stack gap={0}>
        {list.map((row) => (
          <UnstyledButton
            key={row.actvityId}
            onClick={() => setSearch(row.actvityId)}
            py="sm"
            px="xs"
            style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
            data-testid="process-row"
          >
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <UserAvatar name={row.starterName} image={row.userImage} size={36} />
              <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
                <Text fw={500} lineClamp={2}>
                  {row.title}
                </Text>
                <Labels row={row} />
                <Text size="xs" c="dimmed">
                  {row.templateName} · {row.createTime}
                </Text>
              </Stack>
            </Group>
          </UnstyledButton>
        ))}
      </Stack>
    );
  else
    body = (
      <Table highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{P.columns.title}</Table.Th>
            <Table.Th>{P.columns.template}</Table.Th>
            <Table.Th>{P.columns.starter}</Table.Th>
            <Table.Th>{P.columns.time}</Table.Th>
            <Table.Th>{P.columns.status}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.map((row) => (
            <Table.Tr
              key={row.actvityId}
              onClick={() => setSearch(row.actvityId)}
              style={{ cursor: 'pointer' }}
              data-testid="process-row"
            >
              <Table.Td>
                <UnstyledButton
                  onClick={(e) => {
                    e.stopPropagation();
                    setSearch(row.actvityId);
                  }}
                >
                  <Text size="sm" fw={500} lineClamp={2}>
                    {row.title}
                  </Text>
                </UnstyledButton>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{row.templateName}</Text>
              </Table.Td>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <UserAvatar name={row.starterName} image={row.userImage} size={24} />
                  <Text size="sm">{row.starterName}</Text>
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed">
                  {row.createTime}
                </Text>
              </Table.Td>
              <Table.Td>
                <Labels row={row} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );

  return (
    <Stack gap="md" data-testid="process-list-page">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{route.title}</Title>
        <OfflineNote view={view} />
      </Group>
      <Card withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group gap="sm" wrap="wrap" align="flex-end">
            <SearchField placeholder={P.search} onSearch={(keyword) => change({ keyword })} maw={320} />
            <Select
              aria-label={P.statusFilter}
              placeholder={P.allStatuses}
              data={[1, 6, 3, 4].map((s) => ({ value: String(s), label: P.status[s]! }))}
              value={filters.status || null}
              onChange={(v) => change({ status: v ?? '' })}
              clearable
              w={140}
              data-testid="filter-status"
            />
            <Select
              aria-label={P.templateFilter}
              placeholder={P.allTemplates}
              data={(templates.data ?? []).map((o) => ({ value: String(o.id), label: o.name }))}
              value={filters.templateId || null}
              onChange={(v) => change({ templateId: v ?? '' })}
              clearable
              searchable
              w={180}
              data-testid="filter-template"
            />
          </Group>
          {body}
          {total > 0 && (
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {P.total(total)}
              </Text>
              {total > PAGE_SIZE && (
                <Pagination
                  total={Math.ceil(total / PAGE_SIZE)}
                  value={q.currentPage}
                  onChange={(page) => setFilters((old) => ({ ...old, page }))}
                  size="sm"
                />
              )}
            </Group>
          )}
        </Stack>
      </Card>
      <DetailPanel id={openId} mode={modeOf(route.state)} onClose={() => setSearch(undefined)} />
    </Stack>
  );
}

/** Status, priority and 待同步 labels of a row. */
function Labels({ row }: { row: ProcessRow }) {
  return (
    <Group gap={4} wrap="wrap">
      <Badge size="sm" variant="light" color={STATUS_COLOR[row.status] ?? 'gray'} data-testid="row-status">
        {P.status[row.status] ?? String(row.status)}
      </Badge>
      <Badge
        size="sm"
        variant="outline"
        color={PRIORITY_COLOR[row.priority] ?? 'gray'}
        data-testid="row-priority"
      >
        {P.priority[row.priority] ?? String(row.priority)}
      </Badge>
      {row.syncPending && (
        <Badge size="sm" color="yellow" data-testid="row-sync-pending">
          {P.syncPending}
        </Badge>
      )}
    </Group>
  );
}
