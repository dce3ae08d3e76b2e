import {
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
} from '@mantine/core';
import {
  IconChartBar,
  IconChartDonut,
  IconHeartHandshake,
  IconPresentation,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Suspense, useState, type ReactNode } from 'react';
import type {
  ActivityLine,
  ExhibitionLine,
  OAExhibitionList,
  RelicPie,
  ServiceCount,
  TourLine,
} from '../../../shared/api/dashboards';
import { DASHBOARD_BASE, DASHBOARD_GRANTS } from '../../../shared/api/dashboard-grants';
import { DonutChart, LineChart, StackedBarChart } from '../../components/light-charts';
import { OfflineNote } from '../../components/offline-note';
import { museum } from '../../lib/api';
import { useCachedQuery, type CachedView } from '../../lib/cached-query';
import { tDashboards } from '../../lib/i18n/dashboards';
import { useSession } from '../../lib/session';
import { page } from '../../routes/lazy';
import { exhibitionRows, pieSlices, tourRows } from './shape';

/** 补录's form, with its date picker and number inputs, loads when 补录 is pressed (issue 25). */
const TourEntry = page(() => import('./tour-entry'), 'TourEntry');
const T = tDashboards;
const COLORS = [
  'teal.6',
  'blue.6',
  'orange.6',
  'grape.6',
  'cyan.6',
  'lime.6',
  'red.6',
  'indigo.6',
  'yellow.6',
  'gray.5',
];

function useDashboard<R>(call: string, query: Record<string, string> = {}, enabled = true) {
  return useCachedQuery<R>({
    queryKey: ['dashboards', call, query],
    enabled,
    fetch: ({ signal }) => museum.get<R>(`${DASHBOARD_BASE}/${call}`, { query, signal, silent: true }),
  });
}

/** A card's body: the chart when there is data, the words when there is none (or none on the device). */
function Body<R>({ view, children }: { view: CachedView<R>; children: (d: R) => ReactNode }) {
  if (view.status === 'not-cached')
    return (
      <Text size="sm" c="dimmed">
        {T.notCached}
      </Text>
    );
  if (!view.data) return <div style={{ height: 180 }} />;
  return <>{children(view.data)}</>;
}

