import {
  Alert,
  Box,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useState } from 'react';
import type {
  TongjiDays,
  TongjiMonths,
  TongjiRecords,
  TongjiSite,
  TongjiTop,
} from '../../../shared/api/content-stats';
import { museumDate } from '../../../shared/rules/museum-time';
import { BarChart, HBarChart } from '../../components/bar-chart';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { LineChart, PieChart } from '../../components/pie-line-chart';
import { museum } from '../../lib/api';
import { useCachedQuery } from '../../lib/cached-query';
import { tContentTongji } from '../../lib/i18n/content-tongji';
import {
  PRESET_DAYS,
  monthLabels,
  monthSpan,
  presetRange,
  rangeProblem,
  spanDays,
  topBars,
  trendBuckets,
  type DayRange,
} from './tongji-logic';

/**
 * 访问统计 (/website/tongji for the Chinese website and the mini-program, /en-website/tongji for
 * the English rows; README "View counts and 统计"): the views (and plays of audio and video) of
 * the published content over a range of museum days — the totals, the trend, the last 12 months,
 * the rows viewed most and the split by kind of content — drawn with the app's own SVG charts
 * (components/bar-chart, pie-line-chart; each an image whose text alternative reads the numbers
 * out) like 借阅概览. The four answers are one device-cached view per range, so the page opens
 * offline with the time it was last synced.
 */

const P = tContentTongji;
const BASE = '/bs/tongji';

interface TongjiData {
  days: TongjiDays;
  months: TongjiMonths;
  top: TongjiTop;
  records: TongjiRecords;
}

export function WebsiteTongjiPage() {
  return <TongjiPage site="website" />;
}

export function EnWebsiteTongjiPage() {
  return <TongjiPage site="enWebsite" />;
}

