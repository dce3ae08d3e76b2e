import { containsPattern, forUpdate, likeIgnoringCase } from '../../db/dialect';

import type { Db } from '../../db/index';

/** SQL of approval requests (migration 0011) and the approval messages the lists read. */

/**
 * The `type` of approval requests' messages. Other modules (resource reviews) send approval
 * messages too, with their own ids, so every read of approval_message here filters by it.
 */
export const WORKFLOW_MESSAGE_TYPE = 'workflow';

export type RequestRecord = NonNullable<Awaited<ReturnType<typeof requestById>>>;

export function requestById(db: Db, id: number) {
  return db
    .selectFrom('approval_request as r')
    .innerJoin('approval_template as t', 't.id', 'r.template_id')
    .selectAll('r')
    .select(['t.name as template_name', 't.category'])
    .where('r.id', '=', id)
    .executeTakeFirst();
}

/**
 * Locks a request's row for the rest of the transaction, before its state is read: two people
 * deciding at once then act one after the other, and the second sees the first's decision
 * (exactly one wins; the other is told 已被他人处理). PostgreSQL's FOR UPDATE; SQLite's one
 * writer already serialises them.
 */
export async function lockRequest(db: Db, id: number) {
  await forUpdate(db, db.selectFrom('approval_request').select('id').where('id', '=', id)).execute();
}

export async function insertRequest(
  db: Db,
  row: {
    template_id: number;
    version: number;
    starter_id: number;
    title: string;
    form: string;
    state: string;
    status: number;
    priority: number;
    finished_at: number | null;
  },
  now: number,
) {
  const r = await db
    .insertInto('approval_request')
    .values({ ...row, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export function saveState(
  db: Db,
  id: number,
  set: { state: string; status: number; finished_at: number | null },
  now: number,
) {
  return db
    .updateTable('approval_request')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** The running requests with an open awaiting message of ours to this person, oldest first. */
export async function awaitingOf(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('approval_message as m')
    .innerJoin('approval_request as r', 'r.id', 'm.actvity_id')
    .select('r.id')
    .distinct()
    .where('m.user_id', '=', userId)
    .where('m.type', '=', WORKFLOW_MESSAGE_TYPE)
    .where('m.status', '=', 1)
    .where('m.open', '=', 1)
    .where('r.status', '=', 1)
    .orderBy('r.id')
    .execute();
  return rows.map((r) => r.id);
}

/** The statuses (1 awaiting, 10 copied) of this person's approval messages for a request. */
export async function messageStatuses(db: Db, requestId: number, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('approval_message')
    .select('status')
    .where('actvity_id', '=', requestId)
    .where('type', '=', WORKFLOW_MESSAGE_TYPE)
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.status);
}

/** Everyone copied on a request so far. */
export async function copiedUsers(db: Db, requestId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('approval_message')
    .select('user_id')
    .where('actvity_id', '=', requestId)
    .where('type', '=', WORKFLOW_MESSAGE_TYPE)
    .where('status', '=', 10)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.user_id);
}

export async function readers(db: Db, requestId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('approval_read')
    .select('user_id')
    .where('request_id', '=', requestId)
    .execute();
  return new Set(rows.map((r) => r.user_id));
}

export function markRead(db: Db, requestId: number, userId: number, now: number) {
  return db
    .insertInto('approval_read')
    .values({ request_id: requestId, user_id: userId, read_at: now })
    .onConflict((oc) => oc.columns(['request_id', 'user_id']).doNothing())
    .execute();
}

// ---------------------------------------------------------------- comments

export function comments(db: Db, requestId: number) {
  return db
    .selectFrom('approval_comment')
    .select(['id', 'user_id', 'content', 'created_at'])
    .where('request_id', '=', requestId)
    .where('deleted', '=', 0)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertComment(db: Db, requestId: number, userId: number, content: string, now: number) {
  const r = await db
    .insertInto('approval_comment')
    .values({ request_id: requestId, user_id: userId, content, deleted: 0, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export function commentById(db: Db, requestId: number, id: number) {
  return db
    .selectFrom('approval_comment')
    .select(['id', 'user_id'])
    .where('id', '=', id)
    .where('request_id', '=', requestId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

export function deleteComment(db: Db, id: number) {
  return db.updateTable('approval_comment').set({ deleted: 1 }).where('id', '=', id).execute();
}

// ---------------------------------------------------------------- lists

export type ListState = 'pending' | 'done' | 'mystart' | 'copy' | 'list';

/**
 * One page of a person's list. pending: an open awaiting message; done: an awaiting message
 * that closed (decided, transferred, settled by others or ended); mystart: started by them;
 * copy: copied to them. Newest first.
 */
export async function listPage(
  db: Db,
  userId: number,
  q: {
    state: ListState;
    keyword: string;
    offset: number;
    limit: number;
    category?: 'normal' | 'gongwen';
    status?: number;
    templateId?: number;
  },
) {
  let base = db
    .selectFrom('approval_request as r')
    .innerJoin('approval_template as t', 't.id', 'r.template_id')
    .innerJoin('user as u', 'u.id', 'r.starter_id')
    .$if(q.category !== undefined, (w) => w.where('t.category', '=', q.category!))
    .$if(q.status !== undefined, (w) => w.where('r.status', '=', q.status!))
    .$if(q.templateId !== undefined, (w) => w.where('r.template_id', '=', q.templateId!));
  if (q.state === 'mystart') {
    base = base.where('r.starter_id', '=', userId);
  } else if (q.state === 'list') {
    // Everything I may read (the detail's rule): mine, or any message of ours to me.
    base = base.where((eb) =>
      eb.or([
        eb('r.starter_id', '=', userId),
        eb.exists(
          eb
            .selectFrom('approval_message as m')
            .select('m.id')
            .whereRef('m.actvity_id', '=', 'r.id')
            .where('m.user_id', '=', userId)
            .where('m.type', '=', WORKFLOW_MESSAGE_TYPE),
        ),
      ]),
    );
  } else {
    const status = q.state === 'copy' ? 10 : 1;
    base = base.where((eb) =>
      eb.exists(
        eb
          .selectFrom('approval_message as m')
          .select('m.id')
          .whereRef('m.actvity_id', '=', 'r.id')
          .where('m.user_id', '=', userId)
          .where('m.type', '=', WORKFLOW_MESSAGE_TYPE)
          .where('m.status', '=', status)
          .$if(q.state === 'pending', (w) => w.where('m.open', '=', 1))
          .$if(q.state === 'done', (w) => w.where('m.open', '=', 0)),
      ),
    );
  }
  if (q.keyword) {
    const like = containsPattern(q.keyword);
    const op = likeIgnoringCase(db);
    base = base.where((eb) => eb.or([eb('r.title', op, like), eb('t.name', op, like)]));
  }
  const [rows, count] = await Promise.all([
    base
      .select([
        'r.id',
        'r.title',
        'r.status',
        'r.priority',
        'r.created_at',
        't.name as template_name',
        'u.id as starter_id',
        'u.user_name as starter_name',
        'u.avatar as starter_avatar',
      ])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The templates of a category, for the lists' 模板 filter (disabled ones too: old requests keep them). */
export function templatesOf(db: Db, category: 'normal' | 'gongwen' | 'all') {
  let q = db.selectFrom('approval_template').select(['id', 'name']);
  if (category !== 'all') q = q.where('category', '=', category);
  return q.orderBy('id').execute();
}
