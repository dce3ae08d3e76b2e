import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  NumberInput,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconDownload, IconTicket } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { StatKind } from '../../shared/api/reservation-staff';
import type { ReservationStat } from '../../shared/records/reservation/stats';
import { formatMuseumTime, museumDate } from '../../shared/rules/museum-time';
import { BarChart, HBarChart } from '../components/bar-chart';
import { SectionLink, WorkbenchSection } from '../features/workbench/workbench-page';
import { museum } from '../lib/api';
import { tReservationStats } from '../lib/i18n/reservation-stats';
import { saveBlob } from '../lib/records';

/**
 * 预约总览 (/reservation/view) and 预约看板 (/reservation/panel), both drawn from the statistics
 * calls (dayStat … yearStat; README "Visitor reservations"). The overview switches day, week,
 * month and year, shows the totals, the series as bar charts (the app's own SVG charts, as the
 * volunteer lists draw theirs) and the region, age band and gender splits, and exports the very
 * statistic shown (AppointOrder/statExport, logged as 导出). The board shows today's slots
 * filling: it asks dayStat again every 30 seconds while open (and when the tab comes back) — a
 * museum's bookings move by the minute, not the second, and one small call per screen is
 * cheaper than pushing every booking through the live channel to every open board.
 */

const V = tReservationStats;
const BASE = '/AppointOrder';
const PANEL_POLL_MS = 30_000;

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** The stat call and its query for a kind and a period. */
function statCall(kind: StatKind, date: string, month: string, year: number) {
  if (kind === 'month') return { path: `${BASE}/monthStat`, query: { month } };
  if (kind === 'year') return { path: `${BASE}/yearStat`, query: { year } };
  return { path: `${BASE}/${kind}Stat`, query: { date } };
}

/** A bucket's label as short as a bar allows: a slot's start, a day's MM-dd, a month's M月. */
function shortLabel(kind: StatKind, label: string): string {
  if (kind === 'day') return label.split('–')[0] ?? label;
  if (kind === 'year') return `${Number(label.slice(5, 7))}月`;
  if (kind === 'month') return label.slice(8, 10);
  return label.slice(5);
}

