import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { RecordNames, RecordRow } from '../../../shared/records/api';
import { dictItem, dictType } from '../../../shared/records/index';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { SearchField } from '../../components/search-field';
import { tDictionary } from '../../lib/i18n/dictionary';
import { tRecords } from '../../lib/i18n/records';
import { useRecordPage } from '../../lib/records';
import { RecordForm } from './record-form';
import { RecordListPage, useGrant } from './record-list-page';

const D = tDictionary;
const NO_NAMES: RecordNames = { users: {}, depts: {} };

/**
 * 数据字典 (/staff/data): the dictionaries on the left, the chosen one's items on the right as the
 * generic record list (its add, edit, sort, enable and delete). Both are the generic records
 * (dictType, dictItem); this page only arranges them. Seeded (system) dictionaries and items
 * cannot be deleted, only renamed, re-sorted or disabled: the server says so if one tries.
 */
export function DictionaryPage() {
  const [keyword, setKeyword] = useState('');
  const query = useMemo(() => ({ pageCount: 200, currentPage: 1, keyword: keyword || undefined }), [keyword]);
  const view = useRecordPage(dictType, query);
  const writer = useGrant(dictType.access.write);
  const [chosen, setChosen] = useState<string | null>(null);
  const [form, setForm] = useState<{ row: RecordRow | null; nonce: number } | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const list = view.data?.list ?? [];
  const current = list.find((d) => d.dictKey === chosen) ?? null;
  const fixed = useMemo(() => (chosen ? { dictKey: chosen } : undefined), [chosen]);

  const open = (row: RecordRow | null) => {
    setForm((p) => ({ row, nonce: (p?.nonce ?? 0) + 1 }));
    setFormOpen(true);
  };

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="dictionary-page">
      <Group justify="space-between">
        <Group gap="xs">
          <Title order={3}>{D.title}</Title>
          <OfflineNote view={view} />
        </Group>
        {writer && (
          <Button leftSection={<IconPlus size={18} />} variant="light" onClick={() => open(null)}>
            {tRecords.addTitle(D.keys)}
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {D.intro}
      </Text>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 4, lg: 3 }}>
          <Card withBorder radius="md" padding="xs">
            <SearchField placeholder={tRecords.keyword(D.keys)} onSearch={setKeyword} mb="xs" />
            {view.status !== 'ready' ? (
              <CachedViewState view={view} />
            ) : (
              <ScrollArea.Autosize mah="calc(100dvh - 300px)">
                {list.map((d) => (
                  <NavLink
                    key={d.id}
                    active={d.dictKey === chosen}
                    onClick={() => setChosen(String(d.dictKey))}
                    label={String(d.dictName)}
                    description={String(d.dictKey)}
                    data-testid="dict-key"
                    rightSection={
                      <Group gap={4} wrap="nowrap">
                        {d.isSystem === true && (
                          <Badge size="xs" variant="light" color="gray">
                            {D.system}
                          </Badge>
                        )}
                        {writer && (
                          <Tooltip label={tRecords.edit}>
                            <ActionIcon
                              variant="subtle"
                              size="sm"
                              aria-label={`${tRecords.edit}${String(d.dictName)}`}
                              onClick={(e) => {
                                e.stopPropagation();
                                open(d);
                              }}
                            >
                              <IconPencil size={14} />
                            </ActionIcon>
                          </Tooltip>
                        )}
                      </Group>
                    }
                  />
                ))}
              </ScrollArea.Autosize>
            )}
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
          {current ? (
            <RecordListPage
              key={String(current.dictKey)}
              def={dictItem}
              title={D.itemsOf(String(current.dictName))}
              fixed={fixed}
              embedded
            />
          ) : (
            <Card withBorder radius="md" padding="xl">
              <Text c="dimmed" ta="center">
                {D.choose}
              </Text>
            </Card>
          )}
        </Grid.Col>
      </Grid>
      {form && (
        <RecordForm
          key={form.nonce}
          def={dictType}
          row={form.row}
          names={NO_NAMES}
          options={{}}
          opened={formOpen}
          onClose={() => setFormOpen(false)}
        />
      )}
    </Stack>
  );
}
