import type { OrgView } from './org';

/**
 * A small museum for the engine's tests (not used by the product). Departments: 1 馆本部 with
 * 10 保管部 (and its 11 库房组) and 20 财务部. Roles: 7 部门主任, 8 馆长, 100 员工.
 */
export const DEPT_PARENT: Record<number, number | undefined> = { 1: undefined, 10: 1, 11: 10, 20: 1 };
export interface FakeUser {
  dept: number;
  roles: number[];
  /** Nearest first. */
  superiors: number[];
}
export const USERS: Record<number, FakeUser> = {
  1: { dept: 11, roles: [100], superiors: [2, 3] }, // 库房组 staff: 主任 2, then 馆长 3
  2: { dept: 10, roles: [7], superiors: [3] }, // 保管部主任
  3: { dept: 1, roles: [8], superiors: [] }, // 馆长: nobody above
  4: { dept: 20, roles: [100], superiors: [5] }, // 财务部 staff
  5: { dept: 20, roles: [7], superiors: [3] }, // 财务部主任
  6: { dept: 20, roles: [100], superiors: [5] },
  7: { dept: 11, roles: [100], superiors: [2, 3] },
};
export const ADMINS = [99, 98];
export const DIRECTOR = { deptid: 1, deptName: '馆本部', roleid: 8, roleName: '馆长' };

export function fakeOrg(users: Record<number, FakeUser> = USERS, admins: number[] = ADMINS): OrgView {
  const ancestors = (d: number | undefined): number[] =>
    d === undefined ? [] : [d, ...ancestors(DEPT_PARENT[d])];
  return {
    superiorsOf: (id) => users[id]?.superiors ?? [],
    holders: (deptId, roleId) =>
      Object.entries(users)
        .filter(([, u]) => u.dept === deptId && u.roles.includes(roleId))
        .map(([id]) => Number(id)),
    deptsOf: (id) => ancestors(users[id]?.dept),
    rolesOf: (id) => users[id]?.roles ?? [],
    admins: () => admins,
  };
}