export function ReservationOverviewPage() {
  const [kind, setKind] = useState<StatKind>('day');
  const [date, setDate] = useState(() => museumDate(Date.now()));
  const [month, setMonth] = useState(() => museumDate(Date.now()).slice(0, 7));
  const [year, setYear] = useState(() => Number(museumDate(Date.now()).slice(0, 4)));
  const [venue, setVenue] = useState<'all' | '1' | '2'>('all');
  const [exporting, setExporting] = useState(false);
  const at = statCall(kind, date, month, year);
  const call = { path: at.path, query: venue === 'all' ? at.query : { ...at.query, venue: Number(venue) } };
  const stat = useQuery({
    queryKey: ['reservation', 'stat', call.path, call.query],
    queryFn: () => museum.get<ReservationStat>(call.path, { query: call.query, silent: true }),
  });

  async function exportIt() {
    setExporting(true);
    try {
      const blob = await museum.get<Blob>(`${BASE}/statExport`, { query: { kind, ...call.query } });
      const period = kind === 'month' ? month : kind === 'year' ? String(year) : date;
      const place = venue === 'all' ? '' : `${venue === '1' ? V.museum : V.hall}-`;
      saveBlob(blob, `${V.fileName(kind)}-${place}${period}.xlsx`);
    } catch {
      // The client has toasted the refusal (a bad period, no right).
    } finally {
      setExporting(false);
    }
  }

  const s = stat.data;
  const bars = (series: readonly number[]) =>
    (s?.labels ?? []).map((l, i) => ({ label: shortLabel(kind, l), value: series[i] ?? 0 }));

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="reservation-overview">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{V.title}</Title>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          loading={exporting}
          onClick={() => void exportIt()}
          data-testid="stat-export"
        >
          {V.export}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {V.intro}
      </Text>
      <Group gap="sm" wrap="wrap">
        <SegmentedControl
          value={kind}
          onChange={(v) => setKind(v as StatKind)}
          data={[
            { value: 'day', label: V.day },
            { value: 'week', label: V.week },
            { value: 'month', label: V.month },
            { value: 'year', label: V.year },
          ]}
        />
        <SegmentedControl
          value={venue}
          onChange={(v) => setVenue(v as 'all' | '1' | '2')}
          data={[
            { value: 'all', label: V.allVenues },
            { value: '1', label: V.museum },
            { value: '2', label: V.hall },
          ]}
          aria-label={V.venue}
        />
        {(kind === 'day' || kind === 'week') && (
          <TextInput
            type="date"
            aria-label={V.date}
            value={date}
            onChange={(e) => e.currentTarget.value && setDate(e.currentTarget.value)}
            w={170}
          />
        )}
        {kind === 'month' && (
          <TextInput
            type="month"
            aria-label={V.month}
            value={month}
            onChange={(e) => e.currentTarget.value && setMonth(e.currentTarget.value)}
            w={170}
          />
        )}
        {kind === 'year' && (
          <NumberInput
            aria-label={V.year}
            value={year}
            min={2000}
            max={2100}
            allowDecimal={false}
            onChange={(v) => typeof v === 'number' && setYear(v)}
            w={120}
          />
        )}
      </Group>
      {stat.error && <Alert color="red">{stat.error.message}</Alert>}
      {!s ? (
        !stat.error && <Loader />
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" data-testid="stat-totals">
            {(
              [
                [V.capacity, s.capacity],
                [V.booked, s.booked],
                [V.entered, s.entered],
                [V.noShow, s.noShow],
                [V.cancelled, s.cancelled],
                [V.teamPersons, s.teamPersons],
              ] as const
            ).map(([label, series]) => (
              <Card key={label} withBorder padding="sm">
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
                <Text fw={700} size="xl">
                  {sum(series)}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
            {(
              [
                [V.bookedChart, s.booked, 'blue', 'chart-booked'],
                [V.enteredChart, s.entered, 'green', 'chart-entered'],
                [V.noShowChart, s.noShow, 'red', 'chart-noshow'],
                [V.teamChart, s.teamPersons, 'violet', 'chart-team'],
              ] as const
            ).map(([title, series, color, testId]) => {
              // A day has a few slots: lying bars keep them readable (upright ones would fill the card).
              const Chart = kind === 'day' ? HBarChart : BarChart;
              return (
                <Chart
                  key={testId}
                  title={title}
                  bars={bars(series)}
                  color={`var(--mantine-color-${color}-6)`}
                  testId={testId}
                />
              );
            })}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
            <HBarChart
              title={V.region}
              bars={s.byProvince.slice(0, 10).map((p) => ({ label: p.name, value: p.count }))}
              testId="chart-region"
            />
            <BarChart
              title={V.ageBand}
              bars={s.byAgeBand.map((b) => ({ label: b.band, value: b.count }))}
              color="var(--mantine-color-orange-6)"
              testId="chart-age"
            />
            <HBarChart
              title={V.gender}
              bars={s.byGender.map((g) => ({ label: g.gender, value: g.count }))}
              color="var(--mantine-color-pink-6)"
              testId="chart-gender"
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {V.splitNote}
          </Text>
          <Card withBorder padding="sm">
            <Table.ScrollContainer minWidth={640}>
              <Table striped data-testid="stat-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{V.bucket(kind)}</Table.Th>
                    <Table.Th>{V.capacity}</Table.Th>
                    <Table.Th>{V.booked}</Table.Th>
                    <Table.Th>{V.entered}</Table.Th>
                    <Table.Th>{V.noShow}</Table.Th>
                    <Table.Th>{V.cancelled}</Table.Th>
                    <Table.Th>{V.teamPersons}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {s.labels.map((l, i) => (
                    <Table.Tr key={l}>
                      <Table.Td>{l}</Table.Td>
                      <Table.Td>{s.capacity[i]}</Table.Td>
                      <Table.Td>{s.booked[i]}</Table.Td>
                      <Table.Td>{s.entered[i]}</Table.Td>
                      <Table.Td>{s.noShow[i]}</Table.Td>
                      <Table.Td>{s.cancelled[i]}</Table.Td>
                      <Table.Td>{s.teamPersons[i]}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        </>
      )}
    </Stack>
  );
}

/**
 * Today's dayStat, asked again every `pollMs`: the day is read at each ask, so a board left open
 * overnight moves to the new day by itself.
 */
function useToday(pollMs: number) {
  return useQuery({
    queryKey: ['reservation', 'today'],
    queryFn: async () => {
      const date = museumDate(Date.now());
      const stat = await museum.get<ReservationStat>(`${BASE}/dayStat`, { query: { date }, silent: true });
      return { date, stat };
    },
    refetchInterval: pollMs,
    refetchOnWindowFocus: true,
  });
}

/** 预约看板: today's slots, booked (individuals and teams) against places, and who came. */
export function ReservationPanelPage() {
  const stat = useToday(PANEL_POLL_MS);
  const today = stat.data?.date ?? '';
  const s = stat.data?.stat;
  const booked = (i: number) => (s ? (s.booked[i] ?? 0) + (s.teamPersons[i] ?? 0) : 0);
  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="reservation-panel">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{V.panelTitle(today)}</Title>
        {stat.dataUpdatedAt > 0 && (
          <Badge variant="light" color={stat.isError ? 'red' : 'gray'}>
            {V.updatedAt(formatMuseumTime(stat.dataUpdatedAt).slice(11, 16))}
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {V.panelIntro}
      </Text>
      {stat.error && <Alert color="red">{stat.error.message}</Alert>}
      {!s ? (
        !stat.error && <Loader />
      ) : !s.labels.length ? (
        <Text c="dimmed">{V.panelEmpty}</Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            <Total label={V.capacity} value={sum(s.capacity)} />
            <Total label={V.bookedAll} value={sum(s.booked) + sum(s.teamPersons)} />
            <Total label={V.entered} value={sum(s.entered)} />
            <Total label={V.noShow} value={sum(s.noShow)} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
            {s.labels.map((l, i) => {
              const cap = s.capacity[i] ?? 0;
              const b = booked(i);
              const pct = cap ? Math.min(100, Math.round((b / cap) * 100)) : 0;
              const came = s.entered[i] ?? 0;
              return (
                <Card key={`${l}-${i}`} withBorder padding="md" data-testid="panel-slot">
                  <Group justify="space-between">
                    <Text fw={700} size="lg">
                      {l}
                    </Text>
                    {cap === 0 ? (
                      <Badge color="gray">{V.slotClosed}</Badge>
                    ) : pct >= 100 ? (
                      <Badge color="red">{V.full}</Badge>
                    ) : (
                      <Badge color="green">{V.left(cap - b)}</Badge>
                    )}
                  </Group>
                  <Text size="sm" mt={6}>
                    {cap ? V.slotBooked(b, cap) : V.slotBookedClosed(b)}
                  </Text>
                  <Progress
                    value={pct}
                    size="lg"
                    mt={4}
                    color={pct >= 90 ? 'red' : pct >= 70 ? 'orange' : 'blue'}
                  />
                  <Text size="sm" mt={8}>
                    {V.slotEntered(came, b)}
                  </Text>
                  <Progress
                    value={b ? Math.min(100, Math.round((came / b) * 100)) : 0}
                    size="sm"
                    mt={4}
                    color="green"
                  />
                </Card>
              );
            })}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}

function Total({ label, value }: { label: string; value: number }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
    </Card>
  );
}

/**
 * The workbench's card for those who manage reservations (预约看板, 预约总览 or 个人预约): today's
 * places, booked (teams included) and admitted, from today's dayStat, refreshed every minute.
 */
export function ReservationTodayCard({ panel }: { panel: boolean }) {
  const navigate = useNavigate();
  const s = useToday(60_000).data?.stat;
  return (
    <WorkbenchSection
      title={V.todayTitle}
      icon={<IconTicket size={18} />}
      testId="reservation-today"
      action={
        <SectionLink
          label={V.todayMore}
          onClick={() => void navigate({ to: panel ? '/reservation/panel' : '/reservation/view' })}
        />
      }
    >
      {s &&
        (s.labels.length ? (
          <SimpleGrid cols={3} spacing="xs" data-testid="reservation-today-loaded">
            <Total label={V.capacity} value={sum(s.capacity)} />
            <Total label={V.bookedAll} value={sum(s.booked) + sum(s.teamPersons)} />
            <Total label={V.admitted} value={sum(s.entered)} />
          </SimpleGrid>
        ) : (
          <Text size="sm" c="dimmed" data-testid="reservation-today-loaded">
            {V.panelEmpty}
          </Text>
        ))}
    </WorkbenchSection>
  );
}
