import type { z } from 'zod';
import type { Db } from '../../db/index';
import type { Selectable } from 'kysely';
import type { ScheduleTable } from '../../db/schema';
import { notFound } from '../../errors';
import {
  queryRange,
  scheduleSpan,
  type ScheduleItem,
  type ScheduleList,
  type ScheduleListQuery,
  type ScheduleSave,
  type ScheduleUpdate,
} from '../../../shared/api/schedule';
import { formatMuseumMinute } from '../../../shared/rules/museum-time';
import * as repo from './schedule.repo';

type Out<T extends z.ZodType> = z.output<T>;

/** Said for a missing item and for someone else's alike, so an id never reveals that it exists. */
const GONE = '该日程不存在或已被删除';

function toItem(r: Selectable<ScheduleTable>): ScheduleItem {
  return {
    id: r.id,
    title: r.title,
    startTime: formatMuseumMinute(r.start_at),
    endTime: formatMuseumMinute(r.end_at),
    allDay: r.all_day === 1,
    location: r.location,
    remark: r.remark,
  };
}

/** The stored columns of a valid body (the schema has checked the times and their order). */
function columns(b: Out<typeof ScheduleSave>) {
  const span = scheduleSpan(b)!;
  return {
    title: b.title,
    start_at: span.start,
    end_at: span.end,
    all_day: b.allDay ? 1 : 0,
    location: b.location,
    remark: b.remark,
  };
}

/** A person's own schedule (日程). Every read and write is scoped to the caller in the repo. */
export function createScheduleService(db: Db, now: () => number = Date.now) {
  return {
    async list(userId: number, q: Out<typeof ScheduleListQuery>): Promise<ScheduleList> {
      const { from, to } = queryRange(q);
      return { list: (await repo.itemsBetween(db, userId, from, to)).map(toItem) };
    },

    async detail(userId: number, id: number): Promise<ScheduleItem> {
      const row = await repo.findItem(db, userId, id);
      if (!row) throw notFound(GONE);
      return toItem(row);
    },

    async save(userId: number, b: Out<typeof ScheduleSave>): Promise<{ id: number }> {
      const t = now();
      return {
        id: await repo.insertItem(db, { ...columns(b), user_id: userId, created_at: t, updated_at: t }),
      };
    },

    async update(userId: number, b: Out<typeof ScheduleUpdate>) {
      const changed = await repo.updateItem(db, userId, b.id, { ...columns(b), updated_at: now() });
      if (changed === 0) throw notFound(GONE);
    },

    async remove(userId: number, id: number) {
      if ((await repo.deleteItem(db, userId, id)) === 0) throw notFound(GONE);
    },
  };
}
export type ScheduleService = ReturnType<typeof createScheduleService>;
