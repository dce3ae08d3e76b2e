import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import {
  Anchor,
  Card,
  Divider,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { ACTIVITY_STAT_CALL, type MonthlyStat } from '../../shared/api/activity';
import { activity, activityRecord, activitySign, activityType } from '../../shared/records/activity/activity';
import { MONTH_RE, museumMonth } from '../../shared/records/activity/rules';
import type { RecordDef } from '../../shared/records/define';
import { recruitSign } from '../../shared/records/volunteer/recruit';
import { CachedViewState } from '../components/cached-state';
import { OfflineNote } from '../components/offline-note';
import { RecordListPage } from '../features/records';
import { FieldView } from '../features/records/field-view';
import { StatusTimeline } from '../features/records/record-detail';
import { museum } from '../lib/api';
import { useCachedQuery } from '../lib/cached-query';
import { tActivity } from '../lib/i18n/activity';
import { useDictionaries, useRecordDetail } from '../lib/records';

/**
 * 社会教育 (/activity/*, issue 24; README "Social education activities (issue 24)"): the
 * engine's pages of the four records, the activity's own page with its sign-up list, and
 * 活动统计's charts (@mantine/charts) over GET /activity/statistic. Also 报名详情
 * (/volunteer/sign-detail), one volunteer sign-up read whole.
 */

const A = tActivity;

/** 活动类型 (/activity/activity-type). */
export function ActivityTypePage() {
  return <RecordListPage def={activityType} intro={A.typeIntro} />;
}

/** 活动管理 (/activity/activity-manage): each row opens its own page with the sign-ups. */
export function ActivityManagePage() {
  const navigate = useNavigate();
  return (
    <RecordListPage
      def={activity}
      title={A.manageTitle}
      intro={A.manageIntro}
      rowActions={(row) => [
        {
          key: 'signs',
          label: A.openDetail,
          icon: IconEye,
          run: () =>
            void navigate({
              to: '/activity/activity-manage/detail',
              search: { id: String(row.id) } as never,
            }),
        },
      ]}
    />
  );
}

/** 活动资料 (/activity/activity-datamanagement): what each held activity left. */
export function ActivityDataPage() {
  return <RecordListPage def={activityRecord} intro={A.dataIntro} />;
}

function useIdParam(): number | null {
  const search = useRouterState({ select: (st) => st.location.search as Record<string, unknown> });
  const id = Number(search.id);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** One row of a record read whole (its fields and status timeline), inline on a page. */
function RecordCard({ def, id, extra }: { def: RecordDef; id: number; extra?: ReactNode }) {
  const view = useRecordDetail(def, id);
  const dicts = useDictionaries([]);
  const d = view.data;
  if (!d) return <CachedViewState view={view} />;
  const ctx = { names: d.names, dictLabel: dicts.labelOf };
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" align="flex-start" mb="sm">
        <Title order={4} style={{ wordBreak: 'break-word' }}>
          {def.describe(d.record)}
        </Title>
        <OfflineNote view={view} />
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        {Object.entries(def.fields)
          .filter(([, fd]) => !['rich', 'textarea', 'image', 'file'].includes(fd.kind))
          .map(([key, fd]) => (
            <div key={key}>
              <Text size="xs" c="dimmed">
                {fd.label}
              </Text>
              <FieldView fd={fd} value={d.record[key]} ctx={ctx} full />
            </div>
          ))}
      </SimpleGrid>
      {extra}
      {def.status && d.log.length > 0 && (
        <>
          <Divider my="sm" label={A.timeline} labelPosition="left" />
          <StatusTimeline def={def} log={d.log} />
        </>
      )}
    </Card>
  );
}

/** 活动详情 (/activity/activity-manage/detail?id=): the activity and its sign-up list. */
export function ActivityDetailPage() {
  const id = useIdParam();
  if (!id)
    return (
      <Stack p="md">
        <Title order={3}>{A.detailTitle}</Title>
        <Text c="dimmed">{A.noId}</Text>
      </Stack>
    );
  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="activity-detail">
      <Title order={3}>{A.detailTitle}</Title>
      <RecordCard def={activity} id={id} />
      <RecordListPage
        def={activitySign}
        title={A.signsTitle}
        intro={A.signsIntro}
        embedded
        fixed={{ activityId: id }}
      />
    </Stack>
  );
}

