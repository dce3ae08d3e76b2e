import {
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconPhone, IconSettings } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { addDays, museumDate } from '../../../shared/rules/museum-time';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { tDuty } from '../../lib/i18n/duty';
import { useSession } from '../../lib/session';
import { mondayOf, monthGrid, useDuty, type DutyEntry } from './duty-data';
import classes from './duty.module.css';

const D = tDuty;

/** One duty in a day: kind and shift with its hours, the leader, the staff, the phone. */
export function DutyLine({ e, compact }: { e: DutyEntry; compact?: boolean }) {
  return (
    <div className={classes.entry} data-mine={e.mine || undefined} data-testid="duty-entry">
      <Group gap={6} wrap="wrap">
        <Badge size="sm" variant="light" radius="sm">
          {e.shiftLabel}
        </Badge>
        <Text size="xs" c="dimmed">
          {e.typeLabel}
          {!compact && e.hours ? ` · ${e.hours}` : ''}
        </Text>
        {e.mine && (
          <Badge size="xs" color="teal" variant="filled">
            {D.mine}
          </Badge>
        )}
      </Group>
      <Text size="sm" mt={2}>
        {D.leader} {e.leader}
        {e.staff.length > 0 && ` · ${D.staff} ${e.staff.join('、')}`}
      </Text>
      {!compact && e.phone && (
        <Group gap={4} mt={2}>
          <IconPhone size={12} />
          <Text size="xs" c="dimmed">
            {e.phone}
          </Text>
        </Group>
      )}
    </div>
  );
}

function DayTitle({ date, today }: { date: string; today: string }) {
  const wd = D.weekdays[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7];
  return (
    <Text size="sm" fw={600} c={date === today ? 'blue' : undefined}>
      {date.slice(5).replace('-', '/')} {wd}
      {date === today ? ` · ${D.today}` : ''}
    </Text>
  );
}

/**
 * 值班表 (/home/watch-list), for everyone: the roster by week (seven days side by side on a
 * tablet, one under another on a phone) or by month (a calendar; on a phone the days that have
 * duty). One's own duties are marked 我的值班. Kept on the device: a week seen before opens
 * offline with its last sync time. The office edits on 值班表管理.
 */
export function WatchListPage() {
  const state = useSession();
  const narrow = useMediaQuery('(max-width: 768px)');
  const [today] = useState(() => museumDate(Date.now()));
  const [mode, setMode] = useState<'week' | 'month'>('week');
  const [anchor, setAnchor] = useState(today);
  const from = mode === 'week' ? mondayOf(anchor) : monthGrid(anchor)[0]!;
  const to = mode === 'week' ? addDays(from, 6) : monthGrid(anchor).at(-1)!;
  const { view, byDay } = useDuty(from, to, state?.user.userId);
  const canManage = state?.menu.grantedKeys.includes('oa.watchList');

  const step = (n: number) => {
    if (mode === 'week') setAnchor(addDays(anchor, 7 * n));
    else {
      const [y, m] = anchor.split('-').map(Number) as [number, number];
      const d = new Date(Date.UTC(y, m - 1 + n, 1));
      setAnchor(d.toISOString().slice(0, 10));
    }
  };
  const days = mode === 'week' ? Array.from({ length: 7 }, (_, i) => addDays(from, i)) : monthGrid(anchor);

  let body;
  if (view.status !== 'ready') body = <CachedViewState view={view} />;
  else if (mode === 'week')
    body = (
      <SimpleGrid cols={narrow ? 1 : 7} spacing="xs" data-testid="duty-week">
        {days.map((date) => {
          const list = byDay.get(date) ?? [];
          return (
            <Card
              key={date}
              withBorder
              radius="md"
              padding="xs"
              className={classes.day}
              data-today={date === today || undefined}
            >
              <DayTitle date={date} today={today} />
              <Stack gap={6} mt={6}>
                {list.length ? (
                  list.map((e) => <DutyLine key={e.id} e={e} />)
                ) : (
                  <Text size="xs" c="dimmed">
                    {D.none}
                  </Text>
                )}
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
    );
  else if (narrow)
    body = (
      <Stack gap="xs" data-testid="duty-month">
        {days
          .filter((d) => d.slice(0, 7) === anchor.slice(0, 7) && byDay.has(d))
          .map((date) => (
            <Card key={date} withBorder radius="md" padding="xs">
              <DayTitle date={date} today={today} />
              <Stack gap={6} mt={6}>
                {byDay.get(date)!.map((e) => (
                  <DutyLine key={e.id} e={e} />
                ))}
              </Stack>
            </Card>
          ))}
        {![...byDay.keys()].some((d) => d.slice(0, 7) === anchor.slice(0, 7)) && (
          <Text c="dimmed" size="sm">
            {D.none}
          </Text>
        )}
      </Stack>
    );
  else
    body = (
      <div className={classes.month} data-testid="duty-month">
        {D.weekdays.map((w) => (
          <Text key={w} size="xs" fw={600} ta="center" c="dimmed">
            {w}
          </Text>
        ))}
        {days.map((date) => (
          <UnstyledButton
            key={date}
            className={classes.cell}
            data-other={date.slice(0, 7) !== anchor.slice(0, 7) || undefined}
            data-today={date === today || undefined}
            onClick={() => {
              setAnchor(date);
              setMode('week');
            }}
          >
            <Text size="xs" fw={600}>
              {Number(date.slice(8))}
            </Text>
            <Stack gap={4} mt={2}>
              {(byDay.get(date) ?? []).map((e) => (
                <DutyLine key={e.id} e={e} compact />
              ))}
            </Stack>
          </UnstyledButton>
        ))}
      </div>
    );

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="watch-list-page">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="xs">
          <Title order={3}>{D.title}</Title>
          <OfflineNote view={view} />
        </Group>
        {canManage && (
          <Button
            component={Link}
            to="/oa/watch-list-management"
            variant="light"
            leftSection={<IconSettings size={16} />}
          >
            {D.manage}
          </Button>
        )}
      </Group>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="xs">
          <Button
            variant="default"
            size="compact-md"
            onClick={() => step(-1)}
            aria-label={mode === 'week' ? D.prevWeek : D.prevMonth}
          >
            <IconChevronLeft size={16} />
          </Button>
          <Button variant="default" size="compact-md" onClick={() => setAnchor(today)}>
            {D.today}
          </Button>
          <Button
            variant="default"
            size="compact-md"
            onClick={() => step(1)}
            aria-label={mode === 'week' ? D.nextWeek : D.nextMonth}
          >
            <IconChevronRight size={16} />
          </Button>
          <Text fw={600} data-testid="duty-span">
            {mode === 'week' ? D.weekOf(from, to) : D.monthOf(anchor)}
          </Text>
        </Group>
        <SegmentedControl
          value={mode}
          onChange={(v) => setMode(v as 'week' | 'month')}
          data={[
            { value: 'week', label: D.week },
            { value: 'month', label: D.month },
          ]}
        />
      </Group>
      {body}
    </Stack>
  );
}
