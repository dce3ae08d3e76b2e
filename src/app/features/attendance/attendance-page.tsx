import { Card, Group, Select, Stack, Table, Title } from '@mantine/core';
import { useState } from 'react';
import { exportName, type MonthSheet } from '../../../shared/api/attendance';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { EmptyBlock } from '../../components/page-states';
import { useCachedQuery } from '../../lib/cached-query';
import { tAttendance } from '../../lib/i18n/attendance';
import {
  DayCells,
  DayHeads,
  ExportButton,
  MonthField,
  PageLink,
  RuleNote,
  SheetTable,
} from './attendance-bits';
import { attendanceCalls, attendanceKeys, useMonthParam } from './attendance-data';

const A = tAttendance;

/**
 * /approve/view 考勤统计: each person of my scope (the whole museum, or the departments I head)
 * in one month, a department filter, each name opening that person's detail, and the export.
 */
export function AttendancePage() {
  const [month, setMonth] = useMonthParam();
  const [deptId, setDeptId] = useState<number | undefined>();
  const q = { month, deptId };
  const view = useCachedQuery<MonthSheet>({
    queryKey: attendanceKeys.month(q),
    fetch: ({ signal }) => attendanceCalls.month(q, signal),
  });
  const sheet = view.data;
  const list = sheet?.list ?? [];

  return (
    <Stack gap="md" data-testid="attendance-page">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{A.overview.title}</Title>
        <OfflineNote view={view} />
      </Group>
      <Card withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group align="flex-end" wrap="wrap" gap="sm">
            <MonthField month={month} onChange={setMonth} />
            <Select
              label={A.deptLabel}
              placeholder={A.allDepts}
              data={(sheet?.depts ?? []).map((d) => ({ value: String(d.deptId), label: d.deptName }))}
              value={deptId === undefined ? null : String(deptId)}
              onChange={(v) => setDeptId(v ? Number(v) : undefined)}
              clearable
              w={180}
            />
            <ExportButton
              path="month"
              query={q}
              fileName={exportName.month(month)}
              disabled={view.status !== 'ready' || list.length === 0}
            />
          </Group>
          {view.status !== 'ready' ? (
            <CachedViewState view={view} />
          ) : list.length === 0 ? (
            <EmptyBlock title={A.overview.empty} />
          ) : (
            <SheetTable
              testId="attendance-table"
              head={
                <>
                  <Table.Th>{A.cols.name}</Table.Th>
                  <Table.Th>{A.cols.dept}</Table.Th>
                  <DayHeads />
                </>
              }
            >
              {list.map((r) => (
                <Table.Tr key={r.userId} data-testid="attendance-row">
                  <Table.Td>
                    <PageLink
                      to="/approve/view-person-detail"
                      search={{ userId: r.userId, month }}
                      label={A.overview.detail(r.name)}
                    >
                      {r.name}
                    </PageLink>
                  </Table.Td>
                  <Table.Td>{r.deptNames || '—'}</Table.Td>
                  <DayCells d={r} />
                </Table.Tr>
              ))}
            </SheetTable>
          )}
          <RuleNote />
        </Stack>
      </Card>
    </Stack>
  );
}
