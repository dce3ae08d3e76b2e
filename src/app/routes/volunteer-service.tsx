import {
  Badge,
  Button,
  Card,
  Group,
  Image,
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconCalendarPlus,
  IconChecks,
  IconDeviceTablet,
  IconQrcode,
  IconReportAnalytics,
  IconUsers,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type {
  AnnualCheck,
  DayCounts,
  DaySession as DaySessionRow,
  QrCode,
  VolunteerStats,
} from '../../shared/api/volunteer-service';
import { f, type RecordDef } from '../../shared/records/define';
import type { RecordDetail, RecordPage, RecordRow } from '../../shared/records/api';
import {
  exhibitionSession,
  explainerQualification,
  sessionCheckIn,
  SESSION_CANCELLED,
  SESSION_STATES,
  volunteerExhibition,
} from '../../shared/records/volunteer/exhibition-service';
import { adultVolunteer, NO_SHOW_LIMIT } from '../../shared/records/volunteer/people';
import { SERVICE_PENDING, serviceRecord } from '../../shared/records/volunteer/service-hours';
import { volunteerServiceSetting } from '../../shared/records/volunteer/service-setting';
import { studentServiceAppoint, studentServiceSlot } from '../../shared/records/volunteer/student-service';
import { hoursText } from '../../shared/rules/volunteer-hours';
import { addDays, museumDate } from '../../shared/rules/museum-time';
import { BarChart, HBarChart } from '../components/bar-chart';
import { RecordListPage, useGrant } from '../features/records';
import { SectionLink, WorkbenchSection } from '../features/workbench/workbench-page';
import { FieldInput } from '../features/records/field-input';
import { FieldView } from '../features/records/field-view';
import { RecordForm } from '../features/records/record-form';
import { PrintButton, RotatingDisplay } from './volunteer-qr';
import { errorToast, museum } from '../lib/api';
import { tVolunteerPages } from '../lib/i18n/volunteer-pages';
import { tVolunteerService } from '../lib/i18n/volunteer-service';
import { useQrImage } from '../lib/qr-image';
import { recordKeys } from '../lib/records';

/**
 * Volunteer service's staff pages (issue 20; README "Volunteer service and check-in"): each is the
 * records engine's generic list on a definition of shared/records/volunteer, with the module's
 * own actions beside it (generate sessions, the hall's code, set explainers, confirm in bulk,
 * the annual check, a day's counts per session).
 */

const V = tVolunteerService;

/**
 * The charts above a volunteer list (issue 20): hours by month and by group with the year's
 * totals on the service records; new volunteers and session attendance on the adult roll.
 * One call (serviceRecord/stats) a year at a time; a reader without its grant sees no charts.
 */
export function VolunteerCharts({ kind, show }: { kind: 1 | 2; show: 'hours' | 'people' }) {
  const [year, setYear] = useState(() => Number(museumDate(Date.now()).slice(0, 4)));
  const stats = useQuery({
    queryKey: [...recordKeys.all(serviceRecord), 'stats', kind, year],
    queryFn: () =>
      museum.get<VolunteerStats>(`${serviceRecord.base}/stats`, {
        query: { year, volunteerKind: kind },
        silent: true,
      }),
    retry: false,
  });
  const d = stats.data;
  if (!d) return null;
  const months = (values: readonly number[]) => values.map((value, i) => ({ label: V.month(i + 1), value }));
  const hours = (m: number) => hoursText(m);
  return (
    <Stack gap="xs" data-testid="volunteer-charts">
      <Group justify="space-between">
        {show === 'hours' ? (
          <Text fw={600} data-testid="volunteer-totals">
            {V.chartsTotals(hoursText(d.confirmedMinutes), hoursText(d.pendingMinutes))}
          </Text>
        ) : (
          <span />
        )}
        <NumberInput
          aria-label={V.chartsYear}
          w={110}
          min={2000}
          max={2100}
          value={year}
          onChange={(v) => typeof v === 'number' && v >= 2000 && v <= 2100 && setYear(v)}
        />
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {show === 'hours' ? (
          <>
            <BarChart
              title={V.chartHoursByMonth}
              bars={months(d.hoursByMonth)}
              format={hours}
              testId="chart-hours-month"
            />
            {kind === 2 ? null : d.hoursByGroup.length ? (
              <HBarChart
                title={V.chartHoursByGroup}
                bars={d.hoursByGroup.map((g) => ({ label: g.name, value: g.minutes }))}
                format={hours}
                testId="chart-hours-group"
              />
            ) : (
              <Card withBorder>
                <Text c="dimmed">{V.chartEmpty}</Text>
              </Card>
            )}
          </>
        ) : (
          <>
            <BarChart title={V.chartNewByMonth} bars={months(d.newByMonth)} testId="chart-new-month" />
            <BarChart
              title={V.chartAttendance}
              bars={d.attendanceByMonth.map((a, i) => ({
                label: V.month(i + 1),
                value: a.present + a.absent ? Math.round((a.present / (a.present + a.absent)) * 100) : 0,
              }))}
              max={100}
              format={(v) => `${v}%`}
              color="var(--mantine-color-green-6)"
              testId="chart-attendance"
            />
          </>
        )}
      </SimpleGrid>
    </Stack>
  );
}

/**
 * The workbench card for volunteer administrators (签到管理's grant): today's sessions with who
 * has checked in, and the places still unassigned (需要人数 − 已安排, cancelled ones left out).
 * Refreshed every minute, like 签到管理's own counts.
 */
export function VolunteerTodayCard() {
  const navigate = useNavigate();
  const [date] = useState(() => museumDate(Date.now()));
  const counts = useQuery({
    queryKey: ['records', sessionCheckIn.name, 'day', date],
    queryFn: () =>
      museum.get<DayCounts>(`${sessionCheckIn.base}/dayCounts`, { query: { date }, silent: true }),
    refetchInterval: 60_000,
  });
  const live = (counts.data?.sessions ?? []).filter((s) => s.status !== SESSION_CANCELLED);
  const open = (s: DaySessionRow) => Math.max(0, s.quota - s.assigned);
  const totalOpen = live.reduce((a, s) => a + open(s), 0);
  return (
    <WorkbenchSection
      title={V.todayTitle}
      icon={<IconUsers size={18} />}
      testId="volunteer-today"
      action={<SectionLink label={V.todayMore} onClick={() => void navigate({ to: '/volunteer/sign-in' })} />}
    >
      {counts.data &&
        (live.length ? (
          <Stack gap={6}>
            <Group justify="space-between">
              <Text size="sm" fw={600} data-testid="volunteer-today-summary">
                {V.todaySummary(live.length, totalOpen)}
              </Text>
              {totalOpen > 0 && (
                <Button
                  size="compact-sm"
                  variant="light"
                  onClick={() => void navigate({ to: '/volunteer/exlain-index' })}
                >
                  {V.todayAssign}
                </Button>
              )}
            </Group>
            {live.map((s) => (
              <Group key={s.id} justify="space-between" wrap="nowrap">
                <Text size="sm" truncate="end">
                  {s.startTime}–{s.endTime} {s.exhibitionName} · {s.hall}
                </Text>
                <Text size="sm" c={open(s) ? 'orange' : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
                  {V.todaySession({
                    present: s.checkedIn + s.checkedOut + s.confirmed,
                    assigned: s.assigned,
                    open: open(s),
                  })}
                </Text>
              </Group>
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {V.todayEmpty}
          </Text>
        ))}
    </WorkbenchSection>
  );
}

/**
 * 成人志愿者 (/volunteer/adult-volunteer): the roll with its charts (new volunteers, attendance)
 * and the 建议停用 tab: those with NO_SHOW_LIMIT no-shows or more (a badge with how many are
 * still in service). The tab only filters; 停用 stays a person's decision with a reason.
 */
export function AdultVolunteerPage() {
  const [tab, setTab] = useState<'all' | 'suggest'>('all');
  const [band, setBand] = useState<string | null>(null);
  const [today] = useState(() => museumDate(Date.now()));
  const thisYear = Number(today.slice(0, 4));
  const hoursReader = useGrant(serviceRecord.access.read);
  const stats = useQuery({
    queryKey: [...recordKeys.all(serviceRecord), 'stats', 1, thisYear],
    queryFn: () =>
      museum.get<VolunteerStats>(`${serviceRecord.base}/stats`, {
        query: { year: thisYear, volunteerKind: 1 },
        silent: true,
      }),
    retry: false,
  });
  return (
    <Stack gap="md">
      <VolunteerCharts kind={1} show="people" />
      <RecordListPage
        key={`${tab} ${band ?? ''}`}
        def={adultVolunteer}
        intro={tab === 'suggest' ? V.rollSuggestHelp : tVolunteerPages.adultIntro}
        fixed={tab === 'suggest' ? { noShowCountFrom: NO_SHOW_LIMIT } : undefined}
        initial={band ? ageBandRange(band, today) : undefined}
        extra={
          <>
            <SegmentedControl
              value={tab}
              onChange={(v) => setTab(v as 'all' | 'suggest')}
              data={[
                { value: 'all', label: V.rollAll },
                { value: 'suggest', label: V.rollSuggest(stats.data?.suggestBlock ?? 0) },
              ]}
              data-testid="roll-tabs"
            />
            <Select
              aria-label={V.ageBand}
              placeholder={V.ageBand}
              data={V.ageBands}
              value={band}
              onChange={setBand}
              clearable
              w={140}
            />
            {hoursReader && <AnnualCheckButton kind={1} />}
          </>
        }
      />
    </Stack>
  );
}

/**
 * An age band as the birth-date range the list filters by: aged a–b on `today` means born
 * after today − (b + 1) years and on or before today − a years.
 */
function ageBandRange(band: string, today: string): Record<string, string> {
  const [a, b] = band.split('-').map(Number) as [number, number];
  const yearsBack = (n: number) =>
    `${Number(today.slice(0, 4)) - n}${today.slice(4)}`.replace(/-02-29$/, '-02-28');
  return { birthDateFrom: addDays(yearsBack(b + 1), 1), birthDateTo: yearsBack(a) };
}

/** 服务记录 (/volunteer/service-list) and 学生服务记录 (/volunteer/stu-service). */
function ServiceRecords({ kind, intro }: { kind: 1 | 2; intro: string }) {
  const writer = useGrant(serviceRecord.access.write);
  return (
    <Stack gap="md">
      <VolunteerCharts kind={kind} show="hours" />
      <RecordListPage
        def={serviceRecord}
        intro={intro}
        fixed={{ volunteerKind: kind }}
        extra={
          writer ? (
            <>
              <ConfirmAll kind={kind} />
              <AnnualCheckButton kind={kind} />
            </>
          ) : undefined
        }
      />
    </Stack>
  );
}

export function ServiceListPage() {
  return <ServiceRecords kind={1} intro={V.serviceListIntro} />;
}

export function StuServicePage() {
  return <ServiceRecords kind={2} intro={V.stuServiceIntro} />;
}

/** 批量确认: the pending records of this kind (up to 200 at a time), each through 确认. */
function ConfirmAll({ kind }: { kind: 1 | 2 }) {
  const qc = useQueryClient();
  const [ids, setIds] = useState<number[] | null>(null);
  const [busy, setBusy] = useState(false);
  async function open() {
    const page = await museum.get<RecordPage>(`${serviceRecord.base}/pageList`, {
      query: { volunteerKind: kind, status: SERVICE_PENDING, pageCount: 200 },
    });
    if (!page.list.length) notifications.show({ message: V.confirmNone });
    else setIds(page.list.map((r) => r.id));
  }
  async function run() {
    setBusy(true);
    try {
      const r = await museum.post<{ confirmed: number; skipped: unknown[] }>(
        `${serviceRecord.base}/batchConfirm`,
        { ids },
        { idempotencyKey: crypto.randomUUID() },
      );
      notifications.show({ color: 'green', message: V.confirmDone(r.confirmed, r.skipped.length) });
      setIds(null);
      await qc.invalidateQueries({ queryKey: recordKeys.all(serviceRecord) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <Button variant="light" leftSection={<IconChecks size={16} />} onClick={() => void open()}>
        {V.confirmAll}
      </Button>
      <Modal opened={ids !== null} onClose={() => setIds(null)} title={V.confirmAllTitle}>
        <Stack>
          <Text>{V.confirmAllText(ids?.length ?? 0)}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setIds(null)}>
              {V.cancel}
            </Button>
            <Button loading={busy} onClick={() => void run()} data-testid="confirm-all">
              {V.ok}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** 年度考核: who is below the year's minimum; it lists and changes nobody. */
function AnnualCheckButton({ kind }: { kind: 1 | 2 }) {
  const [opened, setOpened] = useState(false);
  const [year, setYear] = useState<number>(() => Number(museumDate(Date.now()).slice(0, 4)));
  const [result, setResult] = useState<AnnualCheck | null>(null);
  async function run() {
    setResult(
      await museum.get<AnnualCheck>(`${serviceRecord.base}/annualCheck`, {
        query: { year, volunteerKind: kind },
      }),
    );
  }
  return (
    <>
      <Button variant="light" leftSection={<IconReportAnalytics size={16} />} onClick={() => setOpened(true)}>
        {V.annual}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={V.annualTitle} size="lg">
        <Stack>
          <Group align="flex-end">
            <NumberInput
              label={V.annualYear}
              value={year}
              min={2000}
              max={2100}
              onChange={(v) => setYear(Number(v))}
            />
            <Button onClick={() => void run()}>{V.annualRun}</Button>
          </Group>
          {result && (
            <>
              <Text size="sm" c="dimmed">
                {V.annualHint(result.minMinutes / 60, result.checked)}
              </Text>
              {result.below.length ? (
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{V.annualName}</Table.Th>
                      <Table.Th>{V.annualHours}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {result.below.map((p) => (
                      <Table.Tr key={p.volunteerId}>
                        <Table.Td>{p.name}</Table.Td>
                        <Table.Td>{hoursText(p.minutes)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              ) : (
                <Text>{V.annualNone}</Text>
              )}
            </>
          )}
        </Stack>
      </Modal>
    </>
  );
}

/** 讲解服务 (/volunteer/exlain-index): exhibitions, their codes, and their sessions. */
export function ExplainIndexPage() {
  const [generating, setGenerating] = useState<RecordRow | null>(null);
  const [coding, setCoding] = useState<RecordRow | null>(null);
  const [showing, setShowing] = useState<RecordRow | null>(null);
  const [assigning, setAssigning] = useState<RecordRow | null>(null);
  const writer = useGrant(volunteerExhibition.access.write);
  return (
    <Stack gap="lg">
      <RecordListPage
        def={volunteerExhibition}
        intro={V.exhibitionsIntro}
        rowActions={(row) =>
          writer
            ? [
                { key: 'generate', label: V.generate, icon: IconCalendarPlus, run: () => setGenerating(row) },
                { key: 'code', label: V.code, icon: IconQrcode, run: () => setCoding(row) },
                { key: 'display', label: V.display, icon: IconDeviceTablet, run: () => setShowing(row) },
              ]
            : []
        }
      />
      <RecordListPage
        def={exhibitionSession}
        title={V.sessionsTitle}
        intro={V.sessionsIntro}
        embedded
        rowActions={(row) =>
          writer && [0, 1].includes(row.status as number)
            ? [{ key: 'assign', label: V.setExplain, icon: IconUsers, run: () => setAssigning(row) }]
            : []
        }
      />
      {generating && <GenerateDialog row={generating} onClose={() => setGenerating(null)} />}
      {coding && <CodeDialog row={coding} onClose={() => setCoding(null)} />}
      {showing && (
        <RotatingDisplay id={showing.id} name={String(showing.name)} onClose={() => setShowing(null)} />
      )}
      {assigning && <AssignDialog row={assigning} onClose={() => setAssigning(null)} />}
    </Stack>
  );
}

function GenerateDialog({ row, onClose }: { row: RecordRow; onClose: () => void }) {
  const qc = useQueryClient();
  const [from, setFrom] = useState(String(row.startDate ?? ''));
  const [to, setTo] = useState(String(row.endDate || row.startDate || ''));
  const [quota, setQuota] = useState<number>(1);
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    try {
      const r = await museum.post<{ created: number; closedDays: number }>(
        `${exhibitionSession.base}/generate`,
        { exhibitionId: row.id, from, to, quota },
        { idempotencyKey: crypto.randomUUID() },
      );
      notifications.show({ color: 'green', message: V.generateDone(r.created, r.closedDays) });
      await qc.invalidateQueries({ queryKey: recordKeys.all(exhibitionSession) });
      onClose();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened onClose={onClose} title={V.generateTitle(String(row.name))}>
      <Stack>
        <TextInput type="date" label={V.from} value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
        <TextInput type="date" label={V.to} value={to} onChange={(e) => setTo(e.currentTarget.value)} />
        <NumberInput label={V.quota} min={1} max={20} value={quota} onChange={(v) => setQuota(Number(v))} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {V.cancel}
          </Button>
          <Button loading={busy} onClick={() => void run()}>
            {V.generate}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function CodeDialog({ row, onClose }: { row: RecordRow; onClose: () => void }) {
  const qc = useQueryClient();
  const code = useQuery({
    queryKey: ['volunteer', 'qr', row.id],
    queryFn: () => museum.get<QrCode>(`${volunteerExhibition.base}/qrCode`, { query: { id: row.id } }),
  });
  const src = useQrImage(code.data?.payload);
  const [confirming, setConfirming] = useState(false);
  async function revoke() {
    await museum.post(
      `${volunteerExhibition.base}/revokeQr`,
      { id: row.id },
      { idempotencyKey: crypto.randomUUID() },
    );
    notifications.show({ color: 'green', message: V.revoked });
    setConfirming(false);
    await qc.invalidateQueries({ queryKey: ['volunteer', 'qr', row.id] });
  }
  return (
    <Modal opened onClose={onClose} title={V.codeTitle(String(row.name))} size="lg">
      <Stack>
        <Text size="sm">{V.codeHelp}</Text>
        {code.data && (
          <>
            <Badge variant="light">{V.codeVersion(code.data.qrVersion)}</Badge>
            {src && (
              <Image
                src={src}
                alt={V.qrImage(code.data.hall)}
                w={240}
                h={240}
                mx="auto"
                data-testid="qr-image"
              />
            )}
            <Text ff="monospace" size="xs" style={{ wordBreak: 'break-all' }} data-testid="qr-payload">
              {code.data.payload}
            </Text>
          </>
        )}
        <Group justify="flex-end">
          {code.data && <PrintButton code={code.data} name={String(row.name)} />}
          <Button
            variant="default"
            onClick={() =>
              void navigator.clipboard
                ?.writeText(code.data?.payload ?? '')
                .then(() => notifications.show({ message: V.copied }))
                .catch((e: unknown) => errorToast(String(e)))
            }
          >
            {V.copy}
          </Button>
          {confirming ? (
            <Button color="red" onClick={() => void revoke()}>
              {V.ok}
            </Button>
          ) : (
            <Button color="red" variant="light" onClick={() => setConfirming(true)}>
              {V.revoke}
            </Button>
          )}
        </Group>
        {confirming && (
          <Text c="red" size="sm">
            {V.revokeConfirm}
          </Text>
        )}
      </Stack>
    </Modal>
  );
}

const EXPLAINERS = f.users('讲解员', { max: 20 });

function AssignDialog({ row, onClose }: { row: RecordRow; onClose: () => void }) {
  const qc = useQueryClient();
  const [ids, setIds] = useState<unknown>((row.explainerIds as number[]) ?? []);
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    try {
      await museum.post(
        `${exhibitionSession.base}/setExplain`,
        { id: row.id, explainerIds: ids },
        { idempotencyKey: crypto.randomUUID() },
      );
      notifications.show({ color: 'green', message: V.setExplainDone });
      await qc.invalidateQueries({ queryKey: recordKeys.all(exhibitionSession) });
      await qc.invalidateQueries({ queryKey: recordKeys.all(sessionCheckIn) });
      onClose();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened onClose={onClose} title={V.setExplainTitle}>
      <Stack>
        <Text size="sm">
          {String(row.serviceDate)} {String(row.startTime)}–{String(row.endTime)} · {V.quota}{' '}
          {String(row.quota)}
        </Text>
        <FieldInput
          name="explainerIds"
          fd={EXPLAINERS}
          value={ids}
          onChange={setIds}
          options={{}}
          table={exhibitionSession.name}
        />
        <Text size="xs" c="dimmed">
          {V.setExplainHelp}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {V.cancel}
          </Button>
          <Button loading={busy} onClick={() => void run()}>
            {V.ok}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** 展厅讲解 (/volunteer/hxhibition-explain): explainer qualification per hall. */
export function ExhibitionExplainPage() {
  return <RecordListPage def={explainerQualification} intro={V.qualificationIntro} />;
}

/** 签到管理 (/volunteer/sign-in): a day's sessions with their counts, then every check-in. */
export function SignInPage() {
  const [date, setDate] = useState(() => museumDate(Date.now()));
  const counts = useQuery({
    queryKey: ['records', sessionCheckIn.name, 'day', date],
    queryFn: () => museum.get<DayCounts>(`${sessionCheckIn.base}/dayCounts`, { query: { date } }),
    enabled: /^\d{4}-\d{2}-\d{2}$/.test(date),
    refetchInterval: 30_000,
  });
  const state = (v: number) => SESSION_STATES.find((s) => s.value === v);
  return (
    <Stack gap="lg">
      <RecordListPage def={sessionCheckIn} intro={V.signInIntro} />
      <Stack gap="sm">
        <Group align="flex-end">
          <Title order={4}>{V.signInDay}</Title>
          <TextInput
            type="date"
            value={date}
            onChange={(e) => setDate(e.currentTarget.value)}
            aria-label={V.signInDay}
          />
        </Group>
        {counts.data && !counts.data.sessions.length && <Text c="dimmed">{V.signInEmpty}</Text>}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {counts.data?.sessions.map((s) => (
            <Card key={s.id} withBorder data-testid="session-counts">
              <Group justify="space-between">
                <Text fw={600}>
                  {s.startTime}–{s.endTime} {s.exhibitionName}
                </Text>
                <Badge color={state(s.status)?.color}>{state(s.status)?.label}</Badge>
              </Group>
              <Text size="sm" c="dimmed">
                {s.hall} · {V.quota} {s.quota}
              </Text>
              <Text size="sm">{V.signInCounts(s)}</Text>
            </Card>
          ))}
        </SimpleGrid>
      </Stack>
    </Stack>
  );
}

/** 服务设置 (/volunteer/stu-service-setting): the students' settings row (type 2). */
export function StuServiceSettingPage() {
  const type = 2;
  const qc = useQueryClient();
  const writer = useGrant(volunteerServiceSetting.access.write);
  const [editing, setEditing] = useState(false);
  const key = [...recordKeys.all(volunteerServiceSetting), 'info', type];
  const info = useQuery({
    queryKey: key,
    queryFn: () => museum.get<RecordDetail>(`${volunteerServiceSetting.base}/info`, { query: { type } }),
  });
  // The singleton is saved through one call: the form's create and update are both `save`.
  const def: RecordDef = {
    ...volunteerServiceSetting,
    calls: { ...volunteerServiceSetting.calls, create: 'POST save', update: 'POST save' },
  };
  const record = info.data?.record;
  const stored = record && record.id ? record : null;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{volunteerServiceSetting.title}</Title>
        {writer && <Button onClick={() => setEditing(true)}>{V.settingEdit}</Button>}
      </Group>
      <Text size="sm" c="dimmed">
        {V.settingIntro}
      </Text>
      {!stored && info.data && <Text>{V.settingEmpty}</Text>}
      {record && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {Object.entries(volunteerServiceSetting.fields)
            .filter(([k]) => k !== 'type')
            .map(([k, fd]) => (
              <Stack key={k} gap={2}>
                <Text size="xs" c="dimmed">
                  {fd.label}
                </Text>
                <FieldView
                  fd={fd}
                  value={record[k]}
                  ctx={{ names: info.data!.names, dictLabel: (_d, v) => String(v ?? '') }}
                />
              </Stack>
            ))}
        </SimpleGrid>
      )}
      {editing && info.data && (
        <RecordForm
          def={def}
          row={stored}
          names={info.data.names}
          fixed={{ type }}
          options={{}}
          opened
          onClose={() => setEditing(false)}
          onSaved={() => void qc.invalidateQueries({ queryKey: key })}
        />
      )}
    </Stack>
  );
}

/** 服务预约 (/volunteer/stu-service-appoint): the students' service slots and their bookings. */
export function StuServiceAppointPage() {
  return (
    <Stack gap="lg">
      <RecordListPage def={studentServiceSlot} intro={V.slotIntro} />
      <RecordListPage def={studentServiceAppoint} intro={V.appointIntro} embedded />
    </Stack>
  );
}
