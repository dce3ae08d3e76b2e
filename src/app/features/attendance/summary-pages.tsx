import { Card, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { exportName, type DeptSheet, type YearSheet } from '../../../shared/api/attendance';
import { currentMonth } from '../../../shared/workflow/attendance';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { EmptyBlock } from '../../components/page-states';
import { useCachedQuery, type CachedView } from '../../lib/cached-query';
import { tAttendance } from '../../lib/i18n/attendance';
import { DayCells, DayHeads, ExportButton, MonthField, RuleNote, SheetTable } from './attendance-bits';
import { attendanceCalls, attendanceKeys, useMonthParam } from './attendance-data';

const A = tAttendance;

/** The frame both summaries share: title, offline note, the filters, the states, the rule. */
function SummaryFrame({
  title,
  view,
  filters,
  children,
  testId,
}: {
  title: string;
  view: CachedView<unknown>;
  filters: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Stack gap="md" data-testid={testId}>
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{title}</Title>
        <OfflineNote view={view} />
      </Group>
      <Card withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group align="flex-end" wrap="wrap" gap="sm">
            {filters}
          </Group>
          {view.status !== 'ready' ? <CachedViewState view={view} /> : children}
          <RuleNote />
        </Stack>
      </Card>
    </Stack>
  );
}

/** /approve/department-summary 部门汇总: each department of my scope in one month. */
export function DepartmentSummaryPage() {
  const [month, setMonth] = useMonthParam();
  const view = useCachedQuery<DeptSheet>({
    queryKey: attendanceKeys.departments(month),
    fetch: ({ signal }) => attendanceCalls.departments(month, signal),
  });
  const list = view.data?.list ?? [];
  return (
    <SummaryFrame
      title={A.depts.title}
      view={view}
      testId="department-summary"
      filters={
        <>
          <MonthField month={month} onChange={setMonth} />
          <ExportButton
            path="departments"
            query={{ month }}
            fileName={exportName.departments(month)}
            disabled={view.status !== 'ready' || list.length === 0}
          />
        </>
      }
    >
      {list.length === 0 ? (
        <EmptyBlock title={A.depts.empty} />
      ) : (
        <SheetTable
          testId="department-table"
          head={
            <>
              <Table.Th>{A.cols.dept}</Table.Th>
              <Table.Th ta="right">{A.cols.people}</Table.Th>
              <DayHeads />
            </>
          }
        >
          {list.map((r) => (
            <Table.Tr key={r.deptId}>
              <Table.Td>{r.deptName}</Table.Td>
              <Table.Td ta="right">{r.people}</Table.Td>
              <DayCells d={r} />
            </Table.Tr>
          ))}
        </SheetTable>
      )}
    </SummaryFrame>
  );
}

const thisYear = () => Number(currentMonth().slice(0, 4));

/** /approve/personal-summary 个人汇总: my twelve months of one year, with the year's total. */
export function PersonalSummaryPage() {
  const [year, setYear] = useState(thisYear);
  const view = useCachedQuery<YearSheet>({
    queryKey: attendanceKeys.personal(year),
    fetch: ({ signal }) => attendanceCalls.personal(year, signal),
  });
  const d = view.data;
  const years = Array.from({ length: 6 }, (_, i) => String(thisYear() + 1 - i));
  return (
    <SummaryFrame
      title={A.personal.title}
      view={view}
      testId="personal-summary"
      filters={
        <>
          <Select
            label={A.year}
            data={years}
            value={String(year)}
            onChange={(v) => v && setYear(Number(v))}
            allowDeselect={false}
            w={120}
          />
          <ExportButton
            path="personal"
            query={{ year }}
            fileName={exportName.personal(year, d?.name ?? '')}
            disabled={view.status !== 'ready'}
          />
        </>
      }
    >
      {d && (
        <>
          <Text size="sm" c="dimmed">
            {A.personal.hint(d.name, d.year)}
          </Text>
          <SheetTable
            testId="personal-table"
            head={
              <>
                <Table.Th>{A.cols.month}</Table.Th>
                <DayHeads />
              </>
            }
          >
            {d.list.map((r) => (
              <Table.Tr key={r.month}>
                <Table.Td>{r.month}</Table.Td>
                <DayCells d={r} />
              </Table.Tr>
            ))}
            <Table.Tr fw={600}>
              <Table.Td>{A.total}</Table.Td>
              <DayCells d={d.totals} />
            </Table.Tr>
          </SheetTable>
        </>
      )}
    </SummaryFrame>
  );
}
