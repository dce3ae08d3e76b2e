import { Divider, Drawer, Group, SimpleGrid, Stack, Text, Timeline, Title } from '@mantine/core';
import { IconCircleCheck, IconCirclePlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { RecordDetail as Detail } from '../../../shared/records/api';
import { statusLabel, type RecordDef } from '../../../shared/records/define';
import { formatMuseumMinute } from '../../../shared/rules/museum-time';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { useDialogEscape } from '../../components/dialog-escape';
import { tRecords } from '../../lib/i18n/records';
import { useRecordDetail } from '../../lib/records';
import { FieldView, type ViewContext } from './field-view';

const R = tRecords;

/** The status history (bsStatusLog): who moved the row, from what to what, when, and why. */
export function StatusTimeline({ def, log }: { def: RecordDef; log: Detail['log'] }) {
  if (!log.length)
    return (
      <Text size="sm" c="dimmed">
        {R.noTimeline}
      </Text>
    );
  return (
    <Timeline active={log.length - 1} bulletSize={22} lineWidth={2} data-testid="status-timeline">
      {log.map((l, i) => (
        <Timeline.Item
          key={i}
          bullet={l.action === 'create' ? <IconCirclePlus size={14} /> : <IconCircleCheck size={14} />}
          title={`${l.actionLabel} · ${statusLabel(def, l.toStatus)}`}
        >
          <Text size="xs" c="dimmed">
            {[l.operatorName, formatMuseumMinute(l.time)].filter(Boolean).join(' · ')}
          </Text>
          {l.comment && (
            <Text size="sm" mt={2}>
              {l.comment}
            </Text>
          )}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

/**
 * A record's detail drawer: every field as it reads (rich text rendered, people by name), who
 * made it and when, the status timeline for records with a status, and the row's actions. Kept
 * on the device: a row opened before opens offline, marked with its last sync time.
 */
export function RecordDetailDrawer({
  def,
  id,
  dictLabel,
  onClose,
  actions,
}: {
  def: RecordDef;
  id: number | null;
  dictLabel: ViewContext['dictLabel'];
  onClose: () => void;
  /** The row's buttons (edit, transitions, delete), drawn by the list that knows the rights. */
  actions?: (detail: Detail) => ReactNode;
}) {
  const view = useRecordDetail(def, id);
  const escape = useDialogEscape(onClose, id !== null);
  const detail = view.data;
  const ctx: ViewContext | null = detail ? { names: detail.names, dictLabel } : null;
  const record = detail?.record;

  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size={560}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': R.closeDetail }}
      title={R.detailTitle(def.title)}
      {...escape}
    >
      {!detail || !ctx || !record ? (
        <CachedViewState view={view} />
      ) : (
        <Stack gap="md" data-testid="record-detail">
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <Title order={4} style={{ wordBreak: 'break-word' }}>
              {def.describe(record)}
            </Title>
            <OfflineNote view={view} />
          </Group>
          {actions && <Group gap="xs">{actions(detail)}</Group>}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
            {Object.entries(def.fields)
              .filter(([, fd]) => fd.kind !== 'rich' && fd.kind !== 'textarea')
              .map(([key, fd]) => (
                <div key={key}>
                  <Text size="xs" c="dimmed">
                    {fd.label}
                  </Text>
                  <FieldView fd={fd} value={record[key]} ctx={ctx} full />
                </div>
              ))}
          </SimpleGrid>
          {Object.entries(def.fields)
            .filter(([, fd]) => fd.kind === 'rich' || fd.kind === 'textarea')
            .map(([key, fd]) => (
              <div key={key}>
                <Text size="xs" c="dimmed" mb={4}>
                  {fd.label}
                </Text>
                <FieldView fd={fd} value={record[key]} ctx={ctx} full />
              </div>
            ))}
          {def.status && (
            <>
              <Divider label={R.timeline} labelPosition="left" />
              <StatusTimeline def={def} log={detail.log} />
            </>
          )}
          {/* A module's own calls (the log) have no editor: their who and when are fields. */}
          {!def.adapter && (
            <>
              <Divider label={R.meta} labelPosition="left" />
              <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
                <Meta label={R.createBy} value={detail.names.users[String(record.createBy)] ?? ''} />
                <Meta label={R.createTime} value={formatMuseumMinute(record.createTime)} />
                <Meta label={R.updateTime} value={formatMuseumMinute(record.updateTime)} />
              </SimpleGrid>
            </>
          )}
        </Stack>
      )}
    </Drawer>
  );
}

function Meta({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value || '—'}</Text>
    </div>
  );
}
