import { containsPattern, likeIgnoringCase, serializeOn } from '../../db/dialect';
import type { Db } from '../../db/index';
import type { UserListQuery } from '../../../shared/api/org';

/** SQL for users, departments, roles and role menus. */

export async function listUsers(db: Db, q: UserListQuery) {
  let base = db.selectFrom('user');
  if (q.keyword) {
    const like = containsPattern(q.keyword);
    const op = likeIgnoringCase(db);
    base = base.where((eb) =>
      eb.or([eb('user.account', op, like), eb('user.user_name', op, like), eb('user.phone', op, like)]),
    );
  }
  if (q.deptId) {
    const deptId = q.deptId;
    base = base.where('user.id', 'in', (eb) =>
      eb.selectFrom('user_department').select('user_id').where('dept_id', '=', deptId),
    );
  }
  const total = Number(
    (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  const rows = await base
    .leftJoin('user as sup', 'sup.id', 'user.superior_id')
    .select([
      'user.id',
      'user.account',
      'user.user_name',
      'user.phone',
      'user.avatar',
      'user.enabled',
      'user.superior_id',
      'sup.user_name as superior_name',
    ])
    .orderBy('user.id')
    .limit(q.pageCount)
    .offset((q.currentPage - 1) * q.pageCount)
    .execute();
  return { rows, total };
}

export async function deptsOfUsers(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return db
    .selectFrom('user_department')
    .innerJoin('department', 'department.id', 'user_department.dept_id')
    .select(['user_department.user_id', 'department.id', 'department.name'])
    .where('user_department.user_id', 'in', ids)
    .orderBy('department.sort')
    .orderBy('department.id')
    .execute();
}

export async function rolesOfUsers(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return db
    .selectFrom('user_role')
    .innerJoin('role', 'role.id', 'user_role.role_id')
    .select(['user_role.user_id', 'role.id', 'role.name'])
    .where('user_role.user_id', 'in', ids)
    .orderBy('role.id')
    .execute();
}

export function findUser(db: Db, id: number) {
  return db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Case-insensitive, so `Director` and `director` cannot both exist. */
export function findUserByAccount(db: Db, account: string) {
  return db
    .selectFrom('user')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['account']), '=', account.toLowerCase()))
    .executeTakeFirst();
}

export function findUserByPhone(db: Db, phone: string) {
  return db.selectFrom('user').select('id').where('phone', '=', phone).executeTakeFirst();
}

