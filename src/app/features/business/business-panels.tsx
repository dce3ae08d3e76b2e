import {
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { MonthPickerInput } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DeptSummary, Overview } from '../../../shared/api/business';
import type { DeptNode } from '../../../shared/api/org';
import { businessMonth, PLAN_PERIODS, PLAN_STATES } from '../../../shared/records/office/business-data';
import { museumDate } from '../../../shared/rules/museum-time';
import { CachedViewState } from '../../components/cached-state';
import { confirmAction } from '../../components/confirm-action';
import { OfflineNote } from '../../components/offline-note';
import { museum, errorToast } from '../../lib/api';
import { useCachedQuery } from '../../lib/cached-query';
import { tCore } from '../../lib/i18n-core';
import { tBusiness } from '../../lib/i18n/business';
import { tRecords } from '../../lib/i18n/records';
import { recordKeys, useDictionaries, writeRecord } from '../../lib/records';

const B = tBusiness;

/** The month the panels open on: the museum's previous month (figures are reported after it ends). */
export function lastMonth(): string {
  const [y, m] = museumDate(Date.now()).split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}
const parts = (month: string) => month.split('-').map(Number) as [number, number];

export function MonthField({ month, onChange }: { month: string; onChange: (m: string) => void }) {
  return (
    <MonthPickerInput
      label={B.month}
      value={`${month}-01`}
      valueFormat={B.monthFormat}
      onChange={(v) => v && onChange(v.slice(0, 7))}
      w={170}
      data-testid="business-month"
    />
  );
}

function MonthBadge({ status }: { status: number }) {
  return (
    <Badge color={status === 1 ? 'gray' : 'blue'} variant="light" data-testid="month-state">
      {status === 1 ? B.closed : B.open}
    </Badge>
  );
}

/**
 * 全馆概览 (业务数据汇总): every department's month — its figures in or not, how many of its
 * people reported, its plans' mean progress — and the month's closing, 关账 or 重新开账 with a
 * reason (the month record's transitions, so each is in its status history and the system log).
 */
