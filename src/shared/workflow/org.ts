import type { Target } from './definition';

/**
 * What the engine needs to know about the organisation. The server implements it over a snapshot
 * of the org tables taken when a request starts, so the engine stays pure and deterministic:
 * the same (definition, form, starter, OrgView answers) always give the same plan.
 */
export interface OrgView {
  /** [direct superior, their superior, ...], nearest first; [] when the user has none. */
  superiorsOf(userId: number): number[];
  /** Users holding the role in the department. */
  holders(deptId: number, roleId: number): number[];
  /** The user's departments together with all their ancestors. */
  deptsOf(userId: number): number[];
  rolesOf(userId: number): number[];
  /** System administrators: where a step goes when nobody else can approve it. */
  admins(): number[];
}

/**
 * Whether a user is one of the picked targets: a listed person (type 1), a holder of a listed
 * role (type 2), or a member of a listed department or one of its sub-departments (type 3;
 * `deptsOf` includes the ancestors, so membership of a sub-department counts).
 */
export function userMatchesTargets(userId: number, targets: readonly Target[], org: OrgView): boolean {
  if (targets.some((t) => t.type === 1 && t.targetId === userId)) return true;
  if (targets.some((t) => t.type === 2)) {
    const roles = new Set(org.rolesOf(userId));
    if (targets.some((t) => t.type === 2 && roles.has(t.targetId))) return true;
  }
  if (targets.some((t) => t.type === 3)) {
    const depts = new Set(org.deptsOf(userId));
    if (targets.some((t) => t.type === 3 && depts.has(t.targetId))) return true;
  }
  return false;
}

/** Ids in first-seen order without repeats. */
export function unique(ids: Iterable<number>): number[] {
  return [...new Set(ids)];
}
