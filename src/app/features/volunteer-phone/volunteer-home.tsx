import {
  Accordion,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Menu,
  ActionIcon,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { dialogs } from '../../lib/dialogs';
import { notifications } from '@mantine/notifications';
import {
  IconAward,
  IconCalendarEvent,
  IconChevronRight,
  IconCloudOff,
  IconDots,
  IconLogout,
  IconSpeakerphone,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import type {
  MyRecords,
  MySession,
  OpenRecruit,
  OpenSession,
  VolunteerMe,
} from '../../../shared/api/volunteer-me';
import { CHECKIN_STATES, SESSION_CANCELLED } from '../../../shared/records/volunteer/exhibition-service';
import { ADULT_STATES } from '../../../shared/records/volunteer/people';
import { SIGN_STATES } from '../../../shared/records/volunteer/recruit';
import { SERVICE_RECORD_STATES } from '../../../shared/records/volunteer/service-hours';
import { hoursText } from '../../../shared/rules/volunteer-hours';
import { CachedViewState } from '../../components/cached-state';
import { FirstPassword } from '../../components/first-password';
import { OfflineNote } from '../../components/offline-note';
import { errorToast } from '../../lib/api';
import { signOut } from '../../lib/sign-out';
import { leaveForSignIn } from '../../lib/sign-in-page';
import { useCachedQuery } from '../../lib/cached-query';
import { tCore } from '../../lib/i18n-core';
import { tVolunteerPhone } from '../../lib/i18n/volunteer-phone';
import { outbox, useOutbox } from '../../lib/offline';
import { OutboxRefusal } from '../../lib/outbox';
import { useOnline } from '../../lib/online';
import { prefetchMySessions } from '../../lib/volunteer-sessions';
import { useSession } from '../../lib/session';
import { SIGN_UP_KIND, volunteerCalls, volunteerKeys, type SignUpMeta } from './volunteer-data';

const V = tVolunteerPhone;

/**
 * The volunteer's phone view (/m; issue 20, README "Volunteer accounts and the phone view"),
 * laid out for a phone held in one hand (390 × 844): who I am and my hours first, then the
 * week's sessions (each opening its check-in page, /m/session/<id>), what I can claim or sign
 * up for, notices and my records. The answer lives on the device, so a basement hall without
 * signal still shows it, marked 离线 with the time it was synced.
 */
export function VolunteerHome() {
  const view = useCachedQuery<VolunteerMe>({
    queryKey: volunteerKeys.me(),
    fetch: ({ signal }) => volunteerCalls.me(signal),
    // The refusal (你还不是本馆志愿者…) is shown in the page, not as a toast too.
    toastErrors: false,
  });
  const d = view.data;

  return (
    <Box
      data-testid="volunteer-home"
      style={{ minHeight: '100dvh', background: 'var(--mantine-color-gray-0)' }}
    >
      <Header />
      <Stack gap="sm" p="sm" maw={560} mx="auto">
        {view.offline && (
          <Alert color="yellow" variant="light" icon={<IconCloudOff size={18} />} data-testid="vp-offline">
            <Stack gap={4}>
              <Text size="sm">{V.offlineHint}</Text>
              <OfflineNote view={view} />
            </Stack>
          </Alert>
        )}
        {view.status !== 'ready' || !d ? (
          <CachedViewState view={view} />
        ) : d.mustChangePassword ? (
          <FirstPassword />
        ) : (
          <Home me={d} offline={view.offline} />
        )}
      </Stack>
    </Box>
  );
}

function Header() {
  const state = useSession();
  const navigate = useNavigate();
  const staff = (state?.menu.modules.length ?? 0) > 0;
  return (
    <Group
      justify="space-between"
      px="md"
      py="sm"
      bg="var(--mantine-color-body)"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)', position: 'sticky', top: 0, zIndex: 2 }}
    >
      <Title order={1} size="h4">
        {V.title}
      </Title>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" size="lg" aria-label={V.menu} data-testid="vp-menu">
            <IconDots size={20} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {staff && (
            <Menu.Item
              onClick={() => void navigate({ href: state!.roleFunction.firstUrl || '/home/workbench' })}
            >
              {V.staffBack}
            </Menu.Item>
          )}
          <Menu.Item
            color="red"
            leftSection={<IconLogout size={16} />}
            onClick={() => void signOut().then(() => leaveForSignIn(() => void navigate({ href: '/login' })))}
          >
            {V.logout}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

const statusOf = (v: number) => ADULT_STATES.find((s) => s.value === v);

function Home({ me, offline }: { me: VolunteerMe; offline: boolean }) {
  const st = statusOf(me.volunteer.status);
  const qc = useQueryClient();
  // The week's check-in pages are read ahead onto the device while there is signal, so a
  // session tapped in a basement hall opens even if it was never opened before.
  const ids = me.sessions.map((s) => s.id).join(',');
  useEffect(() => {
    if (offline || !ids) return;
    void prefetchMySessions(qc, ids.split(',').map(Number));
  }, [qc, ids, offline]);
  return (
    <>
      <Card radius="md" p="md" withBorder data-testid="vp-identity">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2}>
            <Text fw={600} size="lg">
              {me.volunteer.name}
            </Text>
            <Text size="xs" c="dimmed">
              {V.number}
            </Text>
            <Text ff="monospace" fw={700} size="xl" data-testid="vp-number">
              {me.volunteer.number}
            </Text>
          </Stack>
          <Stack gap={4} align="flex-end">
            <Badge size="lg" color={st?.color ?? 'gray'} variant="light" data-testid="vp-status">
              {st?.label ?? ''}
            </Badge>
            {me.volunteer.groupName && (
              <Text size="xs" c="dimmed">
                {V.group}：{me.volunteer.groupName}
              </Text>
            )}
            {me.volunteer.joinDate && (
              <Text size="xs" c="dimmed">
                {V.joined(me.volunteer.joinDate)}
              </Text>
            )}
          </Stack>
        </Group>
      </Card>

      <Card radius="md" p="md" withBorder data-testid="vp-hours">
        <Text fw={600} mb="xs">
          {V.hoursTitle}
        </Text>
        <SimpleGrid cols={3} spacing="xs">
          <Figure
            label={V.hoursYear(me.hours.year)}
            minutes={me.hours.yearMinutes}
            testId="vp-hours-year"
            strong
          />
          <Figure label={V.hoursTotal} minutes={me.hours.totalMinutes} testId="vp-hours-total" />
          <Figure label={V.hoursPending} minutes={me.hours.pendingMinutes} testId="vp-hours-pending" muted />
        </SimpleGrid>
        <Text size="xs" c="dimmed" mt="xs">
          {V.hoursNote}
        </Text>
      </Card>

      <Section title={V.sessionsTitle} icon={<IconCalendarEvent size={18} />} testId="vp-sessions">
        {me.sessions.length === 0 ? (
          <Text size="sm" c="dimmed">
            {V.sessionsEmpty}
          </Text>
        ) : (
          me.sessions.map((s) => <SessionRow key={s.id} s={s} today={me.today} />)
        )}
      </Section>

      <Section title={V.claimTitle} icon={<IconUsersGroup size={18} />} testId="vp-claims">
        {me.openSessions.length === 0 ? (
          <Text size="sm" c="dimmed">
            {V.claimEmpty}
          </Text>
        ) : (
          me.openSessions.map((s) => <ClaimRow key={s.id} s={s} today={me.today} offline={offline} />)
        )}
      </Section>

      <Section title={V.recruitsTitle} icon={<IconSpeakerphone size={18} />} testId="vp-recruits">
        <Recruits list={me.recruits} offline={offline} />
      </Section>

      <Section title={V.certsTitle} icon={<IconAward size={18} />} testId="vp-certs">
        {me.certificates.length === 0 ? (
          <Text size="sm" c="dimmed">
            {V.certsEmpty}
          </Text>
        ) : (
          me.certificates.map((c) => (
            <Stack key={c.id} gap={0}>
              <Text size="sm" fw={500}>
                {c.exhibitionName}（{c.hall}）
              </Text>
              <Text size="xs" c="dimmed">
                {V.certNo(c.certNo, c.issueDate)}
              </Text>
            </Stack>
          ))
        )}
      </Section>

      <Section title={V.noticesTitle} icon={<IconSpeakerphone size={18} />} testId="vp-notices">
        {me.notices.length === 0 ? (
          <Text size="sm" c="dimmed">
            {V.noticesEmpty}
          </Text>
        ) : (
          <Accordion variant="separated" chevronPosition="right">
            {me.notices.map((n) => (
              <Accordion.Item key={n.id} value={String(n.id)}>
                <Accordion.Control>
                  <Group gap={6} wrap="nowrap">
                    {n.isTop && (
                      <Badge size="xs" color="red" variant="light">
                        {V.pinned}
                      </Badge>
                    )}
                    <Text size="sm" fw={500} lineClamp={2}>
                      {n.title}
                    </Text>
                  </Group>
                  {n.publishTime && (
                    <Text size="xs" c="dimmed">
                      {dayjs(n.publishTime).format('YYYY-MM-DD')}
                    </Text>
                  )}
                </Accordion.Control>
                <Accordion.Panel>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {n.content || n.summary}
                  </Text>
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        )}
      </Section>

      <Records />
    </>
  );
}

function Figure(props: {
  label: string;
  minutes: number;
  testId: string;
  strong?: boolean;
  muted?: boolean;
}) {
  return (
    <Stack gap={0} align="center" data-testid={props.testId}>
      <Text size="xs" c="dimmed">
        {props.label}
      </Text>
      <Text fw={700} fz={props.strong ? 30 : 24} c={props.muted ? 'dimmed' : undefined} lh={1.2}>
        {hoursText(props.minutes)}
      </Text>
      <Text size="xs" c="dimmed">
        {V.hoursUnit}
      </Text>
    </Stack>
  );
}

function Section(props: { title: string; icon: React.ReactNode; testId: string; children: React.ReactNode }) {
  return (
    <Card radius="md" p="md" withBorder data-testid={props.testId}>
      <Group gap={6} mb="xs">
        {props.icon}
        <Title order={2} size="h5">
          {props.title}
        </Title>
      </Group>
      <Stack gap="xs">{props.children}</Stack>
    </Card>
  );
}

/** 今天 / 明天 / 11-28 周六, by the museum's today (the server's, not the phone's clock). */
function dayText(date: string, today: string): string {
  const d = dayjs(date);
  const diff = d.diff(dayjs(today), 'day');
  const wd = V.weekdays[d.day()] ?? '';
  if (diff === 0) return `${V.today} ${wd}`;
  if (diff === 1) return `${V.tomorrow} ${wd}`;
  return `${d.format('MM-DD')} ${wd}`;
}

function SessionRow({ s, today }: { s: MySession; today: string }) {
  const navigate = useNavigate();
  const href = `/m/session/${s.id}`;
  const cancelled = s.status === SESSION_CANCELLED;
  const check = CHECKIN_STATES.find((c) => c.value === s.checkStatus);
  return (
    <UnstyledButton
      component="a"
      href={href}
      onClick={(e: React.MouseEvent) => {
        e.preventDefault();
        void navigate({ href });
      }}
      data-testid="vp-session"
      style={{ borderRadius: 8, border: '1px solid var(--mantine-color-gray-3)', padding: '10px 12px' }}
    >
      <Group justify="space-between" wrap="nowrap">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600}>
            {dayText(s.serviceDate, today)} {s.startTime}–{s.endTime}
          </Text>
          <Text size="sm" truncate>
            {s.exhibitionName}
          </Text>
          <Text size="xs" c="dimmed">
            {s.hall}
          </Text>
        </Stack>
        <Group gap={4} wrap="nowrap">
          {cancelled ? (
            <Badge color="red" variant="light">
              {V.cancelled(s.cancelReason)}
            </Badge>
          ) : (
            <Badge color={check?.color ?? 'gray'} variant="light">
              {check?.label ?? ''}
              {s.checkInTime ? ` ${dayjs(s.checkInTime).format('HH:mm')}` : ''}
            </Badge>
          )}
          <IconChevronRight size={18} aria-label={V.openSession} />
        </Group>
      </Group>
    </UnstyledButton>
  );
}

function ClaimRow({ s, today, offline }: { s: OpenSession; today: string; offline: boolean }) {
  const qc = useQueryClient();
  const online = useOnline();
  const claim = useMutation({
    mutationFn: () => volunteerCalls.claim(s.id),
    onSuccess: () => {
      notifications.show({ color: 'green', message: V.claimed });
      void qc.invalidateQueries({ queryKey: volunteerKeys.all });
    },
    onError: (e) => {
      errorToast(e instanceof Error ? e.message : String(e));
      void qc.invalidateQueries({ queryKey: volunteerKeys.all });
    },
  });
  const what = `${dayText(s.serviceDate, today)} ${s.startTime}–${s.endTime}「${s.exhibitionName}」`;
  const cannot = offline || !online;
  return (
    <Group justify="space-between" wrap="nowrap" data-testid="vp-claim-row">
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Text size="sm" fw={600}>
          {dayText(s.serviceDate, today)} {s.startTime}–{s.endTime}
        </Text>
        <Text size="sm" truncate>
          {s.exhibitionName}（{s.hall}）
        </Text>
        <Text size="xs" c="dimmed">
          {V.claimLeft(s.left, s.quota)}
        </Text>
      </Stack>
      <Button
        size="sm"
        variant="light"
        loading={claim.isPending}
        onClick={() => {
          if (cannot) {
            errorToast(V.needNetwork);
            return;
          }
          dialogs.openConfirmModal({
            title: V.claim,
            children: <Text size="sm">{V.claimConfirm(what)}</Text>,
            labels: { confirm: V.claim, cancel: tCore.common.cancel },
            onConfirm: () => claim.mutate(),
          });
        }}
        aria-disabled={cannot || undefined}
        data-testid="vp-claim"
      >
        {V.claim}
      </Button>
    </Group>
  );
}

function Recruits({ list, offline }: { list: OpenRecruit[]; offline: boolean }) {
  const ops = useOutbox();
  const qc = useQueryClient();
  const online = useOnline();
  const [busy, setBusy] = useState<number | null>(null);
  const signOps = ops.filter((o) => o.kind === SIGN_UP_KIND);
  const opOf = (id: number) => signOps.find((o) => (o.meta as SignUpMeta).recruitId === id);

  const signUp = async (r: OpenRecruit) => {
    setBusy(r.id);
    try {
      const res = await volunteerCalls.signUp(r.id, r.title);
      if (res.queued) notifications.show({ color: 'yellow', message: V.signQueued });
      else {
        const status = (res.data as { status?: number } | undefined)?.status;
        notifications.show({ color: 'green', message: status === 0 ? V.signedUpReview : V.signedUp });
      }
    } catch (e) {
      errorToast(e instanceof OutboxRefusal || e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
      void qc.invalidateQueries({ queryKey: volunteerKeys.all });
    }
  };
  const cancel = useMutation({
    mutationFn: (signId: number) => volunteerCalls.cancelSign(signId),
    onSuccess: () => notifications.show({ color: 'green', message: V.cancelSignDone }),
    onError: (e) => errorToast(e instanceof Error ? e.message : String(e)),
    onSettled: () => void qc.invalidateQueries({ queryKey: volunteerKeys.all }),
  });

  if (list.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {V.recruitsEmpty}
      </Text>
    );
  const fmt = (ms: number | null) => (ms ? dayjs(ms).format('MM-DD HH:mm') : '');
  return (
    <>
      {list.map((r) => {
        const op = opOf(r.id);
        const sign = r.mySign && r.mySign.status !== 6 ? r.mySign : null;
        const signState = sign ? SIGN_STATES.find((x) => x.value === sign.status) : undefined;
        return (
          <Stack
            key={r.id}
            gap={4}
            data-testid="vp-recruit"
            style={{ borderRadius: 8, border: '1px solid var(--mantine-color-gray-3)', padding: '10px 12px' }}
          >
            <Text size="sm" fw={600}>
              {r.title}
            </Text>
            {r.activityStart && (
              <Text size="xs" c="dimmed">
                {V.recruitWhen(fmt(r.activityStart), fmt(r.activityEnd))}
              </Text>
            )}
            {r.location && (
              <Text size="xs" c="dimmed">
                {r.location}
              </Text>
            )}
            <Group gap="xs">
              {r.signupEnd && (
                <Text size="xs" c="dimmed">
                  {V.recruitDeadline(fmt(r.signupEnd))}
                </Text>
              )}
              {r.hoursPerPerson && (
                <Text size="xs" c="dimmed">
                  {V.recruitHours(r.hoursPerPerson)}
                </Text>
              )}
            </Group>
            <Group justify="space-between" wrap="nowrap">
              <Text size="xs" c={r.left > 0 ? 'dimmed' : 'red'}>
                {V.recruitLeft(r.left)}
              </Text>
              {op && op.status === 'failed' ? (
                <Group gap={4} wrap="nowrap">
                  <Text size="xs" c="red" data-testid="vp-sign-refused">
                    {V.signRefused(op.error ?? '')}
                  </Text>
                  <Anchor size="xs" component="button" onClick={() => void outbox.discard(op.id)}>
                    {V.signDismiss}
                  </Anchor>
                </Group>
              ) : op && op.status !== 'done' ? (
                <Badge color="yellow" variant="light" data-testid="vp-sign-waiting">
                  {V.signWaiting}
                </Badge>
              ) : sign ? (
                <Group gap={6} wrap="nowrap">
                  <Badge color={signState?.color ?? 'gray'} variant="light">
                    {signState?.label ?? ''}
                  </Badge>
                  {sign.cancellable && (
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      loading={cancel.isPending}
                      onClick={() => {
                        if (offline || !online) {
                          errorToast(V.cancelNeedsNetwork);
                          return;
                        }
                        dialogs.openConfirmModal({
                          title: V.cancelSign,
                          children: <Text size="sm">{V.cancelSignConfirm}</Text>,
                          labels: { confirm: V.cancelSign, cancel: tCore.common.cancel },
                          confirmProps: { color: 'red' },
                          onConfirm: () => cancel.mutate(sign.id),
                        });
                      }}
                    >
                      {V.cancelSign}
                    </Button>
                  )}
                </Group>
              ) : (
                <Button
                  size="xs"
                  variant="light"
                  disabled={r.left <= 0 && !offline}
                  loading={busy === r.id}
                  onClick={() => void signUp(r)}
                  data-testid="vp-sign-up"
                >
                  {V.signUp}
                </Button>
              )}
            </Group>
          </Stack>
        );
      })}
    </>
  );
}

/** My service records, newest first, 20 at a time (the first page kept on the device). */
function Records() {
  const [pages, setPages] = useState(1);
  const first = useCachedQuery<MyRecords>({
    queryKey: volunteerKeys.records(1),
    fetch: ({ signal }) => volunteerCalls.records(1, signal),
    toastErrors: false,
  });
  const more = useQuery({
    queryKey: [...volunteerKeys.all, 'records-more', pages],
    queryFn: async () => {
      const all = [];
      for (let p = 2; p <= pages; p++) all.push(...(await volunteerCalls.records(p)).list);
      return all;
    },
    enabled: pages > 1,
  });
  const list = [...(first.data?.list ?? []), ...(more.data ?? [])];
  const total = first.data?.total ?? 0;
  return (
    <Section title={V.recordsTitle} icon={<IconCalendarEvent size={18} />} testId="vp-records">
      {first.status !== 'ready' ? (
        <CachedViewState view={first} />
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed">
          {V.recordsEmpty}
        </Text>
      ) : (
        <>
          {list.map((r) => {
            const st = SERVICE_RECORD_STATES.find((x) => x.value === r.status);
            return (
              <Group key={r.id} justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500}>
                    {r.serviceDate} {r.startTime}–{r.endTime}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {r.content}
                  </Text>
                  {r.status === 2 && r.rejectReason && (
                    <Text size="xs" c="red">
                      {V.recordRejected(r.rejectReason)}
                    </Text>
                  )}
                </Stack>
                <Stack gap={2} align="flex-end">
                  <Text size="sm" fw={600}>
                    {V.minutes(hoursText(r.serviceMinutes))}
                  </Text>
                  <Badge size="xs" color={st?.color ?? 'gray'} variant="light">
                    {st?.label ?? ''}
                  </Badge>
                </Stack>
              </Group>
            );
          })}
          {list.length < total && (
            <Button
              variant="subtle"
              size="xs"
              loading={more.isFetching}
              onClick={() => setPages((p) => p + 1)}
            >
              {V.recordsMore}
            </Button>
          )}
        </>
      )}
    </Section>
  );
}
