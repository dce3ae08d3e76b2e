import { Anchor, Card, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { Suspense, useState, type ReactNode } from 'react';
import { dictKeysOf, type RecordDef } from '../../../shared/records/define';
import { formatMuseumMinute } from '../../../shared/rules/museum-time';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { tNews } from '../../lib/i18n/news';
import { useDictionaries, useRecordPage } from '../../lib/records';
import { page } from '../../routes/lazy';

/**
 * The detail drawer loads with its first opening (issue 25): its field views, rich text and
 * sanitiser are not needed to draw the workbench. The service worker precaches it after sign-in.
 */
const RecordDetailDrawer = page(() => import('./record-detail'), 'RecordDetailDrawer');

/**
 * A workbench card of a record's newest rows (the latest museum news): each row's name and its
 * time, opening the detail drawer in place; 更多 goes to the record's page. Kept on the device,
 * so it shows offline with the last sync time.
 */
export function LatestRecords({
  def,
  query,
  title,
  icon,
  more,
  empty,
  timeField,
  testId,
}: {
  def: RecordDef;
  query: Record<string, unknown>;
  title: string;
  icon: ReactNode;
  /** The record's page, for 更多. */
  more: string;
  empty: string;
  /** The moment shown beside each row (a datetime field), else its creation time. */
  timeField?: string;
  testId?: string;
}) {
  const view = useRecordPage(def, query);
  const dicts = useDictionaries(dictKeysOf(def));
  const [openId, setOpenId] = useState<number | null>(null);
  // Mounted from the first opening on, so that closing still animates.
  const [opened, setOpened] = useState(false);
  const list = view.data?.list ?? [];
  return (
    <Card radius="lg" p="md" withBorder data-testid={testId}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          {icon}
          <Text fw={600}>{title}</Text>
          <OfflineNote view={view} />
        </Group>
        <Anchor component={Link} to={more} size="sm">
          {tNews.more}
        </Anchor>
      </Group>
      {view.status !== 'ready' ? (
        <CachedViewState view={view} />
      ) : list.length === 0 ? (
        <Text c="dimmed" size="sm">
          {empty}
        </Text>
      ) : (
        <Stack gap={0}>
          {list.map((row) => {
            const at = (timeField ? row[timeField] : row.createTime) as number | null;
            return (
              <UnstyledButton
                key={row.id}
                py={8}
                onClick={() => {
                  setOpenId(row.id);
                  setOpened(true);
                }}
                data-testid="latest-record"
              >
                <Group gap="sm" wrap="nowrap" justify="space-between">
                  <Text size="sm" truncate style={{ flex: 1, minWidth: 0 }}>
                    {def.describe(row)}
                  </Text>
                  {at ? (
                    <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
                      {formatMuseumMinute(at).slice(5, 10)}
                    </Text>
                  ) : null}
                </Group>
              </UnstyledButton>
            );
          })}
        </Stack>
      )}
      {opened && (
        <Suspense fallback={null}>
          <RecordDetailDrawer
            def={def}
            id={openId}
            dictLabel={dicts.labelOf}
            onClose={() => setOpenId(null)}
          />
        </Suspense>
      )}
    </Card>
  );
}
