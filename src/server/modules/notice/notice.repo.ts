import { sql } from 'kysely';
import type { Db } from '../../db/index';
import { LIST_MAX } from '../../../shared/api/notice';

/** SQL of the notice centre: notices, collaboration items and approval messages, per person. */

const UNREAD = 1;
const READ = 2;
/** Rows per INSERT: far below SQLite's bound-parameter limit for every table here. */
const CHUNK = 100;

/** Calls `insert` with consecutive slices of `rows` (an announcement to everyone is many rows). */
async function inChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

export async function insertNotices(
  db: Db,
  rows: {
    user_id: number;
    notice_content: string;
    source: string;
    created_by: number | null;
    link: string | null;
  }[],
  now: number,
) {
  await inChunks(rows, (chunk) =>
    db
      .insertInto('notice')
      .values(chunk.map((r) => ({ ...r, status: UNREAD, created_at: now })))
      .execute(),
  );
}

/** A person's notices, newest first, at most LIST_MAX. */
export function noticesOf(db: Db, userId: number) {
  return db
    .selectFrom('notice')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(LIST_MAX)
    .execute();
}

/** Marks one of the person's notices read; returns whether it changed (another's id never does). */
export async function readNotice(db: Db, userId: number, id: number): Promise<boolean> {
  const r = await db
    .updateTable('notice')
    .set({ status: READ })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', '=', UNREAD)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Empties the person's notice list. */
export async function clearNotices(db: Db, userId: number): Promise<number> {
  const r = await db.deleteFrom('notice').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function insertCooperation(
  db: Db,
  rows: {
    user_id: number;
    title: string;
    content: string;
    type: number;
    project_id: number | null;
    task_id: number | null;
    created_by: number | null;
  }[],
  now: number,
) {
  await inChunks(rows, (chunk) =>
    db
      .insertInto('cooperation')
      .values(chunk.map((r) => ({ ...r, status: UNREAD, task_deleted: 0, created_at: now })))
      .execute(),
  );
}

/** The person's unread collaboration items (read ones leave the list), newest first. */
export function cooperationOf(db: Db, userId: number) {
  return db
    .selectFrom('cooperation as c')
    .leftJoin('user as u', 'u.id', 'c.created_by')
    .select([
      'c.id',
      'c.title',
      'c.content',
      'c.type',
      'c.project_id',
      'c.task_id',
      'c.task_deleted',
      'c.created_at',
      'u.id as from_id',
      'u.user_name as from_name',
      'u.avatar as from_avatar',
    ])
    .where('c.user_id', '=', userId)
    .where('c.status', '=', UNREAD)
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(LIST_MAX)
    .execute();
}

export async function readCooperation(db: Db, userId: number, id: number | null): Promise<number> {
  let q = db
    .updateTable('cooperation')
    .set({ status: READ })
    .where('user_id', '=', userId)
    .where('status', '=', UNREAD);
  if (id !== null) q = q.where('id', '=', id);
  return Number((await q.executeTakeFirst()).numUpdatedRows);
}

/** Flags the items of deleted tasks; returns the people whose lists changed. */
export async function flagDeletedTasks(db: Db, taskIds: number[]): Promise<number[]> {
  if (taskIds.length === 0) return [];
  const people = await db
    .selectFrom('cooperation')
    .select('user_id')
    .distinct()
    .where('task_id', 'in', taskIds)
    .where('task_deleted', '=', 0)
    .execute();
  await db.updateTable('cooperation').set({ task_deleted: 1 }).where('task_id', 'in', taskIds).execute();
  return people.map((p) => p.user_id);
}

/**
 * Adds (or reopens) the approval message of each person for a request. One row per (person,
 * request, status): a request that comes back to someone reopens their row.
 */
export async function upsertApprovalMessages(
  db: Db,
  rows: {
    user_id: number;
    actvity_id: number;
    title: string;
    type: string;
    status: number;
    start_time: number;
    created_by: number | null;
  }[],
  now: number,
) {
  for (const r of rows) {
    await db
      .insertInto('approval_message')
      .values({ ...r, open: 1, created_at: now })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'type', 'actvity_id', 'status'])
          .doUpdateSet({ open: 1, title: r.title, created_at: now }),
      )
      .execute();
  }
}

/**
 * Closes open messages of a request (for some people, or everyone), of one module's `type` or
 * of any; returns whose lists changed.
 */
export async function closeApprovalMessages(
  db: Db,
  actvityId: number,
  status: number,
  userIds: number[] | null,
  type: string | null,
): Promise<number[]> {
  let find = db
    .selectFrom('approval_message')
    .select('id')
    .select('user_id')
    .where('actvity_id', '=', actvityId)
    .where('status', '=', status)
    .where('open', '=', 1);
  if (userIds) find = find.where('user_id', 'in', userIds.length ? userIds : [-1]);
  if (type !== null) find = find.where('type', '=', type);
  const rows = await find.execute();
  if (rows.length === 0) return [];
  await db
    .updateTable('approval_message')
    .set({ open: 0 })
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  return [...new Set(rows.map((r) => r.user_id))];
}

export function approvalMessagesOf(db: Db, userId: number) {
  return db
    .selectFrom('approval_message as m')
    .leftJoin('user as u', 'u.id', 'm.created_by')
    .select([
      'm.actvity_id',
      'm.title',
      'm.type',
      'm.status',
      'm.start_time',
      'u.id as from_id',
      'u.user_name as from_name',
      'u.avatar as from_avatar',
    ])
    .where('m.user_id', '=', userId)
    .where('m.open', '=', 1)
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(LIST_MAX)
    .execute();
}

/** Every count of the top bar and side menu in one round trip. */
export async function countsOf(db: Db, userId: number) {
  const row = await db
    .selectNoFrom([
      sql<number>`(select count(*) from notice where user_id = ${userId} and status = ${UNREAD})`.as(
        'notices',
      ),
      sql<number>`(select count(*) from cooperation where user_id = ${userId} and status = ${UNREAD})`.as(
        'cooperation',
      ),
      sql<number>`(select count(*) from approval_message where user_id = ${userId} and open = 1 and status = 1)`.as(
        'todo',
      ),
      sql<number>`(select count(*) from approval_message where user_id = ${userId} and open = 1 and status = 10)`.as(
        'copyto',
      ),
    ])
    .executeTakeFirstOrThrow();
  return {
    notices: Number(row.notices),
    cooperation: Number(row.cooperation),
    todo: Number(row.todo),
    copyto: Number(row.copyto),
  };
}

/** Open requests awaiting the person's decision, by approval type. */
export async function todoByType(db: Db, userId: number, types: string[]) {
  const rows = await db
    .selectFrom('approval_message')
    .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .where('open', '=', 1)
    .where('status', '=', 1)
    .where('type', 'in', types)
    .groupBy('type')
    .execute();
  return new Map(rows.map((r) => [r.type, Number(r.n)]));
}
