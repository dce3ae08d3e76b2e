import type { ScheduleItem, ScheduleList } from '../../../shared/api/schedule';
import { overlaps, scheduleSpan } from '../../../shared/api/schedule-span';
import { DAY_MS, parseMuseumDate } from '../../../shared/rules/museum-time';

/**
 * Queued schedule writes drawn over a cached day (the optimistic view of ARCHITECTURE.md §5):
 * pure functions of (server data, queued writes) → what the person sees. A write stays drawn
 * until the refreshed day arrives, so each one is harmless over an answer that already holds it.
 */

/** An item as the card shows it; `pending` while a queued write touches it (待同步, not editable). */
export type ScheduleEntry = ScheduleItem & { pending?: boolean };

/** What each kind of queued schedule write carries. Items carry their stored (normalised) times. */
export interface ScheduleOpMeta {
  'schedule.save': { item: Omit<ScheduleItem, 'id'> };
  'schedule.update': { item: ScheduleItem };
  'schedule.remove': { id: number };
}

export interface QueuedScheduleOp {
  kind: string;
  meta: unknown;
  seq: number;
}

function metaOf<K extends keyof ScheduleOpMeta>(op: QueuedScheduleOp, kind: K) {
  return op.kind === kind ? (op.meta as ScheduleOpMeta[K]) : undefined;
}

const sameItem = (a: Omit<ScheduleItem, 'id'>, b: Omit<ScheduleItem, 'id'>) =>
  a.title === b.title && a.startTime === b.startTime && a.endTime === b.endTime && a.location === b.location;

const startOf = (i: Omit<ScheduleItem, 'id'>) => scheduleSpan(i) ?? { start: 0, end: 0 };

/** The day `date` ('yyyy-MM-dd') with the queued writes drawn over it, by start like the server. */
export function overlayDay(
  data: ScheduleList,
  ops: readonly QueuedScheduleOp[],
  date: string,
): { list: ScheduleEntry[] } {
  if (ops.length === 0) return data;
  const from = parseMuseumDate(date);
  if (from === null) return data;
  const range = { from, to: from + DAY_MS };
  const shows = (i: Omit<ScheduleItem, 'id'>) => overlaps(startOf(i), range);
  let list: ScheduleEntry[] = data.list;
  for (const op of ops) {
    const save = metaOf(op, 'schedule.save');
    // A sent save whose item the refreshed day already holds is not drawn twice.
    if (save && shows(save.item) && !list.some((e) => !e.pending && sameItem(e, save.item)))
      list = [...list, { ...save.item, id: -op.seq, pending: true }];
    const update = metaOf(op, 'schedule.update');
    if (update) {
      list = list.filter((e) => e.id !== update.item.id);
      if (shows(update.item)) list = [...list, { ...update.item, pending: true }];
    }
    const remove = metaOf(op, 'schedule.remove');
    if (remove) list = list.filter((e) => e.id !== remove.id);
  }
  return {
    list: [...list].sort(
      (a, b) => startOf(a).start - startOf(b).start || startOf(a).end - startOf(b).end || a.id - b.id,
    ),
  };
}
