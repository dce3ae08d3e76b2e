import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { museumDate } from '../../../shared/rules/museum-time';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { tDuty } from '../../lib/i18n/duty';
import { useSession } from '../../lib/session';
import { useDuty } from './duty-data';
import { DutyLine } from './watch-list-page';

const D = tDuty;

/**
 * The workbench's 今日值班: who is on duty today, by kind and shift with its hours, the leader,
 * the staff and the duty phone; one's own duty is marked. Kept on the device for offline.
 */
export function TodayDuty() {
  const state = useSession();
  const [today] = useState(() => museumDate(Date.now()));
  const { view, byDay } = useDuty(today, today, state?.user.userId);
  const list = byDay.get(today) ?? [];
  return (
    <Card radius="lg" p="md" withBorder data-testid="today-duty">
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <IconCalendarEvent size={18} />
          <Text fw={600}>{D.todayTitle}</Text>
          <OfflineNote view={view} />
        </Group>
        <Anchor component={Link} to="/home/watch-list" size="sm">
          {D.more}
        </Anchor>
      </Group>
      {view.status !== 'ready' ? (
        <CachedViewState view={view} />
      ) : list.length ? (
        <Stack gap={6}>
          {list.map((e) => (
            <DutyLine key={e.id} e={e} />
          ))}
        </Stack>
      ) : (
        <Text c="dimmed" size="sm">
          {D.noneToday}
        </Text>
      )}
    </Card>
  );
}
