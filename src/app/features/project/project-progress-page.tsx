import { Anchor, Card, Group, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { PROJECT_TYPE_TEXT, type ProjectProgress } from '../../../shared/api/project';
import { LoadFailed } from '../../components/load-failed';
import { EmptyBlock, LoadingBlock } from '../../components/page-states';
import { tProject } from '../../lib/i18n/project';
import { filesCalls, filesKeys } from './files-data';

const G = tProject.progress;

/**
 * 项目进度 (/approve/project-progress; project/progress): for each project the caller sees
 * (administrators: every project), its tasks done, open and overdue, and the same by assignee.
 * Subtasks are not counted (the server's rule). Online only: it is a report, not field work.
 */
export function ProjectProgressPage() {
  const list = useQuery({
    queryKey: filesKeys.progress,
    queryFn: ({ signal }) => filesCalls.progress(signal),
  });
  return (
    <Stack gap="md" data-testid="project-progress-page">
      <Title order={3}>{G.title}</Title>
      {list.isPending ? (
        <LoadingBlock />
      ) : list.isError ? (
        <LoadFailed error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />
      ) : list.data.length === 0 ? (
        <EmptyBlock title={G.empty} />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {list.data.map((p) => (
            <ProjectCard key={p.projectId} p={p} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function ProjectCard({ p }: { p: ProjectProgress }) {
  const navigate = useNavigate();
  const pct = p.total === 0 ? 0 : Math.round((p.done / p.total) * 100);
  return (
    <Card withBorder padding="md" data-testid="progress-card">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} truncate>
            {p.name}
          </Text>
          <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
            {PROJECT_TYPE_TEXT[p.type]}
          </Text>
        </Group>
        <Progress value={pct} size="sm" aria-label={`${p.name} ${pct}%`} />
        <Group gap="md">
          <Text size="sm">
            {G.total} {p.total}
          </Text>
          <Text size="sm">
            {G.done} {p.done}
          </Text>
          <Text size="sm">
            {G.open} {p.open}
          </Text>
          <Text size="sm" c={p.overdue ? 'red' : undefined}>
            {G.overdue} {p.overdue}
          </Text>
        </Group>
        {p.byAssignee.length > 0 && (
          <Table fz="sm" verticalSpacing={4} data-testid="progress-by-assignee">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{G.assignee}</Table.Th>
                <Table.Th>{G.done}</Table.Th>
                <Table.Th>{G.open}</Table.Th>
                <Table.Th>{G.overdue}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {p.byAssignee.map((a) => (
                <Table.Tr key={a.userId ?? 0}>
                  <Table.Td>{a.userId === null ? G.unassigned : a.userName}</Table.Td>
                  <Table.Td>{a.done}</Table.Td>
                  <Table.Td>{a.open}</Table.Td>
                  <Table.Td c={a.overdue ? 'red' : undefined}>{a.overdue}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group justify="flex-end">
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => void navigate({ to: '/project/sub', search: { projectId: String(p.projectId) } })}
          >
            {G.openBoard}
          </Anchor>
        </Group>
      </Stack>
    </Card>
  );
}
