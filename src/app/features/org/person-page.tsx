import { useMemo, useState } from 'react';
import {
  Badge,
  Button,
  Card,
  CloseButton,
  Grid,
  Group,
  Loader,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  IconDatabase,
  IconKey,
  IconPencil,
  IconPlayerPlay,
  IconPlayerStop,
  IconSearch,
  IconUpload,
  IconUserPlus,
} from '@tabler/icons-react';
import { ImportDialog } from '../../components/import-dialog';
import type { UserRow } from '../../../shared/api/org';
import { RowAction } from '../../components/row-action';
import { UserAvatar } from '../../components/user-avatar';
import { tCore } from '../../lib/i18n-core';
import { tOrg } from '../../lib/i18n/org';
import { tRecords } from '../../lib/i18n/records';
import { DeptTree } from './dept-tree';
import { deptOptions } from './dept-utils';
import {
  USER_PAGE_SIZE,
  deptTreeQuery,
  newKey,
  orgApi,
  orgKeys,
  useOrgMutation,
  userPageQuery,
} from './org-queries';
import {
  EmptyBlock,
  ErrorBlock,
  LoadingBlock,
  confirmAction,
  notifySuccess,
} from '../../components/page-states';
import { QuotaModal } from './quota-modal';
import { ResetPasswordModal, UserFormModal } from './user-forms';

/** Matches the server's UserListQuery.keyword limit. */
const KEYWORD_MAX = 30;
const SEARCH_DEBOUNCE_MS = 300;
const DASH = '—';

interface DialogState {
  opened: boolean;
  user: UserRow | null;
  /** Bumped at each opening so the dialog's form is rebuilt from the row it opens for. */
  nonce: number;
}
const closedDialog: DialogState = { opened: false, user: null, nonce: 0 };

