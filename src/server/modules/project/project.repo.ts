import { containsPattern, forUpdate, likeIgnoringCase } from '../../db/dialect';

import type { Db } from '../../db/index';

/** SQL of projects, collaborators, boards, tasks, history, comments and task files (migration 0013). */

// ——— projects ———

export type ProjectRecord = NonNullable<Awaited<ReturnType<typeof projectById>>>;

export function projectById(db: Db, id: number) {
  return db
    .selectFrom('project as p')
    .innerJoin('user as o', 'o.id', 'p.owner_id')
    .selectAll('p')
    .select('o.user_name as owner_name')
    .where('p.id', '=', id)
    .executeTakeFirst();
}

/**
 * Locks a project's row for the rest of the transaction. Every change inside a project (its
 * boards' and tasks' dense sort orders, a task's version check) reads and then writes, so its
 * transactions take this first and run one after another: PostgreSQL's FOR UPDATE, where
 * SQLite's one writer does the same for free.
 */
export async function lockProject(db: Db, id: number) {
  await forUpdate(db, db.selectFrom('project').select('id').where('id', '=', id)).execute();
}

export async function insertProject(
  db: Db,
  row: {
    name: string;
    type: string;
    start_date: string | null;
    end_date: string | null;
    description: string;
    owner_id: number;
    created_by: number;
  },
  now: number,
) {
  const r = await db
    .insertInto('project')
    .values({ ...row, archived: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updateProject(
  db: Db,
  id: number,
  set: Partial<{
    name: string;
    type: string;
    start_date: string | null;
    end_date: string | null;
    description: string;
    owner_id: number;
    archived: number;
  }>,
  now: number,
) {
  await db
    .updateTable('project')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Projects seen by `userId` (every project when `all`), with their task counts. */
export function listProjects(
  db: Db,
  q: { userId: number; all: boolean; type?: string; archived: number; keyword: string; id?: number },
) {
  let query = db
    .selectFrom('project as p')
    .innerJoin('user as o', 'o.id', 'p.owner_id')
    .selectAll('p')
    .select((eb) => [
      'o.user_name as owner_name',
      eb
        .selectFrom('project_task as t')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('t.project_id', '=', 'p.id')
        .where('t.parent_task_id', 'is', null)
        .as('task_count'),
      eb
        .selectFrom('project_task as t')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('t.project_id', '=', 'p.id')
        .where('t.parent_task_id', 'is', null)
        .where('t.collect_status', '=', 2)
        .as('done_count'),
      eb
        .selectFrom('project_user as m')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('m.project_id', '=', 'p.id')
        .as('member_count'),
    ])
    .where('p.archived', '=', q.archived);
  if (!q.all)
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('project_user as u')
          .select('u.user_id')
          .whereRef('u.project_id', '=', 'p.id')
          .where('u.user_id', '=', q.userId),
      ),
    );
  if (q.type) query = query.where('p.type', '=', q.type);
  if (q.id) query = query.where('p.id', '=', q.id);
  if (q.keyword) query = query.where('p.name', likeIgnoringCase(db), containsPattern(q.keyword));
  return query.orderBy('p.updated_at', 'desc').orderBy('p.id', 'desc').execute();
}

// ——— collaborators ———

export async function isMember(db: Db, projectId: number, userId: number) {
  const r = await db
    .selectFrom('project_user')
    .select('user_id')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return r !== undefined;
}

export function membersOf(db: Db, projectId: number) {
  return db
    .selectFrom('project_user as pu')
    .innerJoin('user as u', 'u.id', 'pu.user_id')
    .select(['u.id', 'u.user_name', 'u.avatar', 'u.enabled'])
    .where('pu.project_id', '=', projectId)
    .orderBy('pu.created_at')
    .orderBy('u.id')
    .execute();
}

/** Everyone who shares a project with `userId` (not themself), the most shared first. */
export function coworkersOf(db: Db, userId: number) {
  return db
    .selectFrom('project_user as mine')
    .innerJoin('project_user as pu', 'pu.project_id', 'mine.project_id')
    .innerJoin('user as u', 'u.id', 'pu.user_id')
    .select(['u.id', 'u.user_name', 'u.avatar'])
    .select((eb) => eb.fn.countAll<number>().as('shared'))
    .where('mine.user_id', '=', userId)
    .where('pu.user_id', '!=', userId)
    .where('u.enabled', '=', 1)
    .groupBy(['u.id', 'u.user_name', 'u.avatar'])
    .orderBy('shared', 'desc')
    .orderBy('u.id')
    .execute();
}

export function searchUsers(db: Db, name: string, limit: number) {
  let q = db.selectFrom('user').select(['id', 'user_name', 'avatar']).where('enabled', '=', 1);
  if (name) q = q.where('user_name', likeIgnoringCase(db), containsPattern(name));
  return q.orderBy('id').limit(limit).execute();
}

export async function addMembers(db: Db, projectId: number, userIds: number[], by: number, now: number) {
  if (!userIds.length) return;
  await db
    .insertInto('project_user')
    .values(userIds.map((id) => ({ project_id: projectId, user_id: id, added_by: by, created_at: now })))
    .onConflict((oc) => oc.columns(['project_id', 'user_id']).doNothing())
    .execute();
}

export async function removeMember(db: Db, projectId: number, userId: number) {
  const r = await db
    .deleteFrom('project_user')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

// ——— boards ———

export function blocksOf(db: Db, projectId: number) {
  return db
    .selectFrom('project_block')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

export function blockById(db: Db, id: number) {
  return db.selectFrom('project_block').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertBlock(db: Db, projectId: number, name: string, sort: number, now: number) {
  const r = await db
    .insertInto('project_block')
    .values({ project_id: projectId, name, sort, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function renameBlock(db: Db, id: number, name: string) {
  await db.updateTable('project_block').set({ name }).where('id', '=', id).execute();
}

export async function setBlockSort(db: Db, id: number, sort: number) {
  await db.updateTable('project_block').set({ sort }).where('id', '=', id).execute();
}

export async function deleteBlock(db: Db, id: number) {
  await db.deleteFrom('project_block').where('id', '=', id).execute();
}

// ——— tasks and subtasks ———

export type TaskRecord = NonNullable<Awaited<ReturnType<typeof taskById>>>;

export function taskById(db: Db, id: number) {
  return db
    .selectFrom('project_task as t')
    .leftJoin('user as a', 'a.id', 't.assigner')
    .leftJoin('user as w', 'w.id', 't.updated_by')
    .selectAll('t')
    .select(['a.user_name as assigner_name', 'a.avatar as assigner_avatar', 'w.user_name as updater_name'])
    .where('t.id', '=', id)
    .executeTakeFirst();
}

const cardColumns = [
  't.id',
  't.name',
  't.block_id',
  't.parent_task_id',
  't.sort',
  't.deadline',
  't.priority',
  't.collect_status',
  't.assigner',
  't.version',
  'a.user_name as assigner_name',
  'a.avatar as assigner_avatar',
] as const;

/** The tasks of a project's boards, with their subtask counts, in board order. */
export function tasksOfProject(db: Db, projectId: number) {
  return db
    .selectFrom('project_task as t')
    .leftJoin('user as a', 'a.id', 't.assigner')
    .select(cardColumns)
    .select((eb) => [
      eb
        .selectFrom('project_task as k')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('k.parent_task_id', '=', 't.id')
        .as('kid_count'),
      eb
        .selectFrom('project_task as k')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('k.parent_task_id', '=', 't.id')
        .where('k.collect_status', '=', 2)
        .as('kid_done'),
    ])
    .where('t.project_id', '=', projectId)
    .where('t.parent_task_id', 'is', null)
    .orderBy('t.sort')
    .orderBy('t.id')
    .execute();
}

export function kidsOf(db: Db, taskId: number) {
  return db
    .selectFrom('project_task as t')
    .leftJoin('user as a', 'a.id', 't.assigner')
    .select(cardColumns)
    .where('t.parent_task_id', '=', taskId)
    .orderBy('t.sort')
    .orderBy('t.id')
    .execute();
}

/** Ids of a board's tasks (or a task's subtasks) in their shown order. */
export async function siblingIds(db: Db, by: { blockId: number } | { parentTaskId: number }) {
  let q = db.selectFrom('project_task').select('id');
  q =
    'blockId' in by
      ? q.where('block_id', '=', by.blockId).where('parent_task_id', 'is', null)
      : q.where('parent_task_id', '=', by.parentTaskId);
  const rows = await q.orderBy('sort').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** Gives `ids` the sorts 0..n-1 in order (a board or a task's subtasks after a change). */
export async function renumber(db: Db, ids: number[], blockId?: number) {
  for (const [i, id] of ids.entries()) {
    await db
      .updateTable('project_task')
      .set(blockId === undefined ? { sort: i } : { sort: i, block_id: blockId })
      .where('id', '=', id)
      .execute();
  }
}

export async function insertTask(
  db: Db,
  row: {
    project_id: number;
    block_id: number | null;
    parent_task_id: number | null;
    name: string;
    deadline: string | null;
    priority: number;
    assigner: number | null;
    sort: number;
    created_by: number;
  },
  now: number,
) {
  const r = await db
    .insertInto('project_task')
    .values({ ...row, updated_by: row.created_by, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** Changes a task's fields and bumps its version. */
export async function updateTask(
  db: Db,
  id: number,
  set: Partial<{
    name: string;
    deadline: string | null;
    priority: number;
    assigner: number | null;
    description: string;
    collect_status: number;
  }>,
  by: number,
  now: number,
) {
  await db
    .updateTable('project_task')
    .set((eb) => ({ ...set, updated_by: by, updated_at: now, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export async function touchTask(db: Db, id: number, by: number, now: number) {
  await updateTask(db, id, {}, by, now);
}

/** Deletes a task and its subtasks (comments and file rows go by cascade); answers the ids gone. */
export async function deleteTaskTree(db: Db, taskId: number) {
  const kids = await db
    .selectFrom('project_task')
    .select('id')
    .where('parent_task_id', '=', taskId)
    .execute();
  const ids = [taskId, ...kids.map((k) => k.id)];
  await db.deleteFrom('project_task').where('parent_task_id', '=', taskId).execute();
  await db.deleteFrom('project_task').where('id', '=', taskId).execute();
  return ids;
}

export async function deleteTask(db: Db, id: number) {
  await db.deleteFrom('project_task').where('id', '=', id).execute();
}

/** Tasks (not subtasks) of the projects, for progress. */
export function progressRows(db: Db, projectIds: number[]) {
  if (!projectIds.length) return Promise.resolve([]);
  return db
    .selectFrom('project_task as t')
    .leftJoin('user as a', 'a.id', 't.assigner')
    .select(['t.project_id', 't.collect_status', 't.deadline', 't.assigner', 'a.user_name as assigner_name'])
    .where('t.project_id', 'in', projectIds)
    .where('t.parent_task_id', 'is', null)
    .execute();
}

// ——— history ———

export async function insertHistory(
  db: Db,
  rows: { project_id: number; task_id: number | null; user_id: number; action: string }[],
  now: number,
) {
  if (!rows.length) return;
  await db
    .insertInto('project_history')
    .values(rows.map((r) => ({ ...r, created_at: now })))
    .execute();
}

export function historyOf(db: Db, taskId: number) {
  return db
    .selectFrom('project_history as h')
    .leftJoin('user as u', 'u.id', 'h.user_id')
    .select(['h.id', 'h.action', 'h.created_at', 'u.user_name'])
    .where('h.task_id', '=', taskId)
    .orderBy('h.id', 'desc')
    .execute();
}

// ——— comments ———

export async function insertComment(db: Db, taskId: number, userId: number, content: string, now: number) {
  const r = await db
    .insertInto('project_comment')
    .values({ task_id: taskId, user_id: userId, content, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export function commentsOf(db: Db, taskId: number) {
  return db
    .selectFrom('project_comment as c')
    .leftJoin('user as u', 'u.id', 'c.user_id')
    .select(['c.id', 'c.user_id', 'c.content', 'c.created_at', 'u.user_name', 'u.avatar'])
    .where('c.task_id', '=', taskId)
    .orderBy('c.id')
    .execute();
}

export function commentById(db: Db, id: number) {
  return db.selectFrom('project_comment').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteComment(db: Db, id: number) {
  await db.deleteFrom('project_comment').where('id', '=', id).execute();
}

// ——— task files ———

export function filesOf(db: Db, taskId: number) {
  return db
    .selectFrom('project_task_file as f')
    .innerJoin('attachment as a', 'a.id', 'f.attachment_id')
    .leftJoin('user as u', 'u.id', 'f.added_by')
    .selectAll('a')
    .select(['f.source', 'f.drive_file_id', 'f.task_id', 'u.user_name as added_by_name'])
    .where('f.task_id', '=', taskId)
    .orderBy('a.id')
    .execute();
}

export function fileOfTask(db: Db, attachmentId: number) {
  return db
    .selectFrom('project_task_file as f')
    .innerJoin('project_task as t', 't.id', 'f.task_id')
    .select(['f.attachment_id', 'f.task_id', 'f.source', 't.project_id'])
    .where('f.attachment_id', '=', attachmentId)
    .executeTakeFirst();
}

export async function insertFile(
  db: Db,
  row: {
    attachment_id: number;
    task_id: number;
    source: string;
    drive_file_id: number | null;
    added_by: number;
  },
  now: number,
) {
  await db
    .insertInto('project_task_file')
    .values({ ...row, created_at: now })
    .execute();
}

/** The files of every task of the projects (the picker's project documents). */
export function filesOfProjects(db: Db, projectIds: number[], name: string) {
  if (!projectIds.length) return Promise.resolve([]);
  let q = db
    .selectFrom('project_task_file as f')
    .innerJoin('project_task as t', 't.id', 'f.task_id')
    .innerJoin('attachment as a', 'a.id', 'f.attachment_id')
    .select(['a.id', 'a.name', 't.project_id'])
    .where('t.project_id', 'in', projectIds);
  if (name) q = q.where('a.name', likeIgnoringCase(db), containsPattern(name));
  return q.orderBy('a.id').execute();
}