export async function insertUser(
  db: Db,
  u: {
    account: string;
    user_name: string;
    phone: string | null;
    password_hash: string;
    superior_id: number | null;
    /** 1 when someone else chose the password (README "Accounts"): its owner sets their own first. */
    must_change_password?: number;
  },
) {
  const now = Date.now();
  const row = await db
    .insertInto('user')
    .values({ ...u, avatar: null, enabled: 1, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(
  db: Db,
  id: number,
  patch: Partial<{
    user_name: string;
    phone: string | null;
    superior_id: number | null;
    enabled: number;
    password_hash: string;
    avatar: string;
    must_change_password: number;
  }>,
) {
  await db
    .updateTable('user')
    .set({ ...patch, updated_at: Date.now() })
    .where('id', '=', id)
    .execute();
}

export async function setUserDepts(db: Db, userId: number, deptIds: number[]) {
  await db.deleteFrom('user_department').where('user_id', '=', userId).execute();
  if (deptIds.length)
    await db
      .insertInto('user_department')
      .values(deptIds.map((dept_id) => ({ user_id: userId, dept_id })))
      .execute();
}

export async function setUserRoles(db: Db, userId: number, roleIds: number[]) {
  await db.deleteFrom('user_role').where('user_id', '=', userId).execute();
  if (roleIds.length)
    await db
      .insertInto('user_role')
      .values(roleIds.map((role_id) => ({ user_id: userId, role_id })))
      .execute();
}

export async function countExisting(db: Db, table: 'department' | 'role' | 'user', ids: number[]) {
  if (!ids.length) return 0;
  const r = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The superior chain upwards from a user, for cycle checks (bounded: chains are short). */
export async function superiorChain(db: Db, fromId: number): Promise<number[]> {
  const chain: number[] = [];
  let cur: number | null = fromId;
  while (cur !== null && chain.length < 200 && !chain.includes(cur)) {
    chain.push(cur);
    const row: { superior_id: number | null } | undefined = await db
      .selectFrom('user')
      .select('superior_id')
      .where('id', '=', cur)
      .executeTakeFirst();
    cur = row?.superior_id ?? null;
  }
  return chain;
}

/**
 * Holds the organisation's shape for the rest of the transaction: the department tree (sibling
 * names, no cycles, no members left in a deleted one) and the superior chains are checked over
 * several rows and then written, so such changes run one at a time (PostgreSQL; SQLite's one
 * writer does this for a transaction already).
 */
export function lockOrg(db: Db) {
  return serializeOn(db, ['org']);
}

export function allDepts(db: Db) {
  return db.selectFrom('department').selectAll().orderBy('sort').orderBy('id').execute();
}

export async function deptUserCounts(db: Db) {
  return db
    .selectFrom('user_department')
    .select(['dept_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('dept_id')
    .execute();
}

export async function insertDept(db: Db, name: string, parentId: number | null) {
  const max = await db
    .selectFrom('department')
    .select((eb) => eb.fn.max('sort').as('m'))
    .executeTakeFirst();
  const r = await db
    .insertInto('department')
    .values({ name, parent_id: parentId, sort: Number(max?.m ?? 0) + 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updateDept(db: Db, id: number, name: string, parentId: number | null) {
  await db.updateTable('department').set({ name, parent_id: parentId }).where('id', '=', id).execute();
}

export async function deleteDept(db: Db, id: number) {
  await db.deleteFrom('department').where('id', '=', id).execute();
}

export async function findDeptSibling(db: Db, name: string, parentId: number | null, exceptId = 0) {
  return db
    .selectFrom('department')
    .select('id')
    .where('name', '=', name)
    .where((eb) => (parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', parentId)))
    .where('id', '!=', exceptId)
    .executeTakeFirst();
}

export async function listRoles(db: Db) {
  const roles = await db.selectFrom('role').selectAll().orderBy('id').execute();
  const counts = await db
    .selectFrom('user_role')
    .select(['role_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('role_id')
    .execute();
  const menus = await db.selectFrom('role_menu').select(['role_id', 'menu_key']).execute();
  return { roles, counts, menus };
}

export function findRole(db: Db, id: number) {
  return db.selectFrom('role').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findRoleByCode(db: Db, code: string) {
  return db.selectFrom('role').selectAll().where('code', '=', code).executeTakeFirst();
}

export async function insertRole(
  db: Db,
  r: { code: string; name: string; remark: string; builtin?: number },
) {
  const row = await db
    .insertInto('role')
    .values({ builtin: 0, ...r })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRole(db: Db, id: number, r: { name: string; remark: string }) {
  await db.updateTable('role').set(r).where('id', '=', id).execute();
}

export async function deleteRole(db: Db, id: number) {
  await db.deleteFrom('role').where('id', '=', id).execute();
}

export async function setRoleMenus(db: Db, roleId: number, keys: string[]) {
  await db.deleteFrom('role_menu').where('role_id', '=', roleId).execute();
  if (keys.length)
    await db
      .insertInto('role_menu')
      .values(keys.map((menu_key) => ({ role_id: roleId, menu_key })))
      .execute();
}

/** Takes `menuKey` from every role except those with the given codes. */
export async function revokeMenuExcept(db: Db, menuKey: string, roleCodes: readonly string[]) {
  await db
    .deleteFrom('role_menu')
    .where('menu_key', '=', menuKey)
    .where(
      'role_id',
      'not in',
      db
        .selectFrom('role')
        .select('id')
        .where('code', 'in', [...roleCodes]),
    )
    .execute();
}

/**
 * Enabled staff whose name contains `needle`, or whose phone is exactly `needle` (a partial
 * number matches nothing, so digits cannot be used to enumerate numbers). At most `limit`.
 */
export function lookupUsers(db: Db, needle: string, limit: number) {
  const like = containsPattern(needle);
  return db
    .selectFrom('user')
    .select(['id', 'user_name', 'phone'])
    .where('enabled', '=', 1)
    .where((eb) => eb.or([eb('user_name', likeIgnoringCase(db), like), eb('phone', '=', needle)]))
    .orderBy('user_name')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Which of `ids` are enabled staff. */
export async function enabledUserIds(db: Db, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('user')
    .select('id')
    .where('id', 'in', ids)
    .where('enabled', '=', 1)
    .execute();
  return rows.map((r) => r.id);
}
