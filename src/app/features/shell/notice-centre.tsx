import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Center,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Tabs,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useMediaQuery, useWindowEvent } from '@mantine/hooks';
import { dialogs } from '../../lib/dialogs';
import { notifications } from '@mantine/notifications';
import { IconBell, IconChecklist, IconInbox } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type ReactNode } from 'react';
import type { ApprovalMessageRow, CooperationRow, NoticeRow } from '../../../shared/api/notice';
import { badgeText } from '../../../shared/menu/badge';
import { friendlyDate } from '../../../shared/rules/friendly-date';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { UserAvatar } from '../../components/user-avatar';
import { errorToast } from '../../lib/api';
import type { CachedView } from '../../lib/cached-query';
import { tCore } from '../../lib/i18n-core';
import { tNotices } from '../../lib/i18n/notices';
import {
  OPEN_NOTICE_CENTRE,
  noticeWrites,
  useApprovalMessages,
  useCooperation,
  useNotices,
  type Counts,
} from '../../lib/notices';
import { OutboxRefusal } from '../../lib/outbox';
import classes from './shell.module.css';

type Tab = 'notice' | 'cooperation' | 'approval';
const TABS: Tab[] = ['notice', 'cooperation', 'approval'];

/** Notice texts and collaboration titles are shortened to 60 characters (spec office.md §9). */
export const SHORT_MAX = 60;
export function shorten(text: string, max = SHORT_MAX): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}

/** Splits an in-app link such as `/approve/notice-detail?id=3` for the router. */
function target(link: string): { to: string; search: Record<string, string> } | null {
  // Only our own paths: a notice never sends anyone off-site.
  if (!link.startsWith('/') || link.startsWith('//')) return null;
  const url = new URL(link, window.location.origin);
  return { to: url.pathname, search: Object.fromEntries(url.searchParams) };
}

/**
 * Reads and clears are fire-and-forget: online they land at once, offline they wait in the
 * outbox. A refusal (rare: the ids come from the server) is shown, and the view rolls back.
 */
const quietly = (p: Promise<unknown>) =>
  void p.catch((err: unknown) => {
    if (err instanceof OutboxRefusal) errorToast(err.message);
  });

/**
 * The notice centre (spec office.md §1, §2, §4): the bell in the top bar with the total count,
 * and a popup with three tabs. Notices are marked read when opened and can all be cleared;
 * collaboration items leave the list once read; approval messages open the approval panel —
 * pending mode for status 1, copy mode for status 10 after marking it read. Every list shows
 * the device's copy offline, with its last sync time, and reads made offline replay later.
 */
