import type { RecordRow } from '../../../shared/records/api';
import { PUBLISHED } from '../../../shared/records/content/common';
import { exhibitionPhase } from '../../../shared/records/content/exhibition';
import type { StatusOption } from '../../../shared/records/define';
import { formatMuseumMinute, museumDate } from '../../../shared/rules/museum-time';

/**
 * The mini-program pages' own pure rules (README "Mini-program pages"): the carousel's display
 * state, an exhibition's phase as a badge, a relation list's edits before spSave, a hall's guide
 * state on the floor plan. routes/applet.tsx and this folder's components use them.
 */

/** 展示中 / 未到 / 已过 (and 未发布 for a draft or a row taken down) as a status badge's value. */
export const CAROUSEL_STATES: readonly StatusOption[] = [
  { value: 1, label: '展示中', color: 'green' },
  { value: 2, label: '未到', color: 'blue' },
  { value: 3, label: '已过', color: 'gray' },
  { value: 0, label: '未发布', color: 'gray' },
];

/**
 * Where a carousel row stands at `now` for visitors: 展示中 (published, inside its window), 未到
 * (its window has not begun), 已过 (it has ended), or 未发布. The window comes before the
 * status for an ended row: an editor reads 已过 on a row whose time is up, whatever its state.
 */
export function carouselState(row: Record<string, unknown>, now: number): 0 | 1 | 2 | 3 {
  const start = row.startTime == null ? null : Number(row.startTime);
  const end = row.endTime == null ? null : Number(row.endTime);
  if (end !== null && now >= end) return 3;
  if (Number(row.status) !== PUBLISHED) return 0;
  if (start !== null && now < start) return 2;
  return 1;
}

/** A carousel row's display window in one cell: 2026-12-01 09:00 至 2027-01-01 00:00, 立即 / 下架为止 for open ends. */
export function windowText(row: Record<string, unknown>): string {
  const at = (v: unknown) => (v == null ? null : formatMuseumMinute(Number(v)));
  return `${at(row.startTime) ?? '发布即展示'} 至 ${at(row.endTime) ?? '下架为止'}`;
}

export const PHASES: readonly StatusOption[] = [
  { value: 1, label: '未开幕', color: 'blue' },
  { value: 2, label: '展出中', color: 'green' },
  { value: 3, label: '已闭幕', color: 'gray' },
];

/** An exhibition's phase on the museum day of `now`, as a badge value. */
export function phaseValue(row: Record<string, unknown>, now: number): number {
  const label = exhibitionPhase(row, museumDate(now));
  return PHASES.find((p) => p.label === label)!.value;
}

/** One related item of an exhibition, as spList answers it and spSave takes it. */
export interface RelationItem {
  subTable: string;
  subId: number;
  note: string;
  title: string;
  status: number | null;
}

/** The list with `item` added at the end, or unchanged when it is already there. */
export function addItem(list: readonly RelationItem[], item: RelationItem): RelationItem[] {
  return list.some((x) => x.subTable === item.subTable && x.subId === item.subId)
    ? [...list]
    : [...list, item];
}

/** The list with the item at `i` moved one place (`-1` up, `1` down); unchanged at the ends. */
export function moveItem<T>(list: readonly T[], i: number, by: -1 | 1): T[] {
  const j = i + by;
  if (i < 0 || i >= list.length || j < 0 || j >= list.length) return [...list];
  const out = [...list];
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** spSave's body: the items in their order. */
export function spSaveBody(id: number, list: readonly RelationItem[]) {
  return { id, items: list.map(({ subTable, subId, note }) => ({ subTable, subId, note })) };
}

/**
 * A hall's guide state on the floor plan: 无导览 (no guide showroom on it), 草稿 (a showroom not
 * published), 已发布, with the showroom (the first by sort) it links to.
 */
export function hallGuide(
  hallId: number,
  showrooms: readonly RecordRow[],
): { state: 'none' | 'draft' | 'published'; showroom: RecordRow | null } {
  const mine = showrooms.filter((s) => Number(s.hallId) === hallId);
  const published = mine.find((s) => Number(s.status) === PUBLISHED);
  if (published) return { state: 'published', showroom: published };
  if (mine.length) return { state: 'draft', showroom: mine[0]! };
  return { state: 'none', showroom: null };
}
