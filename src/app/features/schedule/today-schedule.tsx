import {
  Badge,
  Button,
  Card,
  Group,
  Center,
  Loader,
  Modal,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
  EmptyState,
} from '@mantine/core';
import {
  IconCalendarEvent,
  IconChevronLeft,
  IconChevronRight,
  IconMapPin,
  IconPlus,
} from '@tabler/icons-react';
import dayjs from 'dayjs';
import { Suspense, useState } from 'react';
import type { ScheduleItem } from '../../../shared/api/schedule';
import { addDays, museumDate } from '../../../shared/rules/museum-time';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { tSchedule } from '../../lib/i18n/schedule';
import { useScheduleDay } from './schedule-data';
import { page } from '../../routes/lazy';
import type { ScheduleEntry } from './schedule-overlay';
import classes from './schedule.module.css';

const S = tSchedule;

/** The editor, with its date and time pickers, loads when 新增 or an item is first opened (issue 25). */
const ScheduleEditor = page(() => import('./schedule-editor'), 'ScheduleEditor');

/** '09:00–10:30' on the day shown; a part on another day carries its date ('3/4 22:00'). */
function timeText(item: ScheduleItem, date: string): string {
  if (item.allDay) return S.allDay;
  const at = (time: string) =>
    time.slice(0, 10) === date
      ? time.slice(11)
      : `${dayjs(time.slice(0, 10)).format('M/D')} ${time.slice(11)}`;
  return item.startTime === item.endTime ? at(item.startTime) : `${at(item.startTime)}–${at(item.endTime)}`;
}

interface Editing {
  item: ScheduleItem | null;
  date: string;
  /** Bumped at each opening so the form is rebuilt from the item it opens for. */
  nonce: number;
}

/**
 * The workbench's 今日日程 card: the person's items of a day (today first; 前一天 / 后一天 move
 * through the days) with time, title and place, and a small editor in a modal. The day is kept
 * on the device: offline it shows with the last sync time, and new or changed items wait in the
 * outbox, shown at once as 待同步.
 */
export function TodaySchedule() {
  const [today] = useState(() => museumDate(Date.now()));
  const [date, setDate] = useState(today);
  const view = useScheduleDay(date);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [opened, setOpened] = useState(false);
  const items: ScheduleEntry[] = view.data?.list ?? [];

  const open = (item: ScheduleItem | null) => {
    setEditing((prev) => ({ item, date, nonce: (prev?.nonce ?? 0) + 1 }));
    setOpened(true);
  };

  let body;
  if (view.status !== 'ready') body = <CachedViewState view={view} />;
  else if (items.length === 0)
    body = (
      <EmptyState
        py="lg"
        icon={<IconCalendarEvent size={28} />}
        title={S.empty}
        description={S.emptyHint}
        data-testid="schedule-empty"
      />
    );
  else
    body = (
      <Stack gap={4} data-testid="schedule-list">
        {items.map((item) => {
          const row = (
            <UnstyledButton
              key={item.id}
              className={classes.item}
              onClick={() => open(item)}
              disabled={item.pending}
              data-testid="schedule-item"
              data-pending={item.pending || undefined}
            >
              <Text size="sm" fw={600} className={classes.time}>
                {timeText(item, date)}
              </Text>
              <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
                <Group gap={6} wrap="nowrap">
                  <Text size="sm" fw={500} truncate data-testid="schedule-title">
                    {item.title}
                  </Text>
                  {item.pending && (
                    <Badge size="xs" color="yellow" variant="light">
                      {S.pending}
                    </Badge>
                  )}
                </Group>
                {item.location && (
                  <Group gap={4} wrap="nowrap" c="dimmed">
                    <IconMapPin size={14} />
                    <Text size="xs" truncate>
                      {item.location}
                    </Text>
                  </Group>
                )}
              </Stack>
            </UnstyledButton>
          );
          return item.pending ? (
            <Tooltip key={item.id} label={S.pendingHint}>
              <div>{row}</div>
            </Tooltip>
          ) : (
            row
          );
        })}
      </Stack>
    );

  return (
    <Card radius="lg" p="md" withBorder data-testid="today-schedule">
      <Group justify="space-between" gap="xs" mb="sm">
        <Group gap="xs" wrap="nowrap">
          <IconCalendarEvent size={18} />
          <Text fw={600} data-testid="schedule-heading">
            {date === today ? S.title : S.titleOf(dayjs(date).format('M月D日 dddd'))}
          </Text>
          <OfflineNote view={view} />
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Button.Group>
            <Button
              variant="default"
              size="sm"
              onClick={() => setDate(addDays(date, -1))}
              aria-label={S.prev}
            >
              <IconChevronLeft size={16} />
            </Button>
            <Button variant="default" size="sm" onClick={() => setDate(today)} disabled={date === today}>
              {S.today}
            </Button>
            <Button variant="default" size="sm" onClick={() => setDate(addDays(date, 1))} aria-label={S.next}>
              <IconChevronRight size={16} />
            </Button>
          </Button.Group>
          <Button size="sm" leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
            {S.add}
          </Button>
        </Group>
      </Group>
      {body}
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={editing?.item ? S.editTitle : S.addTitle}
        size={550}
      >
        {editing && (
          <Suspense
            fallback={
              <Center h={200}>
                <Loader size="sm" />
              </Center>
            }
          >
            <ScheduleEditor
              key={editing.nonce}
              item={editing.item}
              date={editing.date}
              onClose={() => setOpened(false)}
            />
          </Suspense>
        )}
      </Modal>
    </Card>
  );
}
