import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { RecordRow } from '../../../shared/records/api';
import { CONTENT_STATES } from '../../../shared/records/content/common';
import {
  AudioVideo,
  bsCulturalcreative,
  bsExhibition,
  bsRelation,
} from '../../../shared/records/content/index';
import { confirmAction } from '../../components/confirm-action';
import { museum, errorToast } from '../../lib/api';
import { tCore } from '../../lib/i18n-core';
import { tApplet } from '../../lib/i18n/applet';
import { tRecords } from '../../lib/i18n/records';
import { recordKeys, useAllRows, writeRecord } from '../../lib/records';
import { addItem, moveItem, spSaveBody, type RelationItem } from './content-rules';

const A = tApplet;
type Sub = 'AudioVideo' | 'bsCulturalcreative';
const ALL = {};

/**
 * An exhibition's 关联内容 (spec §7 spList / spSave / relationdelete; README "Mini-program
 * pages"): its videos (音视频) and goods (文创产品) in the order visitors see them. Items are
 * picked from the rows the editor may read, ordered with 上移/下移 and given a note; 保存 sends the
 * whole list (spSave, through the outbox like any write). Removing an item already saved is
 * `relationdelete` at once, after asking; one added and not yet saved just leaves the list.
 */
export function RelationDialog({
  exhibition,
  onClose,
}: {
  exhibition: RecordRow | null;
  onClose: () => void;
}) {
  const id = exhibition?.id ?? 0;
  const saved = useQuery({
    queryKey: [...recordKeys.all(bsExhibition), 'spList', id],
    queryFn: () =>
      museum.get<{ list: (RelationItem & { id: number })[] }>(`${bsExhibition.base}/spList`, {
        query: { id },
      }),
    enabled: id > 0,
  });
  // The editor's working list: the saved one until the first change (the parent keys this
  // dialog by exhibition, so another exhibition starts afresh).
  const [edited, setList] = useState<(RelationItem & { id?: number })[] | null>(null);
  const list = edited ?? saved.data?.list ?? null;
  const [sub, setSub] = useState<Sub>('AudioVideo');
  const [busy, setBusy] = useState(false);
  const videos = useAllRows(AudioVideo, ALL, id > 0);
  const goods = useAllRows(bsCulturalcreative, ALL, id > 0);

  const videoRows = videos.data?.list;
  const goodRows = goods.data?.list;
  const rows = useMemo(() => (sub === 'AudioVideo' ? videoRows : goodRows) ?? [], [sub, videoRows, goodRows]);
  const options = useMemo(
    () =>
      rows
        .filter((r) => !list?.some((x) => x.subTable === sub && x.subId === r.id))
        .map((r) => ({ value: String(r.id), label: String(r.title) })),
    [rows, list, sub],
  );

  const pick = (value: string | null) => {
    const row = rows.find((r) => String(r.id) === value);
    if (!row || !list) return;
    setList(
      addItem(list, {
        subTable: sub,
        subId: row.id,
        note: '',
        title: String(row.title),
        status: Number(row.status),
      }),
    );
  };

  const remove = (i: number) => {
    const item = list![i]!;
    if (!item.id) return setList(list!.filter((_, j) => j !== i));
    confirmAction({
      title: A.relationRemoveTitle,
      message: A.relationRemoveConfirm(item.title),
      confirmLabel: tCore.common.delete,
      danger: true,
      run: async () => {
        try {
          const r = await writeRecord(
            bsRelation,
            bsRelation.calls.remove!,
            { id: item.id },
            {
              action: 'remove',
              id: item.id,
              label: A.relationRemoveLabel(String(exhibition?.title), item.title),
            },
          );
          setList((l) =>
            (l ?? saved.data?.list ?? []).filter(
              (x) => !(x.subTable === item.subTable && x.subId === item.subId),
            ),
          );
          notifications.show({
            color: r.queued ? 'yellow' : 'green',
            message: r.queued ? tRecords.queued : tCore.common.deleted,
          });
        } catch (err) {
          errorToast(err instanceof Error ? err.message : String(err));
          throw err;
        }
      },
    });
  };

  const save = async () => {
    if (!list || !exhibition) return;
    setBusy(true);
    try {
      const r = await writeRecord(bsExhibition, 'POST spSave', spSaveBody(exhibition.id, list), {
        action: 'update',
        id: exhibition.id,
        label: A.relationSaveLabel(String(exhibition.title)),
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

  const state = (v: number | null) => CONTENT_STATES.find((s) => s.value === v);
  return (
    <Modal
      opened={exhibition !== null}
      onClose={onClose}
      size={700}
      closeOnClickOutside={false}
      title={A.relationTitle(String(exhibition?.title ?? ''))}
      closeButtonProps={{ 'aria-label': A.closeRelations }}
    >
      <Stack gap="sm" data-testid="relation-dialog">
        <Text size="sm" c="dimmed">
          {A.relationIntro}
        </Text>
        <Group gap="xs" wrap="wrap" align="flex-end">
          <SegmentedControl
            value={sub}
            onChange={(v) => setSub(v as Sub)}
            data={[
              { value: 'AudioVideo', label: A.relationVideo },
              { value: 'bsCulturalcreative', label: A.relationGood },
            ]}
          />
          <Select
            placeholder={sub === 'AudioVideo' ? A.pickVideo : A.pickGood}
            aria-label={sub === 'AudioVideo' ? A.pickVideo : A.pickGood}
            data={options}
            value={null}
            onChange={pick}
            searchable
            nothingFoundMessage={A.nothingToPick}
            style={{ flex: '1 1 240px' }}
            data-testid="relation-pick"
          />
        </Group>
        {!list ? (
          <Text size="sm" c="dimmed">
            {tCore.common.loading}
          </Text>
        ) : list.length === 0 ? (
          <Text size="sm" c="dimmed">
            {A.relationEmpty}
          </Text>
        ) : (
          <Stack gap={6}>
            {list.map((item, i) => (
              <Group
                key={`${item.subTable}:${item.subId}`}
                gap="xs"
                wrap="nowrap"
                data-testid="relation-item"
              >
                <Badge
                  variant="light"
                  color={item.subTable === 'AudioVideo' ? 'grape' : 'teal'}
                  style={{ flex: 'none' }}
                >
                  {item.subTable === 'AudioVideo' ? A.relationVideo : A.relationGood}
                </Badge>
                <Text size="sm" style={{ flex: '1 1 auto', minWidth: 0 }} truncate>
                  {item.title || `#${item.subId}`}
                </Text>
                {state(item.status) && (
                  <Badge size="sm" variant="light" color={state(item.status)!.color} style={{ flex: 'none' }}>
                    {state(item.status)!.label}
                  </Badge>
                )}
                <TextInput
                  size="xs"
                  placeholder={A.relationNote}
                  aria-label={A.relationNote}
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
                  onClick={() => remove(i)}
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
          <Button onClick={() => void save()} loading={busy} disabled={!list} data-testid="relation-save">
            {tCore.common.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
