import { sql } from 'kysely';
import type { Db } from '../../db/index';

/**
 * The grouped counts behind 借阅概览 (book.stats.ts says what each figure means). Held rows are
 * those not deleted and not weeded (剔除, status 3); applications those not deleted.
 */

const WEEDED = 3;
const ON_LOAN = [5, 6];

const held = (db: Db) =>
  db.selectFrom('bs_book_info').where('del_flag', '=', 0).where('status', '!=', WEEDED);
const applications = (db: Db) => db.selectFrom('bs_book_approval').where('del_flag', '=', 0);
/** Loans that were picked up (借阅中, 延期审批中, 已归还): the borrowings the charts count. */
const borrowed = (db: Db) =>
  db
    .selectFrom('bs_book_approval')
    .where('bs_book_approval.del_flag', '=', 0)
    .where('bs_book_approval.apply_type', '=', 1)
    .where('bs_book_approval.receive_time', 'is not', null);

/** Held rows and copies per 类别. */
export async function heldByType(db: Db) {
  const rows = await held(db)
    .select([
      'type',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.sum<number>('total_count').as('copies'),
    ])
    .groupBy('type')
    .execute();
  return rows.map((r) => ({ type: Number(r.type), titles: Number(r.n), copies: Number(r.copies ?? 0) }));
}

/** Applications per status. */
export async function applicationsByStatus(db: Db) {
  const rows = await applications(db)
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  return rows.map((r) => ({ status: Number(r.status), count: Number(r.n) }));
}

/** Loans out whose due date is on or before `lastOnTime` ('yyyy-MM-dd'). */
export async function overdueCount(db: Db, lastOnTime: string): Promise<number> {
  const r = await applications(db)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', 'in', ON_LOAN)
    .where('due_date', '!=', '')
    .where('due_date', '<=', lastOnTime)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Held rows and copies per first letter of 中图分类号 ('' when empty). */
export async function heldByClassLetter(db: Db) {
  const letter = sql<string>`upper(substr(trim(clc_no), 1, 1))`;
  const rows = await held(db)
    .select([
      letter.as('code'),
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.sum<number>('total_count').as('copies'),
    ])
    .groupBy(letter)
    .execute();
  return rows.map((r) => ({
    code: String(r.code ?? ''),
    titles: Number(r.n),
    copies: Number(r.copies ?? 0),
  }));
}

/** Applications picked up (or handed out) in [from, to). */
export async function receivedBetween(db: Db, from: number, to: number) {
  const rows = await applications(db)
    .select(['apply_type', 'receive_time', 'quantity'])
    .where('receive_time', '>=', from)
    .where('receive_time', '<', to)
    .where('status', 'in', [5, 6, 7, 8])
    .execute();
  return rows.map((r) => ({
    applyType: Number(r.apply_type),
    time: Number(r.receive_time),
    quantity: Number(r.quantity),
  }));
}

/** The `limit` rows borrowed most, most first (ties by id). */
export async function topBorrowed(db: Db, limit: number) {
  const rows = await borrowed(db)
    .innerJoin('bs_book_info as b', 'b.id', 'bs_book_approval.book_id')
    .select([
      'b.id as id',
      'b.title as title',
      'b.type as type',
      // Columns the typed schema leaves to the definition (migration 0036 has them).
      sql<number | null>`b.year`.as('year'),
      sql<string>`b.issue`.as('issue'),
      (eb) => eb.fn.countAll<number>().as('n'),
    ])
    .groupBy(['b.id', 'b.title', 'b.type', sql`b.year`, sql`b.issue`])
    .orderBy('n', 'desc')
    .orderBy('b.id', 'asc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    title: r.title,
    label: Number(r.type) === 2 && r.issue ? `${r.title} ${r.year ?? ''}年第${r.issue}期` : r.title,
    count: Number(r.n),
  }));
}

/** Loans picked up per department of the application (null: none). */
export async function borrowedByDept(db: Db) {
  const rows = await borrowed(db)
    .leftJoin('department as d', 'd.id', 'bs_book_approval.dept_id')
    .select(['d.id as deptId', 'd.name as name', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['d.id', 'd.name'])
    .execute();
  return rows.map((r) => ({
    deptId: r.deptId === null ? null : Number(r.deptId),
    name: r.name,
    count: Number(r.n),
  }));
}