/** 活动统计 (/activity/activity-statistic): 12 months of activities and participants. */
export function ActivityStatisticPage() {
  const [month, setMonth] = useState(() => museumMonth(Date.now()));
  const [typed, setTyped] = useState(month);
  const view = useCachedQuery<MonthlyStat>({
    queryKey: ['activity', 'statistic', month],
    fetch: ({ signal }) =>
      museum.get<MonthlyStat>(ACTIVITY_STAT_CALL, { query: { month }, signal, silent: true }),
  });
  const d = view.data;
  const rows = d
    ? d.months.map((m, i) => ({
        month: m,
        [A.activities]: d.activities[i]!,
        [A.participants]: d.participants[i]!,
        [A.signUps]: d.signUps[i]!,
      }))
    : [];
  const bad = !MONTH_RE.test(typed);
  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="activity-statistic">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{A.statTitle}</Title>
        <OfflineNote view={view} />
      </Group>
      <Group align="flex-end">
        <TextInput
          label={A.endMonth}
          value={typed}
          onChange={(e) => {
            const v = e.currentTarget.value.trim();
            setTyped(v);
            if (MONTH_RE.test(v)) setMonth(v);
          }}
          error={bad ? A.badMonth : undefined}
          w={180}
        />
        <Text size="sm" c="dimmed">
          {A.statNote}
        </Text>
      </Group>
      {!d ? (
        <CachedViewState view={view} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Figure label={A.totalActivities} value={d.totals.activities} />
            <Figure label={A.totalParticipants} value={d.totals.participants} />
            <Figure label={A.totalSignUps} value={d.totals.signUps} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder>
              <Text fw={600} mb="sm">
                {A.activitiesChart}
              </Text>
              <BarChart
                h={260}
                data={rows}
                dataKey="month"
                series={[{ name: A.activities, color: 'blue.6' }]}
                withLegend
              />
            </Card>
            <Card withBorder>
              <Text fw={600} mb="sm">
                {A.participantsChart}
              </Text>
              <LineChart
                h={260}
                data={rows}
                dataKey="month"
                series={[
                  { name: A.participants, color: 'teal.6' },
                  { name: A.signUps, color: 'orange.6' },
                ]}
                withLegend
                curveType="linear"
              />
            </Card>
          </SimpleGrid>
          <Table striped withTableBorder data-testid="activity-stat-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{A.month}</Table.Th>
                <Table.Th>{A.activities}</Table.Th>
                <Table.Th>{A.participants}</Table.Th>
                <Table.Th>{A.signUps}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {d.months.map((m, i) => (
                <Table.Tr key={m}>
                  <Table.Td>{m}</Table.Td>
                  <Table.Td>{d.activities[i]}</Table.Td>
                  <Table.Td>{d.participants[i]}</Table.Td>
                  <Table.Td>{d.signUps[i]}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <Card withBorder>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700}>
        {value}
      </Text>
    </Card>
  );
}

/**
 * 报名详情 (/volunteer/sign-detail?id=): one volunteer's sign-up for a recruit read whole (the
 * volunteer, the recruit, its state and timeline), with a way to the recruit's other sign-ups.
 * The decisions are taken on 报名管理's rows, where the rights and buttons are.
 */
export function VolunteerSignDetailPage() {
  const id = useIdParam();
  const navigate = useNavigate();
  const detail = useRecordDetail(recruitSign, id);
  const recruitId = detail.data?.record.recruitId as number | undefined;
  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="volunteer-sign-detail">
      <Title order={3}>{A.volunteerSignTitle}</Title>
      {!id ? (
        <Text c="dimmed">{A.volunteerSignNoId}</Text>
      ) : (
        <RecordCard
          def={recruitSign}
          id={id}
          extra={
            recruitId ? (
              <Anchor
                mt="sm"
                component="button"
                onClick={() =>
                  void navigate({
                    to: '/volunteer/recruit/detail',
                    search: { id: String(recruitId) } as never,
                  })
                }
              >
                {A.recruitSigns}
              </Anchor>
            ) : null
          }
        />
      )}
    </Stack>
  );
}