export function NoticeCentre({ counts }: { counts: Counts | undefined }) {
  const [opened, setOpened] = useState(false);
  const [tab, setTab] = useState<Tab>('notice');
  const narrow = useMediaQuery('(max-width: 575.98px)') ?? false;
  // All three lists stay loaded while signed in, not only while the popup is open: the live
  // stream then refreshes them in the background, so the device copy is current when the
  // network goes.
  const notices = useNotices();
  const cooperation = useCooperation();
  const approval = useApprovalMessages();
  // Escape closes it wherever the focus is (the bell keeps focus after a click).
  useWindowEvent('keydown', (e) => {
    if (e.key === 'Escape') setOpened(false);
  });
  useEffect(() => {
    const onOpen = (e: Event) => {
      setTab((e as CustomEvent<Tab>).detail);
      setOpened(true);
    };
    window.addEventListener(OPEN_NOTICE_CENTRE, onOpen);
    return () => window.removeEventListener(OPEN_NOTICE_CENTRE, onOpen);
  }, []);
  const total = counts?.total ?? 0;
  const perTab: Record<Tab, number> = {
    notice: counts?.noticeCount ?? 0,
    cooperation: counts?.cooperationCount ?? 0,
    approval: counts?.approvalCount ?? 0,
  };
  return (
    <Popover
      width={narrow ? 'calc(100vw - 16px)' : 380}
      position="bottom-end"
      shadow="md"
      withArrow={!narrow}
      opened={opened}
      onChange={setOpened}
      trapFocus={false}
    >
      {/* The popover's target is the button itself, so its expanded state is on a button. */}
      <Indicator
        disabled={total === 0}
        label={
          <span data-testid="notice-total" aria-hidden>
            {badgeText(total)}
          </span>
        }
        size={16}
        color="red"
        offset={4}
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label={total > 0 ? tNotices.titleWithCount(total) : tNotices.title}
            data-testid="notice-centre"
            onClick={() => setOpened((o) => !o)}
          >
            <IconBell size={22} aria-hidden />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown p={0} data-testid="notice-popup">
        <Tabs value={tab} onChange={(v) => setTab((v as Tab) ?? 'notice')}>
          <Tabs.List grow>
            {TABS.map((k) => (
              <Tabs.Tab
                key={k}
                value={k}
                rightSection={
                  perTab[k] > 0 ? (
                    <Badge size="xs" color="red" circle={perTab[k] < 10} data-testid={`tab-count-${k}`}>
                      {badgeText(perTab[k])}
                    </Badge>
                  ) : undefined
                }
              >
                {tNotices.tabs[k]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="notice">
            {opened && tab === 'notice' && <NoticeTab view={notices} close={() => setOpened(false)} />}
          </Tabs.Panel>
          <Tabs.Panel value="cooperation">
            {opened && tab === 'cooperation' && (
              <CooperationTab view={cooperation} close={() => setOpened(false)} />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="approval">
            {opened && tab === 'approval' && <ApprovalTab view={approval} close={() => setOpened(false)} />}
          </Tabs.Panel>
        </Tabs>
      </Popover.Dropdown>
    </Popover>
  );
}

/** A tab's body: its list, or the empty, offline or failed state, and a footer. */
function TabBody<T>({
  view,
  tab,
  children,
  footer,
}: {
  view: CachedView<T[]>;
  tab: Tab;
  children: (rows: T[]) => ReactNode;
  footer?: ReactNode;
}) {
  // Loading, not cached offline and failed look as in every cached view; empty is the tab's own.
  const body: ReactNode =
    view.status !== 'ready' ? (
      <CachedViewState view={view} />
    ) : !view.data?.length ? (
      <Empty text={tNotices.empty[tab]} />
    ) : null;
  return (
    <Stack gap={0} data-testid={`notice-tab-${tab}`}>
      {body ? (
        <Center mih={220}>{body}</Center>
      ) : (
        <ScrollArea.Autosize mah={360} type="auto">
          <Stack gap={0}>{children(view.data ?? [])}</Stack>
        </ScrollArea.Autosize>
      )}
      <Group justify="space-between" px="sm" py={6} className={classes.noticeFooter} wrap="nowrap">
        <OfflineNote view={view} />
        <Box style={{ flex: 1 }} />
        {view.data?.length ? footer : null}
      </Group>
    </Stack>
  );
}

function Empty({ text }: { text: string }) {
  return (
    <Stack align="center" gap={4}>
      <IconInbox size={36} color="var(--mantine-color-gray-5)" />
      <Text c="dimmed" size="sm">
        {text}
      </Text>
    </Stack>
  );
}

function Row({
  onClick,
  unread,
  avatar,
  children,
  testId,
}: {
  onClick: () => void;
  unread?: boolean;
  avatar?: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <UnstyledButton
      onClick={onClick}
      className={classes.noticeRow}
      data-unread={unread || undefined}
      data-testid={testId}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {avatar}
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          {children}
        </Stack>
        {unread && <span className={classes.unreadDot} role="img" aria-label={tNotices.unread} />}
      </Group>
    </UnstyledButton>
  );
}

function When({ time }: { time: string }) {
  // Read once per opening of the popup: 今天/昨天 need no live clock in a list seen for seconds.
  const [now] = useState(Date.now);
  return (
    <Text size="xs" c="dimmed">
      {friendlyDate(time, now)}
    </Text>
  );
}

function NoticeTab({ view, close }: { view: CachedView<NoticeRow[]>; close: () => void }) {
  const navigate = useNavigate();
  const open = (n: NoticeRow) => {
    if (n.status === '1') quietly(noticeWrites.readNotice(n));
    const to = n.link ? target(n.link) : null;
    if (to) {
      close();
      void navigate(to);
    }
  };
  const clear = () =>
    dialogs.openConfirmModal({
      title: tNotices.clearNotices,
      children: tNotices.clearNoticesConfirm,
      labels: { confirm: tCore.common.confirm, cancel: tCore.common.cancel },
      confirmProps: { color: 'red' },
      onConfirm: () => quietly(noticeWrites.clearNotices()),
    });
  return (
    <TabBody
      view={view}
      tab="notice"
      footer={
        <Button size="compact-sm" variant="subtle" color="gray" onClick={clear} data-testid="notice-clear">
          {tNotices.clear}
        </Button>
      }
    >
      {(rows) =>
        rows.map((n) => (
          <Row key={n.noticeId} onClick={() => open(n)} unread={n.status === '1'} testId="notice-row">
            <Tooltip
              label={n.noticeContent}
              multiline
              w={300}
              openDelay={300}
              disabled={[...n.noticeContent].length <= SHORT_MAX}
            >
              <Text size="sm" fw={n.status === '1' ? 600 : 400} style={{ wordBreak: 'break-all' }}>
                {shorten(n.noticeContent)}
              </Text>
            </Tooltip>
            <When time={n.createTimeStr} />
          </Row>
        ))
      }
    </TabBody>
  );
}

function CooperationTab({ view, close }: { view: CachedView<CooperationRow[]>; close: () => void }) {
  const navigate = useNavigate();
  const open = (c: CooperationRow) => {
    quietly(noticeWrites.readCooperation(c));
    if (c.isDelete) {
      notifications.show({ color: 'yellow', message: tNotices.taskDeleted });
      return;
    }
    if (c.projectId !== null) {
      close();
      const search: Record<string, string> = { projectId: String(c.projectId) };
      if (c.taskId !== null) search.taskId = String(c.taskId);
      void navigate({ to: '/project/sub', search });
    }
  };
  return (
    <TabBody
      view={view}
      tab="cooperation"
      footer={
        <Button
          size="compact-sm"
          variant="subtle"
          color="gray"
          onClick={() => quietly(noticeWrites.clearCooperation())}
          data-testid="cooperation-clear"
        >
          {tNotices.readAllCooperation}
        </Button>
      }
    >
      {(rows) =>
        rows.map((c) => (
          <Row
            key={c.cooperationId}
            onClick={() => open(c)}
            unread
            testId="cooperation-row"
            avatar={<UserAvatar name={c.userName || tNotices.system} image={c.userImg} size={32} />}
          >
            <Group gap={6} wrap="nowrap">
              {c.cooperationType === '2' && (
                <Tooltip label={tNotices.checklist}>
                  <IconChecklist size={16} color="var(--mantine-color-museum-6)" style={{ flex: 'none' }} />
                </Tooltip>
              )}
              <Text size="sm" fw={600} style={{ wordBreak: 'break-all' }}>
                {shorten(c.cooperationTitle)}
              </Text>
            </Group>
            {c.cooperationContent && (
              <Text size="xs" c="dimmed" lineClamp={2}>
                {c.cooperationContent}
              </Text>
            )}
            <When time={c.createTimeStr} />
          </Row>
        ))
      }
    </TabBody>
  );
}

function ApprovalTab({ view, close }: { view: CachedView<ApprovalMessageRow[]>; close: () => void }) {
  const navigate = useNavigate();
  const open = (m: ApprovalMessageRow) => {
    close();
    const actvityId = String(m.actvityId);
    if (m.status === '1') {
      void navigate({ to: '/approve/process-pending', search: { state: 'pending', actvityId } });
      return;
    }
    // A copy is marked read first, then opened in copy mode (spec §4).
    quietly(noticeWrites.readCopy(m));
    void navigate({ to: '/approve/process-copy', search: { state: 'copy', actvityId } });
  };
  return (
    <TabBody view={view} tab="approval">
      {(rows) =>
        rows.map((m) => (
          <Row
            key={`${m.actvityId}-${m.status}`}
            onClick={() => open(m)}
            unread
            testId="approval-row"
            avatar={<UserAvatar name={m.userName || tNotices.system} image={m.userImg} size={32} />}
          >
            <Group gap={6} wrap="nowrap">
              <Badge
                size="xs"
                variant="light"
                color={m.status === '1' ? 'orange' : 'blue'}
                style={{ flex: 'none' }}
              >
                {m.status === '1' ? tNotices.awaiting : tNotices.copied}
              </Badge>
              <Text size="sm" fw={600} truncate>
                {m.title}
              </Text>
            </Group>
            <When time={m.startTime} />
          </Row>
        ))
      }
    </TabBody>
  );
}