export function OverviewPanel() {
  const [month, setMonth] = useState(lastMonth);
  const [y, m] = parts(month);
  const qc = useQueryClient();
  const view = useCachedQuery<Overview>({
    queryKey: ['business', 'overview', y, m],
    fetch: ({ signal }) =>
      museum.get<Overview>('/businessData/overview', { query: { year: y, month: m }, signal, silent: true }),
  });
  const [reopen, setReopen] = useState(false);
  const data = view.data;
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['business'] });
    void qc.invalidateQueries({ queryKey: recordKeys.all(businessMonth) });
  };

  const close = () =>
    confirmAction({
      title: tRecords.confirmTitle(B.closeMonth),
      message: B.closeConfirm(y, m),
      confirmLabel: B.closeMonth,
      run: async () => {
        try {
          const id = data?.monthState.id;
          const label = `${B.closeMonth}：${y} 年 ${m} 月`;
          // A month without its row yet is made closed in one step.
          if (id) await writeRecord(businessMonth, 'POST close', { id }, { action: 'transition', id, label });
          else
            await writeRecord(
              businessMonth,
              businessMonth.calls.create!,
              { year: y, month: m, status: 1, remark: '' },
              { action: 'create', label },
            );
          notifications.show({ color: 'green', message: B.closed_(y, m) });
          refresh();
        } catch (err) {
          errorToast(err instanceof Error ? err.message : String(err));
          throw err;
        }
      },
    });

  return (
    <Stack gap="sm">
      <Group align="flex-end" justify="space-between" wrap="wrap">
        <Group align="flex-end">
          <MonthField month={month} onChange={setMonth} />
          {data && <MonthBadge status={data.monthState.status} />}
        </Group>
        {data &&
          (data.monthState.status === 1 ? (
            <Button
              variant="light"
              color="orange"
              leftSection={<IconLockOpen size={16} />}
              onClick={() => setReopen(true)}
            >
              {B.reopen}
            </Button>
          ) : (
            <Button leftSection={<IconLock size={16} />} onClick={close} data-testid="close-month">
              {B.closeMonth}
            </Button>
          ))}
      </Group>
      <OfflineNote view={view} />
      <CachedViewState view={view} />
      {data && !data.depts.length && <Text c="dimmed">{B.noDepts}</Text>}
      {data && data.depts.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table striped withTableBorder data-testid="business-overview">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{B.colDept}</Table.Th>
                <Table.Th>{B.colReported}</Table.Th>
                <Table.Th>{B.colPeople}</Table.Th>
                <Table.Th>{B.colPlans}</Table.Th>
                <Table.Th>{B.colProgress}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.depts.map((d) => (
                <Table.Tr key={d.deptId}>
                  <Table.Td>{d.name}</Table.Td>
                  <Table.Td>
                    <Badge color={d.reported ? 'green' : 'gray'} variant="light">
                      {d.reported ? B.reported : B.notReported}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{B.people(d.personalReported, d.members)}</Table.Td>
                  <Table.Td>{d.plans}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Progress value={d.progress} w={80} aria-label={`${d.name}${B.colProgress}`} />
                      <Text size="sm">{d.progress}%</Text>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ReopenDialog
        opened={reopen}
        onClose={() => setReopen(false)}
        id={data?.monthState.id ?? null}
        year={y}
        month={m}
        onDone={refresh}
      />
    </Stack>
  );
}

function ReopenDialog(props: {
  opened: boolean;
  onClose: () => void;
  id: number | null;
  year: number;
  month: number;
  onDone: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit() {
    if (!reason.trim()) return setError(B.reasonRequired);
    if (!props.id) return;
    setBusy(true);
    try {
      await writeRecord(
        businessMonth,
        'POST reopen',
        { id: props.id, reason: reason.trim() },
        { action: 'transition', id: props.id, label: `${B.reopen}：${props.year} 年 ${props.month} 月` },
      );
      notifications.show({ color: 'green', message: B.reopened(props.year, props.month) });
      setReason('');
      props.onDone();
      props.onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={B.reopen} closeOnClickOutside={false}>
      <Stack>
        <TextInput
          label={B.reopenReason}
          withAsterisk
          description={B.reopenHint}
          value={reason}
          maxLength={100}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setError(null);
          }}
          error={error ?? undefined}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {tCore.common.cancel}
          </Button>
          <Button color="orange" loading={busy} onClick={() => void submit()}>
            {B.reopen}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function deptOptions(nodes: readonly DeptNode[], parent = ''): { value: string; label: string }[] {
  return nodes.flatMap((n) => {
    const path = parent ? `${parent} / ${n.name}` : n.name;
    return [{ value: String(n.id), label: path }, ...deptOptions(n.children, path)];
  });
}

/**
 * 部门月度汇总: one department's month as its head and the office read it — the month's state,
 * the department's own figures, the sums of its people's personal indicators with who has
 * reported, and the plans in force that month with their progress. A head asking for another
 * department is refused by the server, in its words.
 */
export function DeptSummaryPanel() {
  const [month, setMonth] = useState(lastMonth);
  const [deptId, setDeptId] = useState<string | null>(null);
  const [y, m] = parts(month);
  const tree = useQuery({
    queryKey: ['dept-tree'],
    queryFn: ({ signal }) => museum.get<DeptNode[]>('/sysDept/tree', { signal, silent: true }),
    staleTime: 60_000,
  });
  const dicts = useDictionaries(['personal_indicator', 'dept_indicator']);
  const view = useCachedQuery<DeptSummary>({
    queryKey: ['business', 'summary', deptId, y, m],
    fetch: ({ signal }) =>
      museum.get<DeptSummary>('/businessData/summary', {
        query: { deptId: Number(deptId), year: y, month: m },
        signal,
        silent: true,
      }),
    enabled: deptId !== null,
  });
  const s = view.data;
  return (
    <Stack gap="sm">
      <Group align="flex-end" wrap="wrap">
        <Select
          label={B.dept}
          placeholder={B.chooseDept}
          data={deptOptions(tree.data ?? [])}
          value={deptId}
          onChange={setDeptId}
          searchable
          w={260}
          data-testid="business-dept"
        />
        <MonthField month={month} onChange={setMonth} />
        {s && <MonthBadge status={s.monthState.status} />}
      </Group>
      {deptId === null ? (
        <Text c="dimmed">{B.chooseDept}</Text>
      ) : (
        <>
          <OfflineNote view={view} />
          <CachedViewState view={view} />
        </>
      )}
      {s && deptId !== null && (
        <SimpleGrid cols={{ base: 1, md: 2 }} data-testid="business-summary">
          <Card withBorder>
            <Title order={5} mb="xs">
              {B.deptFigures}
            </Title>
            {s.dept ? (
              <Stack gap={4}>
                {s.dept.indicators.map((i) => (
                  <Group key={i.indicator} justify="space-between">
                    <Text size="sm">{dicts.labelOf('dept_indicator', i.indicator)}</Text>
                    <Text size="sm" fw={600}>
                      {i.value}
                    </Text>
                  </Group>
                ))}
                {s.dept.summary && (
                  <Text size="sm" c="dimmed" mt="xs" style={{ whiteSpace: 'pre-wrap' }}>
                    {B.deptSummary}：{s.dept.summary}
                  </Text>
                )}
              </Stack>
            ) : (
              <Text size="sm" c="dimmed">
                {B.noDeptRow}
              </Text>
            )}
          </Card>
          <Card withBorder>
            <Title order={5} mb="xs">
              {B.personalTotals}
            </Title>
            {s.personal.totals.length ? (
              <Stack gap={4}>
                {s.personal.totals.map((i) => (
                  <Group key={i.indicator} justify="space-between">
                    <Text size="sm">{dicts.labelOf('personal_indicator', i.indicator)}</Text>
                    <Text size="sm">{B.totalLine(i.value, i.unit, i.people)}</Text>
                  </Group>
                ))}
              </Stack>
            ) : (
              <Text size="sm" c="dimmed">
                {B.noPersonal}
              </Text>
            )}
            <Text size="sm" fw={600} mt="sm">
              {B.members}
            </Text>
            <Group gap={6} mt={4}>
              {s.personal.members.map((p) => (
                <Badge key={p.userId} color={p.reported ? 'green' : 'gray'} variant="light">
                  {p.name} · {p.reported ? B.reported : B.notReported}
                </Badge>
              ))}
            </Group>
          </Card>
          <Card withBorder style={{ gridColumn: '1 / -1' }}>
            <Title order={5} mb="xs">
              {B.plans}
            </Title>
            {s.plans.length ? (
              <Stack gap="xs">
                {s.plans.map((p) => (
                  <div key={p.id}>
                    <Group justify="space-between" wrap="nowrap">
                      <Text size="sm">
                        {p.title}（{PLAN_PERIODS.find((o) => o.value === p.period)?.label}
                        {p.periodNo ? ` ${p.periodNo}` : ''}）
                      </Text>
                      <Badge variant="light" color={PLAN_STATES.find((o) => o.value === p.status)?.color}>
                        {PLAN_STATES.find((o) => o.value === p.status)?.label}
                      </Badge>
                    </Group>
                    <Group gap="xs" wrap="nowrap">
                      <Progress value={p.progress} style={{ flex: 1 }} aria-label={p.title} />
                      <Text size="xs" c="dimmed">
                        {B.planProgress(p.progress, p.items)}
                      </Text>
                    </Group>
                  </div>
                ))}
              </Stack>
            ) : (
              <Text size="sm" c="dimmed">
                {B.noPlans}
              </Text>
            )}
          </Card>
        </SimpleGrid>
      )}
    </Stack>
  );
}