/** A card as the workbench draws its own (features do not import each other). */
function WorkbenchSection(props: {
  title: string;
  icon?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Card radius="lg" p="md" withBorder data-testid={props.testId}>
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

const holds = (keys: readonly string[], grants: readonly string[]) => grants.some((g) => keys.includes(g));

/**
 * The workbench's charts for the person signed in: 观众人数 for reception and the office, 藏品构成
 * for keepers, 社教活动 and 志愿服务 for social education, the exhibitions for everyone
 * (README "Dashboards and the workbench").
 */
export function WorkbenchDashboards() {
  const keys = useSession()?.menu.grantedKeys ?? [];
  return (
    <Stack gap="md" data-testid="workbench-dashboards">
      {holds(keys, DASHBOARD_GRANTS.tourLine) && (
        <TourCard canEnter={holds(keys, DASHBOARD_GRANTS.tourWrite)} />
      )}
      {holds(keys, DASHBOARD_GRANTS.relicPie) && <RelicCard />}
      {holds(keys, DASHBOARD_GRANTS.activity) && <ActivityCard />}
      {holds(keys, DASHBOARD_GRANTS.volunteers) && <VolunteerCard />}
      {holds(keys, DASHBOARD_GRANTS.exhibitions) && <ExhibitionsCard />}
    </Stack>
  );
}

function TourCard({ canEnter }: { canEnter: boolean }) {
  const [by, setBy] = useState<'day' | 'month'>('day');
  const view = useDashboard<TourLine>('tourRecord/tourLine', { by });
  const [entering, setEntering] = useState(false);
  return (
    <WorkbenchSection
      title={T.tourTitle}
      icon={<IconUsers size={18} />}
      testId="dash-tour"
      action={
        <Group gap="xs" wrap="nowrap">
          <OfflineNote view={view} />
          {canEnter && (
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => setEntering(true)}
              data-testid="tour-enter"
            >
              {T.enter}
            </Button>
          )}
        </Group>
      }
    >
      <Group justify="space-between" mb="xs" wrap="wrap" gap="xs">
        <SegmentedControl
          size="xs"
          aria-label={T.byLabel}
          value={by}
          onChange={(v) => setBy(v as 'day' | 'month')}
          data={[
            { value: 'day', label: T.byDay },
            { value: 'month', label: T.byMonth },
          ]}
        />
        {view.data && (
          <Group gap="xs">
            <Badge variant="light" size="lg" data-testid="tour-today">
              {T.tourToday(view.data.today)}
            </Badge>
            <Text size="xs" c="dimmed" data-testid="tour-sum">
              {T.tourSum(view.data.sum.total, view.data.sum.minors)}
            </Text>
          </Group>
        )}
      </Group>
      <Body view={view}>
        {(d) => (
          <StackedBarChart
            h={200}
            label={T.tourTitle}
            dataKeyLabel={by === 'day' ? T.day : T.month}
            data={tourRows(d)}
            dataKey="label"
            series={[
              { name: 'reserved', label: T.reserved, color: 'teal.6' },
              { name: 'team', label: T.team, color: 'blue.6' },
              { name: 'walkIn', label: T.walkIn, color: 'orange.6' },
              { name: 'manual', label: T.manual, color: 'gray.5' },
            ]}
          />
        )}
      </Body>
      {entering && (
        <Suspense fallback={null}>
          <TourEntry onClose={() => setEntering(false)} onSaved={view.refetch} />
        </Suspense>
      )}
    </WorkbenchSection>
  );
}

function RelicCard() {
  const [by, setBy] = useState<RelicPie['by']>('category');
  const view = useDashboard<RelicPie>('culturarelic/pie', { by });
  return (
    <WorkbenchSection
      title={T.relicTitle}
      icon={<IconChartDonut size={18} />}
      testId="dash-relic"
      action={<OfflineNote view={view} />}
    >
      <SegmentedControl
        size="xs"
        mb="xs"
        value={by}
        onChange={(v) => setBy(v as RelicPie['by'])}
        data={(['category', 'level', 'preservation'] as const).map((k) => ({
          value: k,
          label: T.relicBy[k],
        }))}
      />
      <Body view={view}>
        {(d) =>
          d.items.length ? (
            <Group wrap="nowrap" align="center" gap="md">
              <DonutChart
                size={150}
                thickness={24}
                data={pieSlices(d.items, COLORS)}
                chartLabel={T.relicTotal(d.total)}
              />
              <Stack gap={2} style={{ minWidth: 0 }}>
                {d.items.map((i, n) => (
                  <Group key={i.label} gap={6} wrap="nowrap">
                    <ThemeIcon size={10} radius="xl" color={COLORS[n % COLORS.length]} />
                    <Text size="xs" truncate>
                      {i.label} {i.value}
                    </Text>
                  </Group>
                ))}
              </Stack>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {T.empty}
            </Text>
          )
        }
      </Body>
    </WorkbenchSection>
  );
}

function ActivityCard() {
  const view = useDashboard<ActivityLine>('socialEducational/activity');
  return (
    <WorkbenchSection
      title={T.activityTitle}
      icon={<IconUsersGroup size={18} />}
      testId="dash-activity"
      action={<OfflineNote view={view} />}
    >
      <Body view={view}>
        {(d) => (
          <LineChart
            h={180}
            data={d.months.map((m, i) => ({
              label: m.slice(2),
              activities: d.activities[i] ?? 0,
              participants: d.participants[i] ?? 0,
            }))}
            dataKey="label"
            label={T.activityTitle}
            dataKeyLabel={T.month}
            series={[
              { name: 'activities', label: T.activities, color: 'grape.6' },
              { name: 'participants', label: T.participants, color: 'teal.6', right: true },
            ]}
          />
        )}
      </Body>
    </WorkbenchSection>
  );
}

function VolunteerCard() {
  const view = useDashboard<ServiceCount>('volunteer/serviceCount');
  return (
    <WorkbenchSection
      title={T.volunteerTitle}
      icon={<IconHeartHandshake size={18} />}
      testId="dash-volunteers"
      action={<OfflineNote view={view} />}
    >
      <Body view={view}>
        {(d) => (
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
            {[
              [T.trainee, String(d.trainee)],
              [T.regular, String(d.regular)],
              [T.students, String(d.students)],
              [T.hours(d.year), T.hoursValue(d.serviceMinutes)],
              [T.served, String(d.served)],
            ].map(([label, value]) => (
              <div key={label}>
                <Text fw={700} fz={20}>
                  {value}
                </Text>
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        )}
      </Body>
    </WorkbenchSection>
  );
}

function ExhibitionsCard() {
  const list = useDashboard<OAExhibitionList>('exhibition/oAExhibitionList');
  const line = useDashboard<ExhibitionLine>('exhibition/ExhibitionLine');
  return (
    <WorkbenchSection
      title={T.exhibitionsTitle}
      icon={<IconPresentation size={18} />}
      testId="dash-exhibitions"
      action={<OfflineNote view={list} />}
    >
      <Body view={list}>
        {(d) => (
          <Stack gap="xs">
            {(
              [
                [T.onNow, d.current, T.noneOnNow],
                [T.upcoming, d.upcoming, T.noneUpcoming],
              ] as const
            ).map(([title, items, none]) => (
              <div key={title}>
                <Text size="sm" fw={600} mb={4}>
                  {title}
                </Text>
                {items.length === 0 ? (
                  <Text size="xs" c="dimmed">
                    {none}
                  </Text>
                ) : (
                  items.slice(0, 5).map((e) => (
                    <Group
                      key={e.id}
                      justify="space-between"
                      wrap="nowrap"
                      gap="xs"
                      data-testid="dash-exhibition"
                    >
                      <Text size="sm" truncate>
                        <Badge size="xs" variant="light" mr={6}>
                          {e.typeLabel}
                        </Badge>
                        {e.title}
                      </Text>
                      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                        {T.dates(e.startDate, e.endDate)}
                      </Text>
                    </Group>
                  ))
                )}
              </div>
            ))}
          </Stack>
        )}
      </Body>
      <Text size="sm" fw={600} mt="sm" mb={4}>
        <IconChartBar size={14} style={{ verticalAlign: -2 }} /> {T.exhibitionLineTitle}
      </Text>
      <Body view={line}>
        {(d) => (
          <StackedBarChart
            h={160}
            label={T.exhibitionLineTitle}
            dataKeyLabel={T.month}
            data={exhibitionRows(d)}
            dataKey="label"
            series={[
              { name: 'permanent', label: T.permanent, color: 'indigo.6' },
              { name: 'temporary', label: T.temporary, color: 'orange.6' },
            ]}
          />
        )}
      </Body>
    </WorkbenchSection>
  );
}
