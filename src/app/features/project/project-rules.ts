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
 * A typed comment as the HTML the server stores (comments are rich HTML, sanitized there):
 * escaped, one <p> per non-empty line. The rich-text editor replaces this later.
 */
export function textToCommentHtml(text: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => `<p>${esc(l)}</p>`)
    .join('');
}
