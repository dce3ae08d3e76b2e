import type { Db } from '../../db/index';

/** SQL of the workflow module: the organisation as approvals see it. */

/** Every enabled person with what routing needs: superior, departments and roles. */
export async function orgRows(db: Db) {
  const [users, memberships, roles, depts] = await Promise.all([
    db
      .selectFrom('user')
      .select(['id', 'user_name', 'avatar', 'superior_id'])
      .where('enabled', '=', 1)
      .orderBy('id')
      .execute(),
    db.selectFrom('user_department').select(['user_id', 'dept_id']).execute(),
    db
      .selectFrom('user_role')
      .innerJoin('role', 'role.id', 'user_role.role_id')
      .select(['user_role.user_id', 'role.id as role_id', 'role.code', 'role.name'])
      .execute(),
    db
      .selectFrom('department')
      .select(['id', 'name', 'parent_id', 'sort'])
      .orderBy('sort')
      .orderBy('id')
      .execute(),
  ]);
  return { users, memberships, roles, depts };
}

/** Every role, for the department-role picker. */
export function allRoles(db: Db) {
  return db.selectFrom('role').select(['id', 'name', 'code']).orderBy('id').execute();
}
