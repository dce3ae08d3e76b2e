import {
  Badge,
  Button,
  Card,
  EmptyState,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconAddressBook,
  IconPencil,
  IconPlus,
  IconSearch,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { ImportDialog } from '../../components/import-dialog';
import { useMemo, useState } from 'react';
import type { AddressBookEntry } from '../../../shared/api/directory';
import { filterDirectory } from '../../../shared/rules/directory';
import { RowAction } from '../../components/row-action';
import { confirmAction } from '../../components/confirm-action';
import { CachedViewState } from '../../components/cached-state';
import { UserAvatar } from '../../components/user-avatar';
import { tCore } from '../../lib/i18n-core';
import { tDirectory } from '../../lib/i18n/directory';
import { tRecords } from '../../lib/i18n/records';
import { directoryApi, directoryKeys, useDirectoryWrite, useManagedDirectory } from './directory-data';
import { EntryForm } from './entry-form';
import { SearchBox } from './search-box';

const M = tDirectory.manage;
const DASH = '—';

interface Dialog {
  row: AddressBookEntry | null;
  /** Bumped at each opening so the form is rebuilt from the row it opens for. */
  nonce: number;
}

const rowKey = (r: AddressBookEntry) => `${r.userId ?? 'x'}-${r.id ?? 'u'}`;

/**
 * /oa/address-book-management 通讯录管理 (oa.addressBook): every row of the directory, hidden
 * ones too. Members of staff come from 人员管理 and can be extended or hidden here; external
 * contacts (值班室) are added, edited and deleted here. Editing needs the network.
 */
export function AddressBookManagementPage() {
  const book = useManagedDirectory();
  const remove = useDirectoryWrite(directoryApi.remove);
  const [keyword, setKeyword] = useState('');
  const [deptId, setDeptId] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [opened, setOpened] = useState(false);
  const [importing, setImporting] = useState(false);
  const queryClient = useQueryClient();

  const departments = useMemo(() => book.data?.departments ?? [], [book.data]);
  const rows = useMemo(
    () =>
      filterDirectory(book.data?.list ?? [], departments, {
        keyword,
        deptId: deptId === null ? null : Number(deptId),
      }),
    [book.data, departments, keyword, deptId],
  );
  const deptData = useMemo(
    () => departments.map((d) => ({ value: String(d.id), label: `${'　'.repeat(d.depth)}${d.name}` })),
    [departments],
  );

  const open = (row: AddressBookEntry | null) => {
    setDialog((prev) => ({ row, nonce: (prev?.nonce ?? 0) + 1 }));
    setOpened(true);
  };

  const confirmDelete = (row: AddressBookEntry & { id: number }) =>
    confirmAction({
      title: row.userId === null ? M.deleteTitle : M.clear,
      message: row.userId === null ? M.deleteExternal(row.name) : M.deleteStaff(row.name),
      confirmLabel: row.userId === null ? tCore.common.delete : M.clear,
      danger: true,
      run: () =>
        remove
          .mutateAsync({ vars: { id: row.id }, key: crypto.randomUUID() })
          .then(() => notifications.show({ color: 'green', message: tCore.common.deleted })),
    });

  const c = M.columns;
  // The table needs the network (editing does), but its states look like the cached views'.
  const state = {
    status: book.isPending ? 'loading' : book.isError ? 'error' : 'ready',
    error: book.error,
    refetch: () => void book.refetch(),
    refreshing: book.isFetching,
  } as const;
  let body;
  if (state.status !== 'ready') body = <CachedViewState view={state} />;
  else if (rows.length === 0)
    body = (
      <EmptyState
        py="xl"
        icon={<IconSearch size={28} />}
        title={tDirectory.noMatch}
        description={tDirectory.noMatchHint}
      />
    );
  else
    body = (
      <Table.ScrollContainer minWidth={1040}>
        <Table verticalSpacing="sm" highlightOnHover data-testid="address-book-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{c.name}</Table.Th>
              <Table.Th w={90}>{c.kind}</Table.Th>
              <Table.Th>{c.dept}</Table.Th>
              <Table.Th>{c.position}</Table.Th>
              <Table.Th w={120}>{c.mobile}</Table.Th>
              <Table.Th w={130}>{c.officePhone}</Table.Th>
              <Table.Th>{c.email}</Table.Th>
              <Table.Th w={60}>{c.sort}</Table.Th>
              <Table.Th w={80}>{c.status}</Table.Th>
              <Table.Th w={190}>{tCore.common.actions}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={rowKey(r)} data-testid="address-book-row">
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    <UserAvatar name={r.name} image={r.image} size={30} />
                    <Text size="sm" fw={500}>
                      {r.name}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={r.userId === null ? 'grape' : 'blue'}>
                    {r.userId === null ? M.external : M.staff}
                  </Badge>
                </Table.Td>
                <Table.Td>{r.deptNames.join('、') || DASH}</Table.Td>
                <Table.Td>{r.position || DASH}</Table.Td>
                <Table.Td>{r.mobile || DASH}</Table.Td>
                <Table.Td>{r.officePhone || DASH}</Table.Td>
                <Table.Td>{r.email || DASH}</Table.Td>
                <Table.Td>{r.sort}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={r.hidden ? 'gray' : 'green'}>
                    {r.hidden ? M.hidden : M.shown}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <RowAction icon={IconPencil} onClick={() => open(r)}>
                      {tCore.common.edit}
                    </RowAction>
                    {r.id !== null && (
                      <RowAction
                        icon={IconTrash}
                        color="red"
                        onClick={() => confirmDelete({ ...r, id: r.id! })}
                      >
                        {r.userId === null ? tCore.common.delete : M.clear}
                      </RowAction>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }}>
      <Group justify="space-between" gap="sm">
        <Group gap="xs">
          <IconAddressBook size={24} stroke={1.6} />
          <Title order={3}>{M.title}</Title>
          {book.data && (
            <Text size="sm" c="dimmed">
              {tDirectory.total(book.data.list.length)}
            </Text>
          )}
        </Group>
        <Group gap="xs">
          <Button
            variant="light"
            leftSection={<IconUpload size={16} />}
            onClick={() => setImporting(true)}
            data-testid="address-book-import"
          >
            {tRecords.import}
          </Button>
          <Button leftSection={<IconPlus size={18} />} onClick={() => open(null)}>
            {M.add}
          </Button>
        </Group>
      </Group>
      {/* The directory on the records' batch import (schemeId addressBook). */}
      <ImportDialog
        schemeId="addressBook"
        title={M.importTitle}
        replaceable={false}
        opened={importing}
        onClose={() => setImporting(false)}
        onImported={() => void queryClient.invalidateQueries({ queryKey: directoryKeys.all })}
      />
      <Text size="sm" c="dimmed">
        {M.hint}
      </Text>
      <Card withBorder radius="md" padding="sm">
        <Group gap="sm" mb="sm" wrap="wrap">
          <SearchBox value={keyword} onChange={setKeyword} style={{ flex: '1 1 240px' }} />
          <Select
            aria-label={tDirectory.depts}
            placeholder={tDirectory.all}
            data={deptData}
            value={deptId}
            onChange={setDeptId}
            clearable
            searchable
            style={{ flex: '0 1 220px' }}
          />
        </Group>
        {body}
      </Card>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={dialog?.row ? M.editTitle(dialog.row.name) : M.addTitle}
        size={550}
      >
        {dialog && (
          <EntryForm
            key={dialog.nonce}
            row={dialog.row}
            departments={departments}
            onDone={() => setOpened(false)}
          />
        )}
      </Modal>
    </Stack>
  );
}