function TongjiPage({ site }: { site: TongjiSite }) {
  // The museum's today when the page opened (a page left open over midnight keeps its range).
  const [today] = useState(() => museumDate(Date.now()));
  const [preset, setPreset] = useState('30');
  const [range, setRange] = useState<DayRange>(() => presetRange(30, today));
  const [picked, setPicked] = useState<[string | null, string | null]>([range.from, range.to]);
  const problem = rangeProblem(range);
  // The English website has no audio or video rows: no plays to show.
  const plays = site === 'website';

  const view = useCachedQuery<TongjiData>({
    queryKey: ['content', 'tongji', site, range.from, range.to],
    enabled: !problem,
    fetch: async ({ signal }) => {
      const query = { site, from: range.from, to: range.to };
      const get = <T,>(call: string) => museum.get<T>(`${BASE}/${call}`, { query, signal, silent: true });
      const [days, months, top, records] = await Promise.all([
        get<TongjiDays>('days'),
        get<TongjiMonths>('months'),
        get<TongjiTop>('top'),
        get<TongjiRecords>('records'),
      ]);
      return { days, months, top, records };
    },
  });

  function choosePreset(v: string) {
    setPreset(v);
    if (v === 'custom') return;
    const r = presetRange(Number(v), today);
    setRange(r);
    setPicked([r.from, r.to]);
  }

  function pick([from, to]: [string | null, string | null]) {
    setPicked([from, to]);
    if (from && to) {
      setPreset('custom');
      setRange({ from, to });
    }
  }

  const d = view.data;
  const trend = d ? trendBuckets(d.days) : null;
  const visited = d ? d.records.records.reduce((a, r) => a + r.rows, 0) : 0;

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="content-tongji">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{site === 'website' ? P.titleWebsite : P.titleEnglish}</Title>
        <OfflineNote view={view} />
      </Group>
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SegmentedControl
          aria-label={P.rangeLabel}
          value={preset}
          onChange={choosePreset}
          data={[
            ...PRESET_DAYS.map((n) => ({ value: String(n), label: P.lastDays(n) })),
            { value: 'custom', label: P.custom },
          ]}
          data-testid="tongji-preset"
        />
        <DatePickerInput
          type="range"
          aria-label={P.rangeLabel}
          placeholder={P.rangeLabel}
          valueFormat="YYYY-MM-DD"
          allowSingleDateInRange
          maxDate={today}
          value={picked}
          onChange={(v) => pick(v as [string | null, string | null])}
          style={{ flex: '1 1 240px', minWidth: 220, maxWidth: 320 }}
          data-testid="tongji-range"
        />
      </Group>
      {problem ? (
        <Alert color="orange" data-testid="tongji-problem">
          {problem}
        </Alert>
      ) : (
        <CachedViewState view={view} />
      )}
      {d && !problem && trend && (
        <>
          <SimpleGrid cols={{ base: 2, sm: plays ? 4 : 3 }} spacing="sm" data-testid="tongji-counters">
            <Counter label={P.totalViews} value={P.times(d.records.total.views)} />
            {plays && <Counter label={P.totalPlays} value={P.times(d.records.total.plays)} />}
            <Counter label={P.visitedRows} value={P.rows(visited)} />
            <Counter
              label={P.dailyViews}
              value={P.times(Math.round(d.records.total.views / spanDays(range)))}
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {P.rangeNote(d.days.from, d.days.to)}
          </Text>
          {/* A few points drawn full width would be huge (the card grows with them); many on a
              phone would be unreadable (the card keeps 28 px a point and scrolls sideways). */}
          <Box
            maw={Math.max(480, trend.buckets.length * 56)}
            w="100%"
            style={{ overflowX: 'auto' }}
            tabIndex={0}
          >
            <Box miw={trend.buckets.length * 28}>
              <LineChart
                title={P.trend(trend.unit, plays)}
                labels={trend.buckets.map((b) => b.label)}
                series={[
                  { label: P.views, values: trend.buckets.map((b) => b.views) },
                  ...(plays ? [{ label: P.plays, values: trend.buckets.map((b) => b.plays) }] : []),
                ]}
                testId="tongji-trend"
              />
            </Box>
          </Box>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
            <BarChart
              title={P.byMonth(monthSpan(d.months.months))}
              bars={monthLabels(d.months.months).map((label, i) => ({
                label,
                value: d.months.views[i] ?? 0,
              }))}
              format={P.times}
              testId="tongji-months"
            />
            {d.top.items.length ? (
              <HBarChart title={P.top} bars={topBars(d.top.items)} format={P.times} testId="tongji-top" />
            ) : (
              <Card withBorder padding="sm" data-testid="tongji-top">
                <Text fw={600} size="sm" mb={4}>
                  {P.top}
                </Text>
                <Text size="sm" c="dimmed" py="md">
                  {P.noViews}
                </Text>
              </Card>
            )}
            <PieChart
              title={P.byRecord}
              slices={d.records.records
                .filter((r) => r.views > 0)
                .map((r) => ({ label: r.title, value: r.views, note: P.rowsNote(r.rows) }))}
              format={P.times}
              empty={P.noViews}
              testId="tongji-records"
            />
          </SimpleGrid>
          <Card withBorder padding="sm">
            <Text fw={600} size="sm" mb={4}>
              {P.table}
            </Text>
            <Table.ScrollContainer minWidth={360}>
              <Table striped data-testid="tongji-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{P.kind}</Table.Th>
                    <Table.Th ta="right">{P.views}</Table.Th>
                    {plays && <Table.Th ta="right">{P.plays}</Table.Th>}
                    <Table.Th ta="right">{P.visitedRows}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.records.records.map((r) => (
                    <Table.Tr key={r.record}>
                      <Table.Td>{r.title}</Table.Td>
                      <Table.Td ta="right">{r.views}</Table.Td>
                      {plays && <Table.Td ta="right">{r.plays}</Table.Td>}
                      <Table.Td ta="right">{r.rows}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
          <Text size="xs" c="dimmed">
            {P.note}
          </Text>
        </>
      )}
    </Stack>
  );
}

function Counter({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder padding="sm" h="100%" data-testid="tongji-counter">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
    </Card>
  );
}
