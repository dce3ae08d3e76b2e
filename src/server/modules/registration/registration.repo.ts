import type { Db } from '../../db/index';
import { ADMIN_ROLE } from '../../../shared/menu/catalogue';

/**
 * SQL of self-registration beyond the records engine's: the public insert (with the password
 * hash, a column no field names), the sign-in's look-up by phone, the badge count, and who
 * approves. Reads and transitions of the record go through the engine (server/records).
 */

export interface NewRegistration {
  userName: string;
  phone: string;
  deptId: number;
  remark: string;
  ip: string;
  passwordHash: string;
}

/** Inserts a waiting registration and its 新建 line in bsStatusLog; answers its id. */
export async function insertRegistration(db: Db, r: NewRegistration, now: number): Promise<number> {
  const row = await db
    .insertInto('staff_registration')
    .values({
      create_time: now,
      create_by: null,
      update_time: now,
      update_by: null,
      user_name: r.userName,
      phone: r.phone,
      dept_id: r.deptId,
      remark: r.remark,
      apply_time: now,
      status: 0,
      apply_ip: r.ip,
      user_id: null,
      password_hash: r.passwordHash,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await db
    .insertInto('bs_status_log')
    .values({
      table_name: 'staff_registration',
      record_id: id,
      action: 'create',
      from_status: null,
      to_status: 0,
      operator_id: null,
      comment: '',
      time: now,
    })
    .execute();
  return id;
}

/** Whether a registration with this phone waits for a decision. */
export async function hasPending(db: Db, phone: string): Promise<boolean> {
  const r = await db
    .selectFrom('staff_registration')
    .select('id')
    .where('phone', '=', phone)
    .where('status', '=', 0)
    .where('del_flag', '=', 0)
    .executeTakeFirst();
  return Boolean(r);
}

/** Whether an account has this phone, or this phone as its login name. */
export async function accountHolds(db: Db, phone: string): Promise<boolean> {
  const r = await db
    .selectFrom('user')
    .select('id')
    .where((eb) => eb.or([eb('phone', '=', phone), eb('account', '=', phone)]))
    .executeTakeFirst();
  return Boolean(r);
}

/** The newest registration of a phone (what its sign-in answers about). */
export function latestByPhone(db: Db, phone: string) {
  return db
    .selectFrom('staff_registration')
    .select(['id', 'status', 'refuse_reason', 'password_hash'])
    .where('phone', '=', phone)
    .where('del_flag', '=', 0)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function passwordHashOf(db: Db, id: number): Promise<string> {
  const r = await db
    .selectFrom('staff_registration')
    .select('password_hash')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return r.password_hash;
}

export async function pendingCount(db: Db): Promise<number> {
  const r = await db
    .selectFrom('staff_registration')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 0)
    .where('del_flag', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Role names by id, in the order given. */
export async function roleNames(db: Db, ids: readonly number[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('role')
    .select(['id', 'name'])
    .where('id', 'in', [...ids])
    .execute();
  return ids.flatMap((id) => rows.filter((r) => r.id === id).map((r) => r.name));
}

/** Enabled people who may decide registrations: super administrators and holders of `grant`. */
export async function approverIds(db: Db, grant: string): Promise<number[]> {
  const rows = await db
    .selectFrom('user_role')
    .innerJoin('role', 'role.id', 'user_role.role_id')
    .innerJoin('user', 'user.id', 'user_role.user_id')
    .leftJoin('role_menu', (j) =>
      j.onRef('role_menu.role_id', '=', 'role.id').on('role_menu.menu_key', '=', grant),
    )
    .select('user_role.user_id')
    .distinct()
    .where('user.enabled', '=', 1)
    .where((eb) => eb.or([eb('role.code', '=', ADMIN_ROLE), eb('role_menu.menu_key', 'is not', null)]))
    .execute();
  return rows.map((r) => Number(r.user_id));
}

/** Every department, for the public page's choice (names only: no counts, no people). */
export function departments(db: Db) {
  return db
    .selectFrom('department')
    .select(['id', 'name', 'parent_id', 'sort'])
    .orderBy('sort')
    .orderBy('id')
    .execute();
}
