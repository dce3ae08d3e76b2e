import { useCallback } from 'react';
import type { ScheduleItem, ScheduleList, ScheduleSave } from '../../../shared/api/schedule';
import { scheduleSpan } from '../../../shared/api/schedule-span';
import { formatMuseumMinute } from '../../../shared/rules/museum-time';
import { museum } from '../../lib/api';
import { useCachedQuery } from '../../lib/cached-query';
import { tSchedule } from '../../lib/i18n/schedule';
import { submitWrite } from '../../lib/offline';
import type { OutboxOp } from '../../lib/outbox';
import { overlayDay, type ScheduleOpMeta } from './schedule-overlay';

const BASE = '/applet/bsSchedule';

/** Every schedule view lives under `['schedule', …]`; a write refreshes them all. */
export const scheduleKeys = {
  all: ['schedule'] as const,
  day: (date: string) => ['schedule', 'day', date] as const,
};

/** One day of the person's schedule, kept on the device, with queued writes drawn over it. */
export function useScheduleDay(date: string) {
  const overlay = useCallback((data: ScheduleList, ops: OutboxOp[]) => overlayDay(data, ops, date), [date]);
  return useCachedQuery<ScheduleList>({
    queryKey: scheduleKeys.day(date),
    fetch: ({ signal }) =>
      museum.get<ScheduleList>(`${BASE}/list`, { query: { date }, signal, silent: true }),
    overlay,
  });
}

/** The item as the server will store it: an all-day item covers its whole days. */
function stored(body: ScheduleSave) {
  const span = scheduleSpan({ ...body, allDay: body.allDay ?? false })!;
  return {
    title: body.title.trim(),
    startTime: formatMuseumMinute(span.start),
    endTime: formatMuseumMinute(span.end),
    allDay: body.allDay ?? false,
    location: (body.location ?? '').trim(),
    remark: (body.remark ?? '').trim(),
  };
}

function op<K extends keyof ScheduleOpMeta>(
  kind: K,
  path: string,
  body: unknown,
  label: string,
  meta: ScheduleOpMeta[K],
) {
  return submitWrite({
    client: 'museum',
    path: `${BASE}/${path}`,
    body,
    label,
    kind,
    meta,
    scope: [[...scheduleKeys.all]],
  });
}

/**
 * The schedule's writes go through the outbox (lib/offline): online they are sent at once;
 * offline they wait with their idempotency key, show at once through the overlay, and replay
 * when the network returns. Deleting uses the POST form of delete, which carries the key.
 */
export const scheduleWrites = {
  save: (body: ScheduleSave) =>
    op('schedule.save', 'save', body, tSchedule.labels.save(body.title.trim()), { item: stored(body) }),
  update: (id: number, body: ScheduleSave) =>
    op('schedule.update', 'update', { ...body, id }, tSchedule.labels.update(body.title.trim()), {
      item: { ...stored(body), id },
    }),
  remove: (item: ScheduleItem) =>
    op('schedule.remove', 'delete', { id: item.id }, tSchedule.labels.remove(item.title), { id: item.id }),
};
