import { Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { PersonSheet } from '../../../shared/api/attendance';
import { rangeText } from '../../../shared/workflow/duration';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { EmptyBlock } from '../../components/page-states';
import { useCachedQuery } from '../../lib/cached-query';
import { tAttendance } from '../../lib/i18n/attendance';
import { MonthField, PageLink, RuleNote, SheetTable } from './attendance-bits';
import { attendanceCalls, attendanceKeys, formatDays, useMonthParam } from './attendance-data';

const A = tAttendance;
const P = A.person;

/**
 * One person's month: the three totals and the passed requests counted in it, each linking to
 * the request (/approve/process-done, where its detail opens). `userId` absent is me.
 */
export function PersonView({
  userId,
  title,
  back,
}: {
  userId?: number;
  title: (name: string) => string;
  back?: ReactNode;
}) {
  const [month, setMonth] = useMonthParam();
  const q = { month, userId };
  const view = useCachedQuery<PersonSheet>({
    queryKey: attendanceKeys.person(q),
    fetch: ({ signal }) => attendanceCalls.person(q, signal),
  });
  const d = view.data;

  return (
    <Stack gap="md" data-testid="attendance-person">
      {back}
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{title(d?.name ?? '')}</Title>
        <OfflineNote view={view} />
      </Group>
      <Card withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group align="flex-end" justify="space-between" wrap="wrap">
            <MonthField month={month} onChange={setMonth} />
            {d?.deptNames && (
              <Text size="sm" c="dimmed">
                {d.deptNames}
              </Text>
            )}
          </Group>
          {view.status !== 'ready' || !d ? (
            <CachedViewState view={view} />
          ) : (
            <>
              <SimpleGrid cols={{ base: 3 }} spacing="sm">
                {(['leave', 'travel', 'overtime'] as const).map((k) => (
                  <Card key={k} withBorder radius="md" p="sm" data-testid={`attendance-total-${k}`}>
                    <Text size="sm" c="dimmed">
                      {A.kind[k]}
                    </Text>
                    <Text fw={600} size="xl">
                      {formatDays(d.totals[k])}
                      <Text span size="sm" c="dimmed" ml={4}>
                        {A.unit.days}
                      </Text>
                    </Text>
                  </Card>
                ))}
              </SimpleGrid>
              <Text fw={500}>{P.requests}</Text>
              {d.list.length === 0 ? (
                <EmptyBlock title={P.empty} />
              ) : (
                <SheetTable
                  testId="attendance-requests"
                  head={
                    <>
                      <Table.Th>{P.template}</Table.Th>
                      <Table.Th>{P.period}</Table.Th>
                      <Table.Th ta="right">{P.duration}</Table.Th>
                      <Table.Th ta="right">{P.days}</Table.Th>
                      <Table.Th>{P.open}</Table.Th>
                    </>
                  }
                >
                  {d.list.map((r) => (
                    <Table.Tr key={r.actvityId}>
                      <Table.Td>
                        {A.kind[r.kind]}
                        {r.templateName !== A.kind[r.kind] && (
                          <Text span size="xs" c="dimmed" ml={4}>
                            {r.templateName}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{rangeText(r)}</Table.Td>
                      <Table.Td ta="right">
                        {formatDays(r.duration)}
                        {r.unit === 0 ? A.unit.hours : A.unit.days}
                      </Table.Td>
                      <Table.Td ta="right">{formatDays(r.days)}</Table.Td>
                      <Table.Td>
                        <PageLink
                          to="/approve/process-done"
                          search={{ state: 'done', actvityId: r.actvityId }}
                        >
                          {r.title}
                        </PageLink>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </SheetTable>
              )}
            </>
          )}
          <RuleNote />
        </Stack>
      </Card>
    </Stack>
  );
}
