import type { Db } from '../../db/index';

/** SQL of 业务数据's summaries: reads of the business tables and of who belongs where. */

/** A list field's JSON as rows (a row the engine stored; unreadable text reads as none). */
export function rowsOf(json: string): Record<string, unknown>[] {
  try {
    const rows = JSON.parse(json) as unknown;
    return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
  } catch {
    return [];
  }
}

export async function monthRow(db: Db, year: number, month: number) {
  return db
    .selectFrom('business_month')
    .select(['id', 'status'])
    .where('year', '=', year)
    .where('month', '=', month)
    .where('del_flag', '=', 0)
    .executeTakeFirst();
}

export async function deptRows(db: Db, year: number, month: number, deptIds?: readonly number[]) {
  let q = db
    .selectFrom('business_data_dept')
    .select(['id', 'dept_id', 'indicators', 'summary'])
    .where('year', '=', year)
    .where('month', '=', month)
    .where('del_flag', '=', 0);
  if (deptIds) q = q.where('dept_id', 'in', deptIds.length ? [...deptIds] : [0]);
  return q.execute();
}

export async function personalRows(db: Db, year: number, month: number) {
  return db
    .selectFrom('business_data_personal')
    .select(['user_id', 'items'])
    .where('year', '=', year)
    .where('month', '=', month)
    .where('del_flag', '=', 0)
    .execute();
}

/** The plans of a year (for some departments, or all). */
export async function planRows(db: Db, year: number, deptIds?: readonly number[]) {
  let q = db
    .selectFrom('business_data_plan')
    .select(['id', 'dept_id', 'title', 'period', 'period_no', 'items', 'status'])
    .where('year', '=', year)
    .where('del_flag', '=', 0);
  if (deptIds) q = q.where('dept_id', 'in', deptIds.length ? [...deptIds] : [0]);
  return q.orderBy('period').orderBy('period_no').orderBy('id').execute();
}

/** Enabled members of each department, by department. */
export async function membersOf(db: Db, deptIds?: readonly number[]) {
  let q = db
    .selectFrom('user_department')
    .innerJoin('user', 'user.id', 'user_department.user_id')
    .select(['user_department.dept_id', 'user.id', 'user.user_name'])
    .where('user.enabled', '=', 1);
  if (deptIds) q = q.where('user_department.dept_id', 'in', deptIds.length ? [...deptIds] : [0]);
  return q.orderBy('user.id').execute();
}

export async function departments(db: Db) {
  return db
    .selectFrom('department')
    .select(['id', 'name', 'parent_id', 'sort'])
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

export async function deptIdsOfUser(db: Db, userId: number) {
  const rows = await db
    .selectFrom('user_department')
    .select('dept_id')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => Number(r.dept_id));
}
