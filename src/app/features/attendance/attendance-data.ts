import { useNavigate, useRouterState } from '@tanstack/react-router';
import type {
  DeptSheet,
  MonthQuery,
  MonthSheet,
  PersonQuery,
  PersonSheet,
  YearSheet,
} from '../../../shared/api/attendance';
import { MONTH_RE, currentMonth } from '../../../shared/workflow/attendance';
import { museum } from '../../lib/api';

/** The calls of 考勤 (src/shared/api/attendance.ts); every query lives under ['attendance', …]. */
export const attendanceKeys = {
  month: (q: MonthQuery) => ['attendance', 'month', q] as const,
  departments: (month: string) => ['attendance', 'departments', month] as const,
  person: (q: PersonQuery) => ['attendance', 'person', q] as const,
  personal: (year: number) => ['attendance', 'personal', year] as const,
};

const query = (q: Record<string, string | number | undefined>) => ({ query: q });

export const attendanceCalls = {
  month: (q: MonthQuery, signal?: AbortSignal) =>
    museum.get<MonthSheet>('/attendance/month', { ...query(q), signal, silent: true }),
  departments: (month: string, signal?: AbortSignal) =>
    museum.get<DeptSheet>('/attendance/departments', { ...query({ month }), signal, silent: true }),
  person: (q: PersonQuery, signal?: AbortSignal) =>
    museum.get<PersonSheet>('/attendance/person', { ...query(q), signal, silent: true }),
  personal: (year: number, signal?: AbortSignal) =>
    museum.get<YearSheet>('/attendance/personal', { ...query({ year }), signal, silent: true }),
  /** The workbook as a Blob (the API client answers export URLs with blobs). */
  export: (path: 'month' | 'departments' | 'personal', q: Record<string, string | number | undefined>) =>
    museum.get<Blob>(`/attendance/${path}/export`, query(q)),
};

/**
 * The page's month from `?month=yyyy-MM` (so a reload or a shared link keeps it), this museum
 * month when absent or malformed, and a setter that replaces the search.
 */
export function useMonthParam(): [string, (month: string) => void] {
  const navigate = useNavigate();
  const raw = useRouterState({ select: (s) => (s.location.search as { month?: unknown }).month });
  const month = typeof raw === 'string' && MONTH_RE.test(raw) ? raw : currentMonth();
  const set = (m: string) =>
    void navigate({
      to: '.',
      search: (prev: Record<string, unknown>) => ({ ...prev, month: m }),
      replace: true,
    });
  return [month, set];
}

/** Days as the tables show them: 2, 1.5, 0.38; zero as '0'. */
export const formatDays = (n: number) => String(Math.round(n * 100) / 100);
