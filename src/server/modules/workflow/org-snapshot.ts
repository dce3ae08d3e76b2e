import { ADMIN_ROLE } from '../../../shared/menu/catalogue';
import type { Db } from '../../db/index';
import { avatarUrl } from '../org/avatar';
import * as repo from './workflow.repo';

/**
 * The organisation at one moment, as the workflow engine reads it (superiors, department
 * members with their sub-departments, roles, administrators). Loaded once per action, so one
 * request is routed against one consistent picture, and the engine stays pure: it gets plain
 * lookups, never the database. A museum has hundreds of people, so a whole snapshot is cheap.
 */
export interface OrgSnapshot {
  /** [direct superior, their superior, …], nearest first; stops at a cycle or a disabled person. */
  superiorsOf(userId: number): number[];
  /** Enabled people holding the role in exactly that department. */
  holders(deptId: number, roleId: number): number[];
  /** The person's departments with all their ancestors. */
  deptsOf(userId: number): number[];
  rolesOf(userId: number): number[];
  /** Enabled system administrators (the escalation target when no approver resolves). */
  admins(): number[];
  /** Whether the person exists and is enabled. */
  isActive(userId: number): boolean;
  /** Every enabled person, by id. */
  everyone(): number[];
  /** The person's own departments (without ancestors). */
  ownDeptsOf(userId: number): number[];
  /** For display: name and picture URL. */
  person(userId: number): { name: string; image: string } | undefined;
  departments: { id: number; name: string; parentId: number | null }[];
}

/** Upper bound of a superior chain: deeper than any museum, and a guard against bad data. */
const MAX_CHAIN = 20;

export async function loadOrgSnapshot(db: Db): Promise<OrgSnapshot> {
  const { users, memberships, roles, depts } = await repo.orgRows(db);
  const active = new Map(users.map((u) => [u.id, u]));
  const parentOf = new Map(depts.map((d) => [d.id, d.parent_id]));
  const deptsByUser = new Map<number, number[]>();
  const membersByDept = new Map<number, number[]>();
  for (const m of memberships) {
    if (!active.has(m.user_id)) continue;
    deptsByUser.set(m.user_id, [...(deptsByUser.get(m.user_id) ?? []), m.dept_id]);
    membersByDept.set(m.dept_id, [...(membersByDept.get(m.dept_id) ?? []), m.user_id]);
  }
  const rolesByUser = new Map<number, number[]>();
  const adminIds: number[] = [];
  for (const r of roles) {
    if (!active.has(r.user_id)) continue;
    rolesByUser.set(r.user_id, [...(rolesByUser.get(r.user_id) ?? []), r.role_id]);
    if (r.code === ADMIN_ROLE) adminIds.push(r.user_id);
  }

  return {
    superiorsOf(userId) {
      const chain: number[] = [];
      const seen = new Set([userId]);
      let next = active.get(userId)?.superior_id ?? null;
      while (next !== null && !seen.has(next) && active.has(next) && chain.length < MAX_CHAIN) {
        chain.push(next);
        seen.add(next);
        next = active.get(next)?.superior_id ?? null;
      }
      return chain;
    },
    holders(deptId, roleId) {
      return (membersByDept.get(deptId) ?? []).filter((u) => rolesByUser.get(u)?.includes(roleId));
    },
    deptsOf(userId) {
      const out = new Set<number>();
      for (const d of deptsByUser.get(userId) ?? []) {
        let cur: number | null | undefined = d;
        // Walk to the root; the guard stops a cycle in bad data.
        for (let i = 0; cur != null && !out.has(cur) && i < MAX_CHAIN; i++) {
          out.add(cur);
          cur = parentOf.get(cur);
        }
      }
      return [...out];
    },
    rolesOf: (userId) => rolesByUser.get(userId) ?? [],
    admins: () => [...new Set(adminIds)],
    isActive: (userId) => active.has(userId),
    everyone: () => [...active.keys()],
    ownDeptsOf: (userId) => deptsByUser.get(userId) ?? [],
    person(userId) {
      const u = active.get(userId);
      return u && { name: u.user_name, image: avatarUrl(u.id, u.avatar) };
    },
    departments: depts.map((d) => ({ id: d.id, name: d.name, parentId: d.parent_id })),
  };
}
