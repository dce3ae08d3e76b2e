import { describe, expect, it } from 'vitest';
import type { ScheduleItem } from '../../src/shared/api/schedule';
import { overlayDay, type QueuedScheduleOp } from '../../src/app/features/schedule/schedule-overlay';

/** Queued schedule writes drawn over a cached day: what an offline change looks like before it syncs. */

const item = (
  id: number,
  title: string,
  startTime: string,
  endTime: string,
  allDay = false,
): ScheduleItem => ({
  id,
  title,
  startTime,
  endTime,
  allDay,
  location: '',
  remark: '',
});
let seq = 1;
const op = (kind: string, meta: unknown): QueuedScheduleOp => ({ kind, meta, seq: seq++ });
const withoutId = ({ id: _id, ...rest }: ScheduleItem) => rest;
const view = (d: { list: (ScheduleItem & { pending?: boolean })[] }) =>
  d.list.map((e) => `${e.startTime.slice(11)} ${e.title}${e.pending ? ' 待同步' : ''}`);

const day = '2026-03-05';
const meeting = item(1, '例会', '2026-03-05 09:00', '2026-03-05 10:00');
const tour = item(2, '导览', '2026-03-05 14:00', '2026-03-05 15:00');
const data = { list: [meeting, tour] };

describe('overlayDay', () => {
  it('shows a queued new item of the day in start order, marked pending, and ignores other days', () => {
    const early = withoutId(item(0, '早会', '2026-03-05 08:00', '2026-03-05 08:30'));
    const tomorrow = withoutId(item(0, '明天', '2026-03-06 08:00', '2026-03-06 08:30'));
    const out = overlayDay(
      data,
      [op('schedule.save', { item: early }), op('schedule.save', { item: tomorrow })],
      day,
    );
    expect(view(out)).toEqual(['08:00 早会 待同步', '09:00 例会', '14:00 导览']);
    expect(out.list[0]!.id).toBeLessThan(0);
  });

  it('does not draw a sent item twice once the refreshed day holds it', () => {
    const saved = withoutId(item(0, '早会', '2026-03-05 08:00', '2026-03-05 08:30'));
    const refreshed = { list: [{ ...saved, id: 9 }, meeting, tour] };
    expect(view(overlayDay(refreshed, [op('schedule.save', { item: saved })], day))).toEqual([
      '08:00 早会',
      '09:00 例会',
      '14:00 导览',
    ]);
  });

  it('moves an edited item, drops one edited onto another day, and removes a deleted one', () => {
    const later = {
      ...meeting,
      title: '例会（改）',
      startTime: '2026-03-05 16:00',
      endTime: '2026-03-05 17:00',
    };
    expect(view(overlayDay(data, [op('schedule.update', { item: later })], day))).toEqual([
      '14:00 导览',
      '16:00 例会（改） 待同步',
    ]);
    const away = { ...tour, startTime: '2026-03-07 14:00', endTime: '2026-03-07 15:00' };
    expect(view(overlayDay(data, [op('schedule.update', { item: away })], day))).toEqual(['09:00 例会']);
    expect(view(overlayDay(data, [op('schedule.remove', { id: 1 })], day))).toEqual(['14:00 导览']);
  });

  it('leaves the day alone without queued writes, and ignores writes of other features', () => {
    expect(overlayDay(data, [], day)).toBe(data);
    expect(view(overlayDay(data, [op('drive.rename', { userFileId: 1, fileName: 'x' })], day))).toEqual([
      '09:00 例会',
      '14:00 导览',
    ]);
  });
});
