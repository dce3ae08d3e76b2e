import type { ExpressionBuilder } from 'kysely';
import { containsPattern, likeIgnoringCase } from '../../db/dialect';
import type { Db } from '../../db/index';
import type { DB } from '../../db/schema';

/** SQL of announcements and their audiences. */

export type TargetKind = 'dept' | 'user';

export async function insertAnnouncement(
  db: Db,
  row: { title: string; content: string; audience: string; created_by: number },
  now: number,
) {
  const r = await db
    .insertInto('announcement')
    .values({ ...row, status: 0, created_at: now, updated_at: now, published_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updateAnnouncement(
  db: Db,
  id: number,
  row: { title: string; content: string; audience: string },
  now: number,
) {
  await db
    .updateTable('announcement')
    .set({ ...row, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Moves `id` from status `from` to `to`; answers false when it was not in `from` (a race). */
export async function setStatus(
  db: Db,
  id: number,
  from: number,
  to: number,
  now: number,
  publishedAt?: number | null,
) {
  const r = await db
    .updateTable('announcement')
    .set({ status: to, updated_at: now, ...(publishedAt !== undefined ? { published_at: publishedAt } : {}) })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function deleteAnnouncement(db: Db, id: number) {
  await db.deleteFrom('announcement').where('id', '=', id).execute();
}

export function findAnnouncement(db: Db, id: number) {
  return db
    .selectFrom('announcement')
    .leftJoin('user', 'user.id', 'announcement.created_by')
    .selectAll('announcement')
    .select('user.user_name as author_name')
    .where('announcement.id', '=', id)
    .executeTakeFirst();
}

export async function setTargets(db: Db, id: number, kind: TargetKind | null, ids: number[]) {
  await db.deleteFrom('announcement_target').where('announcement_id', '=', id).execute();
  if (!kind || !ids.length) return;
  for (let i = 0; i < ids.length; i += 200) {
    await db
      .insertInto('announcement_target')
      .values(ids.slice(i, i + 200).map((target_id) => ({ announcement_id: id, kind, target_id })))
      .execute();
  }
}

/** The named targets of announcements, for lists and details (departments or people deleted since drop out). */
export async function targetsOf(db: Db, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('announcement_target as t')
    .leftJoin('department as d', (j) => j.onRef('d.id', '=', 't.target_id').on('t.kind', '=', 'dept'))
    .leftJoin('user as u', (j) => j.onRef('u.id', '=', 't.target_id').on('t.kind', '=', 'user'))
    .select(['t.announcement_id', 't.kind', 't.target_id as id', 'd.name as dept_name', 'u.user_name'])
    .where('t.announcement_id', 'in', ids)
    .orderBy('d.sort')
    .orderBy('u.user_name')
    .orderBy('t.target_id')
    .execute();
  return rows.flatMap((r) => {
    const name = r.dept_name ?? r.user_name;
    return name === null ? [] : [{ announcement_id: r.announcement_id, kind: r.kind, id: r.id, name }];
  });
}

/** The administrators' list: every announcement, newest change first. */
export async function adminPage(
  db: Db,
  q: { keyword?: string; status?: number; currentPage: number; pageCount: number },
) {
  let base = db.selectFrom('announcement');
  if (q.keyword) base = base.where('announcement.title', likeIgnoringCase(db), containsPattern(q.keyword));
  if (q.status !== undefined) base = base.where('announcement.status', '=', q.status);
  const total = Number(
    (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  const rows = await base
    .leftJoin('user', 'user.id', 'announcement.created_by')
    .select([
      'announcement.id',
      'announcement.title',
      'announcement.status',
      'announcement.audience',
      'announcement.published_at',
      'announcement.updated_at',
      'user.user_name as author_name',
    ])
    .orderBy('announcement.updated_at', 'desc')
    .orderBy('announcement.id', 'desc')
    .limit(q.pageCount)
    .offset((q.currentPage - 1) * q.pageCount)
    .execute();
  return { rows, total };
}

/**
 * Published and meant for this reader: everyone, one of `deptIds` (the reader's departments
 * and their ancestors), or the reader by name.
 */
function readableBy(userId: number, deptIds: number[]) {
  return (eb: ExpressionBuilder<DB, 'announcement'>) =>
    eb.and([
      eb('announcement.status', '=', 1),
      eb.or([
        eb('announcement.audience', '=', 'all'),
        eb.exists(
          eb
            .selectFrom('announcement_target as t')
            .select('t.announcement_id')
            .whereRef('t.announcement_id', '=', 'announcement.id')
            .where((w) =>
              w.or([
                w.and([w('t.kind', '=', 'user'), w('t.target_id', '=', userId)]),
                ...(deptIds.length
                  ? [w.and([w('t.kind', '=', 'dept'), w('t.target_id', 'in', deptIds)])]
                  : []),
              ]),
            ),
        ),
      ]),
    ]);
}

export async function readerPage(
  db: Db,
  reader: { userId: number; deptIds: number[] },
  q: { keyword?: string; currentPage: number; pageCount: number },
) {
  let base = db.selectFrom('announcement').where(readableBy(reader.userId, reader.deptIds));
  if (q.keyword) base = base.where('announcement.title', likeIgnoringCase(db), containsPattern(q.keyword));
  const total = Number(
    (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  const rows = await base
    .leftJoin('user', 'user.id', 'announcement.created_by')
    .select([
      'announcement.id',
      'announcement.title',
      'announcement.published_at',
      'user.user_name as author_name',
    ])
    .orderBy('announcement.published_at', 'desc')
    .orderBy('announcement.id', 'desc')
    .limit(q.pageCount)
    .offset((q.currentPage - 1) * q.pageCount)
    .execute();
  return { rows, total };
}

export async function isReadableBy(db: Db, id: number, reader: { userId: number; deptIds: number[] }) {
  const r = await db
    .selectFrom('announcement')
    .select('announcement.id')
    .where('announcement.id', '=', id)
    .where(readableBy(reader.userId, reader.deptIds))
    .executeTakeFirst();
  return Boolean(r);
}

/** Enabled people in the audience: everyone, members of `deptIds`, or `userIds`. */
export async function enabledAudience(
  db: Db,
  audience: { type: string; deptIds: number[]; userIds: number[] },
): Promise<number[]> {
  let q = db.selectFrom('user').select('user.id').where('user.enabled', '=', 1);
  if (audience.type === 'dept') {
    if (!audience.deptIds.length) return [];
    const deptIds = audience.deptIds;
    q = q.where('user.id', 'in', (eb) =>
      eb.selectFrom('user_department').select('user_id').where('dept_id', 'in', deptIds),
    );
  } else if (audience.type === 'user') {
    if (!audience.userIds.length) return [];
    q = q.where('user.id', 'in', audience.userIds);
  }
  return (await q.orderBy('user.id').execute()).map((r) => r.id);
}

/** The stored target ids of one announcement by kind. */
export async function targetIds(db: Db, id: number) {
  const rows = await db
    .selectFrom('announcement_target')
    .select(['kind', 'target_id'])
    .where('announcement_id', '=', id)
    .execute();
  return {
    deptIds: rows.filter((r) => r.kind === 'dept').map((r) => r.target_id),
    userIds: rows.filter((r) => r.kind === 'user').map((r) => r.target_id),
  };
}
