import { Badge, Button, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { ProjectRow } from '../../../shared/api/project';
import { museumDate } from '../../../shared/rules/museum-time';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { EmptyBlock } from '../../components/page-states';
import { useCachedQuery } from '../../lib/cached-query';
import { tProject } from '../../lib/i18n/project';
import { filesCalls, filesKeys } from './files-data';
import { projectCalls, projectKeys } from './project-data';
import { dateRange, planMonths, planStatus, progressPercent, type PlanStatus } from './project-rules';

const P = tProject.plan;
const STATUS_COLOR: Record<PlanStatus, string> = {
  upcoming: 'blue',
  running: 'green',
  ended: 'gray',
  undated: 'yellow',
};

/**
 * 展览计划 (/project/project-plan; spec §2 lists it under 展览策划 beside /exhibition without
 * showing it). Designed as what a museum plans by: the season's exhibitions on a timeline, so
 * the schedule, who leads each one and how far its preparation has come are seen at once.
 * The working exhibition projects (type exhibition, not archived) are grouped by the month they
 * open, in date order, undated ones last (未定档期); each shows its 档期, status on today's museum
 * date (筹备中 / 展出中 / 已结束), owner, tasks done/total and, from the progress report, its
 * overdue tasks; 打开看板 opens its board. Read-only: projects are created and edited in 展览管理.
 * The list is kept on the device like /exhibition; the overdue counts need the network.
 */
export function ProjectPlanPage() {
  const [today] = useState(() => museumDate(Date.now()));
  const view = useCachedQuery<ProjectRow[]>({
    // The same copy as 展览管理's working tab.
    queryKey: [...projectKeys.list('exhibition'), 'working'],
    fetch: ({ signal }) => projectCalls.list('exhibition', signal),
    toastErrors: false,
  });
  const progress = useQuery({
    queryKey: filesKeys.progress,
    queryFn: ({ signal }) => filesCalls.progress(signal),
    enabled: !view.offline,
  });
  const overdue = new Map((progress.data ?? []).map((p) => [p.projectId, p.overdue]));
  const months = planMonths(view.data ?? []);
  return (
    <Stack gap="md" data-testid="project-plan-page">
      <Group gap="sm">
        <Title order={3}>{P.title}</Title>
        <OfflineNote view={view} />
      </Group>
      <Text size="sm" c="dimmed">
        {P.intro}
      </Text>
      {view.status !== 'ready' ? (
        <CachedViewState view={view} />
      ) : months.length === 0 ? (
        <EmptyBlock title={P.empty} description={P.emptyHint} />
      ) : (
        months.map((m) => (
          <Stack key={m.month} gap="xs" data-testid="plan-month">
            <Title order={5}>{m.month ? P.month(m.month) : P.undated}</Title>
            {m.projects.map((p) => (
              <PlanRow key={p.projectId} p={p} today={today} overdue={overdue.get(p.projectId)} />
            ))}
          </Stack>
        ))
      )}
    </Stack>
  );
}

function PlanRow({ p, today, overdue }: { p: ProjectRow; today: string; overdue: number | undefined }) {
  const navigate = useNavigate();
  const status = planStatus(p.startDate, p.endDate, today);
  return (
    <Card withBorder radius="md" p="sm" data-testid="plan-row">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={4} style={{ flex: 1, minWidth: 220 }}>
          <Group gap="xs">
            <Text fw={600}>{p.name}</Text>
            <Badge variant="light" color={STATUS_COLOR[status]}>
              {P.status[status]}
            </Badge>
            {overdue ? (
              <Badge variant="light" color="red">
                {P.overdue(overdue)}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            {P.period}：{dateRange(p.startDate, p.endDate, P.undated)} · {P.owner}：{p.ownerName}
          </Text>
        </Stack>
        <Group gap="sm" wrap="nowrap">
          <Progress
            value={progressPercent(p.doneCount, p.taskCount)}
            w={120}
            aria-label={P.progress(p.doneCount, p.taskCount)}
          />
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {P.progress(p.doneCount, p.taskCount)}
          </Text>
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => void navigate({ to: '/project/sub', search: { projectId: String(p.projectId) } })}
          >
            {P.open}
          </Button>
        </Group>
      </Group>
    </Card>
  );
}