/** /staff/person 人员管理: the staff list filtered by department and keyword, with the account actions. */
export function PersonPage() {
  const queryClient = useQueryClient();
  const [importing, setImporting] = useState(false);
  const p = tOrg.person;
  const [deptId, setDeptId] = useState<number | null>(null);
  const [searchInput, setSearchInput] = useState('');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [userDialog, setUserDialog] = useState<DialogState>(closedDialog);
  const [passwordDialog, setPasswordDialog] = useState<DialogState>(closedDialog);
  const [quotaUser, setQuotaUser] = useState<UserRow | null>(null);

  // A new filter starts from page 1: page 3 of the old result may not exist in the new one.
  const applyKeyword = useDebouncedCallback((value: string) => {
    setKeyword(value.trim());
    setPage(1);
  }, SEARCH_DEBOUNCE_MS);
  const chooseDept = (id: number | null) => {
    setDeptId(id);
    setPage(1);
  };

  const depts = useQuery(deptTreeQuery());
  const users = useQuery(
    userPageQuery({
      currentPage: page,
      pageCount: USER_PAGE_SIZE,
      keyword: keyword || undefined,
      deptId: deptId ?? undefined,
    }),
  );
  const enable = useOrgMutation(orgApi.enableUser);
  const deptSelectData = useMemo(() => deptOptions(depts.data ?? []), [depts.data]);

  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / USER_PAGE_SIZE));
  const filtered = Boolean(keyword || deptId);

  const openUser = (user: UserRow | null) =>
    setUserDialog((prev) => ({ opened: true, user, nonce: prev.nonce + 1 }));
  const openPassword = (user: UserRow) =>
    setPasswordDialog((prev) => ({ opened: true, user, nonce: prev.nonce + 1 }));

  const toggleEnabled = (user: UserRow) => {
    const enabling = !user.enabled;
    confirmAction({
      title: enabling ? p.enableTitle : p.disableTitle,
      message: enabling ? p.enableConfirm(user.userName) : p.disableConfirm(user.userName),
      confirmLabel: enabling ? p.enable : p.disable,
      danger: !enabling,
      run: () =>
        enable
          .mutateAsync({ vars: { userId: user.userId, enabled: enabling }, key: newKey() })
          .then(() => notifySuccess(enabling ? p.enabledDone : p.disabledDone)),
    });
  };

  const deptFilter = (
    <Card withBorder padding="xs" radius="md">
      <Text size="sm" fw={600} px="xs" py={6}>
        {tOrg.dept.title}
      </Text>
      {depts.isPending ? (
        <LoadingBlock minHeight={120} />
      ) : depts.isError ? (
        <ErrorBlock onRetry={() => void depts.refetch()} retrying={depts.isFetching} />
      ) : (
        <DeptTree nodes={depts.data} selection={{ selectedId: deptId, onSelect: chooseDept }} />
      )}
    </Card>
  );

  const rows = (users.data?.list ?? []).map((user) => (
    <Table.Tr key={user.userId}>
      <Table.Td>
        <Group gap="sm" wrap="nowrap">
          <UserAvatar name={user.userName} image={user.image} size={32} />
          <Text size="sm" fw={500}>
            {user.userName}
          </Text>
        </Group>
      </Table.Td>
      <Table.Td>{user.account}</Table.Td>
      <Table.Td>{user.phone || DASH}</Table.Td>
      <Table.Td>{user.deptNames.join('、') || DASH}</Table.Td>
      <Table.Td>{user.roleNames.join('、') || DASH}</Table.Td>
      <Table.Td>{user.superiorName || DASH}</Table.Td>
      <Table.Td>
        <Badge color={user.enabled ? 'green' : 'gray'} variant="light">
          {user.enabled ? tCore.common.enabled : tCore.common.disabled}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <RowAction icon={IconPencil} onClick={() => openUser(user)}>
            {tCore.common.edit}
          </RowAction>
          <RowAction icon={IconKey} onClick={() => openPassword(user)}>
            {p.resetPassword}
          </RowAction>
          <RowAction icon={IconDatabase} onClick={() => setQuotaUser(user)}>
            {tOrg.quota.action}
          </RowAction>
          <Button
            size="xs"
            variant="subtle"
            color={user.enabled ? 'red' : 'green'}
            leftSection={user.enabled ? <IconPlayerStop size={14} /> : <IconPlayerPlay size={14} />}
            onClick={() => toggleEnabled(user)}
          >
            {user.enabled ? p.disable : p.enable}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  ));

  const c = p.columns;
  let body;
  if (users.isPending) body = <LoadingBlock />;
  else if (users.isError && !users.data)
    body = <ErrorBlock onRetry={() => void users.refetch()} retrying={users.isFetching} />;
  else if (rows.length === 0)
    body = (
      <EmptyBlock
        title={filtered ? p.noMatch : tCore.common.empty}
        description={filtered ? p.noMatchHint : undefined}
      />
    );
  else
    body = (
      <Table.ScrollContainer minWidth={980}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{c.name}</Table.Th>
              <Table.Th>{c.account}</Table.Th>
              <Table.Th>{c.phone}</Table.Th>
              <Table.Th>{c.dept}</Table.Th>
              <Table.Th>{c.role}</Table.Th>
              <Table.Th>{c.superior}</Table.Th>
              <Table.Th>{c.status}</Table.Th>
              <Table.Th>{tCore.common.actions}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{rows}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }}>
      <Group justify="space-between" gap="sm">
        <Title order={3}>{p.title}</Title>
        <Group gap="xs">
          <Button
            variant="light"
            leftSection={<IconUpload size={16} />}
            onClick={() => setImporting(true)}
            data-testid="person-import"
          >
            {tRecords.import}
          </Button>
          <Button leftSection={<IconUserPlus size={18} />} onClick={() => openUser(null)}>
            {p.add}
          </Button>
        </Group>
      </Group>
      {/* 人员 on the records' batch import (schemeId sysUser): template, all or nothing with 1004. */}
      <ImportDialog
        schemeId="sysUser"
        title={p.importTitle}
        replaceable={false}
        opened={importing}
        onClose={() => setImporting(false)}
        onImported={() => void queryClient.invalidateQueries({ queryKey: orgKeys.all })}
      />

      <Grid>
        <Grid.Col span={{ base: 12, md: 4, lg: 3 }} visibleFrom="md">
          {deptFilter}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
          <Card withBorder radius="md" padding="sm">
            <Stack gap="sm">
              <Group gap="sm" align="flex-end" wrap="wrap">
                {/* Narrow screens have no room for the tree beside the table: a picker takes its place. */}
                <Select
                  hiddenFrom="md"
                  w={{ base: '100%', xs: 240 }}
                  aria-label={tOrg.dept.title}
                  placeholder={tOrg.dept.allDepts}
                  data={deptSelectData}
                  value={deptId}
                  onChange={chooseDept}
                  searchable
                  clearable
                  nothingFoundMessage={tOrg.dept.none}
                />
                <TextInput
                  flex={1}
                  miw={{ base: '100%', xs: 220 }}
                  aria-label={tCore.common.search}
                  placeholder={p.searchPlaceholder}
                  leftSection={<IconSearch size={16} />}
                  maxLength={KEYWORD_MAX}
                  value={searchInput}
                  onChange={(e) => {
                    setSearchInput(e.currentTarget.value);
                    applyKeyword(e.currentTarget.value);
                  }}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') applyKeyword.flush();
                  }}
                  rightSection={
                    searchInput ? (
                      <CloseButton
                        size="sm"
                        aria-label={tCore.common.reset}
                        onClick={() => {
                          setSearchInput('');
                          applyKeyword('');
                          applyKeyword.flush();
                        }}
                      />
                    ) : null
                  }
                />
              </Group>

              {body}

              {total > 0 && (
                <Group justify="space-between" gap="sm">
                  <Group gap="xs">
                    <Text size="sm" c="dimmed">
                      {p.total(total)}
                    </Text>
                    {users.isFetching && <Loader size={14} />}
                  </Group>
                  {pages > 1 && (
                    <Pagination
                      total={pages}
                      value={Math.min(page, pages)}
                      onChange={setPage}
                      size="sm"
                      siblings={1}
                    />
                  )}
                </Group>
              )}
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>

      <UserFormModal
        opened={userDialog.opened}
        user={userDialog.user}
        formKey={userDialog.nonce}
        onClose={() => setUserDialog((prev) => ({ ...prev, opened: false }))}
      />
      <ResetPasswordModal
        opened={passwordDialog.opened}
        user={passwordDialog.user}
        formKey={passwordDialog.nonce}
        onClose={() => setPasswordDialog((prev) => ({ ...prev, opened: false }))}
      />
      <QuotaModal user={quotaUser} onClose={() => setQuotaUser(null)} />
    </Stack>
  );
}
