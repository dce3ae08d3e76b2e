import { ActionIcon, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { WenwuOptions } from '../../../shared/api/content';
import type { RecordRow } from '../../../shared/records/api';
import { bsExhibition } from '../../../shared/records/content/index';
import { museum, errorToast } from '../../lib/api';
import { tCore } from '../../lib/i18n-core';
import { tApplet } from '../../lib/i18n/applet';
import { tRecords } from '../../lib/i18n/records';
import { recordKeys, writeRecord } from '../../lib/records';
import { moveItem } from './content-rules';

const A = tApplet;
interface Exhibit {
  subId: number;
  title: string;
  note: string;
}

/**
 * An exhibition's 展品 (spec §7 wenwuList / wenwuSave; README "Mini-program pages"): 藏品 of the
 * collection in the order visitors meet them, each with a note (展柜, 展区). The editor searches
 * the collection by 名称 or 总登记号 (`wenwuOptions`: only what a label shows, so an editor needs
 * no collection page); 保存 replaces the whole list through the outbox, leaving the exhibition's
 * videos and goods (关联内容) as they are. Removing here takes effect with 保存.
 */
export function ExhibitsDialog({
  exhibition,
  onClose,
}: {
  exhibition: RecordRow | null;
  onClose: () => void;
}) {
  const id = exhibition?.id ?? 0;
  const saved = useQuery({
    queryKey: [...recordKeys.all(bsExhibition), 'wenwuList', id],
    queryFn: () =>
      museum.get<{ list: { subId: number; title: string; note: string }[] }>(
        `${bsExhibition.base}/wenwuList`,
        {
          query: { id },
        },
      ),
    enabled: id > 0,
  });
  const [edited, setList] = useState<Exhibit[] | null>(null);
  const list = edited ?? saved.data?.list.map(({ subId, title, note }) => ({ subId, title, note })) ?? null;
  const [search, setSearch] = useState('');
  const [keyword] = useDebouncedValue(search.trim(), 300);
  const options = useQuery({
    queryKey: [...recordKeys.all(bsExhibition), 'wenwuOptions', keyword],
    queryFn: () => museum.get<WenwuOptions>(`${bsExhibition.base}/wenwuOptions`, { query: { keyword } }),
    enabled: id > 0,
  });
  const [busy, setBusy] = useState(false);

  const choices = (options.data?.list ?? [])
    .filter((r) => !list?.some((x) => x.subId === r.id))
    .map((r) => ({
      value: String(r.id),
      label: [r.registerNo, r.name, r.era && `（${r.era}）`].filter(Boolean).join(' '),
    }));

  const pick = (value: string | null) => {
    const row = options.data?.list.find((r) => String(r.id) === value);
    if (!row || !list) return;
    setList([...list, { subId: row.id, title: `${row.registerNo} ${row.name}`.trim(), note: '' }]);
    setSearch('');
  };

  const save = async () => {
    if (!list || !exhibition) return;
    setBusy(true);
    try {
      const body = { id: exhibition.id, items: list.map(({ subId, note }) => ({ subId, note })) };
      const r = await writeRecord(bsExhibition, 'POST wenwuSave', body, {
        action: 'update',
        id: exhibition.id,
        label: A.exhibitsSaveLabel(String(exhibition.title)),
      });
      notifications.show({
        color: r.queued ? 'yellow' : 'green',
        message: r.queued ? tRecords.queued : tCore.common.saved,
      });
      onClose();
    } catch (err) {
      errorToast(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={exhibition !== null}
      onClose={onClose}
      size={700}
      closeOnClickOutside={false}
      title={A.exhibitsTitle(String(exhibition?.title ?? ''))}
      closeButtonProps={{ 'aria-label': A.closeExhibits }}
    >
      <Stack gap="sm" data-testid="exhibits-dialog">
        <Text size="sm" c="dimmed">
          {A.exhibitsIntro}
        </Text>
        <Select
          placeholder={A.pickExhibit}
          aria-label={A.pickExhibit}
          data={choices}
          value={null}
          onChange={pick}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          // The server searched already: show its answer as it is.
          filter={({ options: all }) => all}
          nothingFoundMessage={options.isFetching ? tCore.common.loading : A.nothingToPick}
        />
        {!list ? (
          <Text size="sm" c="dimmed">
            {tCore.common.loading}
          </Text>
        ) : list.length === 0 ? (
          <Text size="sm" c="dimmed">
            {A.exhibitsEmpty}
          </Text>
        ) : (
          <Stack gap={6}>
            {list.map((item, i) => (
              <Group key={item.subId} gap="xs" wrap="nowrap" data-testid="exhibit-item">
                <Text size="sm" style={{ flex: '1 1 auto', minWidth: 0 }} truncate>
                  {item.title || `#${item.subId}`}
                </Text>
                <TextInput
                  size="xs"
                  placeholder={A.exhibitNote}
                  aria-label={A.exhibitNote}
                  value={item.note}
                  maxLength={200}
                  onChange={(e) => {
                    const note = e.currentTarget.value;
                    setList(list.map((x, j) => (j === i ? { ...x, note } : x)));
                  }}
                  w={140}
                />
                <ActionIcon
                  variant="subtle"
                  aria-label={tRecords.up}
                  onClick={() => setList(moveItem(list, i, -1))}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  aria-label={tRecords.down}
                  onClick={() => setList(moveItem(list, i, 1))}
                >
                  <IconArrowDown size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={tCore.common.delete}
                  onClick={() => setList(list.filter((_, j) => j !== i))}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {tCore.common.cancel}
          </Button>
          <Button onClick={() => void save()} loading={busy} disabled={!list} data-testid="exhibits-save">
            {tCore.common.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
