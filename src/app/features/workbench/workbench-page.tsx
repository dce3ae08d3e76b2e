import {
  Anchor,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
  UnstyledButton,
} from '@mantine/core';
import {
  IconAddressBook,
  IconApps,
  IconBuildingMonument,
  IconFileDownload,
  IconCalendarEvent,
  IconBell,
  IconChecklist,
  IconClipboardCheck,
  IconMap,
  IconNews,
  IconSend,
} from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { ICONS } from '../../components/icons';
import { OfflineNote } from '../../components/offline-note';
import { tWorkbench } from '../../lib/i18n/workbench';
import { useLaunchSnapshot } from '../../lib/launch-snapshot';
import { openNoticeCentre, useCounts, type Counts } from '../../lib/notices';
import { useSession } from '../../lib/session';
import classes from './workbench.module.css';

function greeting(hour: number): string {
  if (hour < 6) return '夜深了';
  if (hour < 11) return '上午好';
  if (hour < 13) return '中午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}

/** A workbench card: a title, an optional action at the right, and its body. */
export function WorkbenchSection(props: {
  title: string;
  icon?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Card radius="lg" p="md" withBorder data-testid={props.testId} className={classes.section}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          {props.icon}
          <Text fw={600}>{props.title}</Text>
        </Group>
        {props.action}
      </Group>
      {props.children}
    </Card>
  );
}

export interface WorkbenchSlots {
  /** 今日日程 (the schedule feature). */
  today?: ReactNode;
  /** 通知公告 (the announcements feature). */
  announcements?: ReactNode;
  /** 最近文件 (the drive). */
  recentFiles?: ReactNode;
  /** 今日值班 (the duty roster). */
  duty?: ReactNode;
  /** 馆内动态 (museum news, a record). */
  news?: ReactNode;
  /** 今日讲解场次 (volunteer administrators only; volunteer service). */
  volunteers?: ReactNode;
  /** 馆务数据: the charts each role reads (issue 24, the dashboards feature). */
  dashboards?: ReactNode;
}

/** The workbench's own pages (hidden from the side menu), reachable from its module card. */
const HOME_LINKS = [
  { to: '/home/notice-list', label: tWorkbench.noticeList, icon: IconNews },
  { to: '/home/address-book', label: tWorkbench.addressBook, icon: IconAddressBook },
  { to: '/home/watch-list', label: tWorkbench.watchList, icon: IconCalendarEvent },
  { to: '/home/nbdt-list', label: tWorkbench.news, icon: IconBuildingMonument },
  { to: '/mymap', label: tWorkbench.map, icon: IconMap },
  { to: '/home/data-download', label: tWorkbench.downloads, icon: IconFileDownload },
] as const;

type CountTile = {
  key: keyof Counts;
  label: string;
  icon: typeof IconBell;
  color: string;
  open: () => void;
};

/**
 * The workbench (issue 7): what a member of staff sees first each morning — their counts (to
 * approve, copied to them, unread notices, collaboration), today's schedule, the latest
 * announcements, their recent files and the modules their role has. The counts follow the
 * notice centre live; every card reads from the device offline and says when it last synced.
 * Other features' cards come in as slots (routes compose features; features do not import
 * each other).
 */
export function WorkbenchPage({
  today,
  announcements,
  recentFiles,
  duty,
  news,
  volunteers,
  dashboards,
}: WorkbenchSlots) {
  const state = useSession();
  const navigate = useNavigate();
  const counts = useCounts();
  // Shown first at the next launch the same day (it greets by the hour and shows the date and
  // today's schedule): lib/launch-snapshot.ts. Ready once the counts show, the cards on top.
  useLaunchSnapshot('workbench', counts.status, String(counts.syncedAt), { life: 'day' });
  if (!state) return null;
  const now = dayjs();
  const modules = state.menu.modules.filter((m) => m.key !== 'home');
  const tiles: CountTile[] = [
    {
      key: 'todoCount',
      label: tWorkbench.todo,
      icon: IconClipboardCheck,
      color: 'orange',
      open: () => void navigate({ to: '/approve/process-pending', search: { state: 'pending' } }),
    },
    {
      key: 'copytoCount',
      label: tWorkbench.copied,
      icon: IconSend,
      color: 'blue',
      open: () => void navigate({ to: '/approve/process-copy', search: { state: 'copy' } }),
    },
    {
      key: 'noticeCount',
      label: tWorkbench.notices,
      icon: IconBell,
      color: 'red',
      open: () => openNoticeCentre('notice'),
    },
    {
      key: 'cooperationCount',
      label: tWorkbench.cooperation,
      icon: IconChecklist,
      color: 'teal',
      open: () => openNoticeCentre('cooperation'),
    },
  ];
  return (
    <Stack gap="md" data-testid="workbench" className={classes.page}>
      <Card radius="lg" p="lg" className={classes.hello}>
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <div>
            <Title order={3}>
              {greeting(now.hour())}，{state.user.userName}
            </Title>
            <Text c="dimmed" mt={4}>
              {now.format('YYYY年M月D日 dddd')}
              {state.user.departments.length > 0 &&
                ` · ${state.user.departments.map((d) => d.name).join('、')}`}
            </Text>
          </div>
          <OfflineNote view={counts} />
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" mt="md">
          {tiles.map((tile) => (
            <UnstyledButton
              key={tile.key}
              onClick={tile.open}
              className={classes.tile}
              data-testid={`count-${tile.key}`}
            >
              <Group gap="sm" wrap="nowrap">
                <ThemeIcon size={40} radius="md" variant="light" color={tile.color}>
                  <tile.icon size={22} />
                </ThemeIcon>
                <div>
                  <Text fw={700} fz={24} lh={1.1} data-testid="count-value">
                    {counts.data ? counts.data[tile.key] : '–'}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {tile.label}
                  </Text>
                </div>
              </Group>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      </Card>

      <div className={classes.columns}>
        <Stack gap="md">
          {duty}
          {today}
          {announcements}
          {news}
        </Stack>
        <Stack gap="md">
          {volunteers}
          {dashboards}
          {recentFiles}
          <WorkbenchSection title={tWorkbench.modules} icon={<IconApps size={18} />}>
            <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="xs">
              {HOME_LINKS.map((l) => (
                <UnstyledButton
                  key={l.to}
                  className={classes.module}
                  onClick={() => void navigate({ to: l.to })}
                >
                  <Group gap="xs" wrap="nowrap">
                    <ThemeIcon size={32} radius="md" variant="light" color="teal">
                      <l.icon size={18} />
                    </ThemeIcon>
                    <Text size="sm" fw={500} truncate>
                      {l.label}
                    </Text>
                  </Group>
                </UnstyledButton>
              ))}
              {modules.map((m) => {
                const Icon = ICONS[m.icon];
                const first = m.items[0];
                const leaf = first && ('path' in first ? first : first.children[0]);
                return (
                  <UnstyledButton
                    key={m.key}
                    className={classes.module}
                    onClick={() => leaf && void navigate({ to: leaf.path, search: leaf.search ?? {} })}
                  >
                    <Group gap="xs" wrap="nowrap">
                      <ThemeIcon size={32} radius="md" variant="light">
                        <Icon size={18} />
                      </ThemeIcon>
                      <Text size="sm" fw={500} truncate>
                        {m.title}
                      </Text>
                    </Group>
                  </UnstyledButton>
                );
              })}
            </SimpleGrid>
          </WorkbenchSection>
        </Stack>
      </div>
    </Stack>
  );
}

/** A 更多 link for a section header. */
export function SectionLink({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Anchor component="button" type="button" size="sm" onClick={onClick}>
      {label}
    </Anchor>
  );
}
