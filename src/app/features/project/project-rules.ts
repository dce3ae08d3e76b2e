import { TASK_DONE } from '../../../shared/api/project';

/** Pure helpers of the project screens (unit-tested in project-rules.test.ts). */

/**
 * How a card shows its deadline. Overdue follows the server's rule (contract header): open and
 * due before today in museum time; `today` is the museum date 'yyyy-MM-dd', so string order is
 * date order.
 */
export function deadlineState(
  deadline: string | null,
  collectStatus: number,
  today: string,
): 'none' | 'done' | 'overdue' | 'today' | 'later' {
  if (!deadline) return 'none';
  if (collectStatus === TASK_DONE) return 'done';
  if (deadline < today) return 'overdue';
  return deadline === today ? 'today' : 'later';
}

/** Done tasks as a whole percentage (0 for an empty project, never above 100). */
export function progressPercent(done: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.round((done / total) * 100));
}

/** A positive integer id from a search parameter (the router may hand a number or a string), else null. */
export function idParam(raw: unknown): number | null {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** 'yyyy-MM-dd ~ yyyy-MM-dd', one side alone, or the fallback when neither is set. */
export function dateRange(start: string | null, end: string | null, none: string): string {
  if (start && end) return `${start} ~ ${end}`;
  if (start) return `${start} 起`;
  if (end) return `至 ${end}`;
  return none;
}

/** Where a card would land when moved to another board: appended at the end. */
export function moveTargets<B extends { blockId: number }>(blocks: B[], current: number): B[] {
  return blocks.filter((b) => b.blockId !== current);
}

/**
 * Whether the rich-text editor's HTML says nothing: no text once tags and spaces (&nbsp; too)
 * are gone, and no image. Such a comment is refused with 请输入评论内容 before it is sent
 * (the server refuses it too, after sanitizing).
 */
export function isBlankHtml(html: string): boolean {
  if (/<img\b/i.test(html)) return false;
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;|\u00a0/gi, '')
    .trim();
  return text === '';
}

export type PlanStatus = 'upcoming' | 'running' | 'ended' | 'undated';

/**
 * Where an exhibition stands on `today` (museum date 'yyyy-MM-dd'): 筹备中 before it opens,
 * 展出中 from its start to its end (inclusive), 已结束 after. Without a start date it is 未定档期;
 * without an end date it runs on once opened.
 */
export function planStatus(start: string | null, end: string | null, today: string): PlanStatus {
  if (!start) return 'undated';
  if (today < start) return 'upcoming';
  if (end && today > end) return 'ended';
  return 'running';
}

/**
 * The exhibition plan's months: projects grouped by the month they open ('yyyy-MM'), months
 * in date order and, within one, by start then end date then name; those without a start date
 * come last under the key ''.
 */
export function planMonths<P extends { name: string; startDate: string | null; endDate: string | null }>(
  list: P[],
): { month: string; projects: P[] }[] {
  const sorted = [...list].sort(
    (a, b) =>
      (a.startDate ?? '9999').localeCompare(b.startDate ?? '9999') ||
      (a.endDate ?? '9999').localeCompare(b.endDate ?? '9999') ||
      a.name.localeCompare(b.name, 'zh-CN'),
  );
  const out: { month: string; projects: P[] }[] = [];
  for (const p of sorted) {
    const month = p.startDate ? p.startDate.slice(0, 7) : '';
    const last = out[out.length - 1];
    if (last && last.month === month) last.projects.push(p);
    else out.push({ month, projects: [p] });
  }
  return out;
}
