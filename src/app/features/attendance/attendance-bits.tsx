import { Anchor, Button, Table, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { MonthPickerInput } from '@mantine/dates';
import { IconDownload } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import type { Days } from '../../../shared/api/attendance';
import { OfflineError, errorToast } from '../../lib/api';
import { tAttendance } from '../../lib/i18n/attendance';
import { attendanceCalls, formatDays } from './attendance-data';

const A = tAttendance;

/** The month picker of every 考勤 page ('yyyy-MM'). */
export function MonthField({ month, onChange }: { month: string; onChange: (month: string) => void }) {
  return (
    <MonthPickerInput
      label={A.month}
      value={`${month}-01`}
      valueFormat={A.monthFormat}
      onChange={(v) => v && onChange(v.slice(0, 7))}
      w={160}
      data-testid="attendance-month"
    />
  );
}

/** Downloads a workbook the server built and saves it under `fileName`. */
export function ExportButton({
  path,
  query,
  fileName,
  disabled,
}: {
  path: 'month' | 'departments' | 'personal';
  query: Record<string, string | number | undefined>;
  fileName: string;
  disabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    try {
      const blob = await attendanceCalls.export(path, query);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = fileName;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      // The client toasts server refusals, but not a network failure while the device is offline.
      if (err instanceof OfflineError) errorToast(err.message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button
      variant="light"
      leftSection={<IconDownload size={16} />}
      onClick={() => void run()}
      loading={busy}
      disabled={disabled}
      data-testid="attendance-export"
    >
      {A.export}
    </Button>
  );
}

/** The day cells shared by every table: 请假, 出差, 加班, 审批单数. */
export function DayCells({ d }: { d: Days }) {
  return (
    <>
      <Table.Td ta="right">{formatDays(d.leave)}</Table.Td>
      <Table.Td ta="right">{formatDays(d.travel)}</Table.Td>
      <Table.Td ta="right">{formatDays(d.overtime)}</Table.Td>
      <Table.Td ta="right">{d.count}</Table.Td>
    </>
  );
}
export function DayHeads() {
  return (
    <>
      <Table.Th ta="right">{A.cols.leave}</Table.Th>
      <Table.Th ta="right">{A.cols.travel}</Table.Th>
      <Table.Th ta="right">{A.cols.overtime}</Table.Th>
      <Table.Th ta="right">{A.cols.count}</Table.Th>
    </>
  );
}

/** A table that scrolls sideways on a phone rather than squeezing its columns. */
export function SheetTable({
  head,
  children,
  testId,
}: {
  head: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped highlightOnHover verticalSpacing="xs" data-testid={testId}>
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The counting rule, under every table, so a number is never a mystery. */
export function RuleNote() {
  return (
    <Text size="xs" c="dimmed">
      {A.rule}
    </Text>
  );
}

/**
 * A real link (middle-click, long-press open it in a new tab) that navigates inside the app on
 * a plain click. The router's search types are not registered, so the href is built here.
 */
export function PageLink({
  to,
  search,
  children,
  label,
}: {
  to: string;
  search: Record<string, string | number>;
  children: ReactNode;
  label?: string;
}) {
  const navigate = useNavigate();
  const href = `${to}?${new URLSearchParams(Object.entries(search).map(([k, v]) => [k, String(v)])).toString()}`;
  return (
    <Anchor
      href={href}
      size="sm"
      aria-label={label}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        void navigate({ to, search });
      }}
    >
      {children}
    </Anchor>
  );
}
