/**
 * Menu entries only some roles may be granted (viviHignAdmin, who has every entry, aside).
 *
 * 系统日志 is read by administrators and the 审计员 role only (records-design §8): whoever keeps
 * the system running should not be the one who reviews its log, so granting the entry to any
 * other role (信息管理员, a 部门主任) is refused on 角色设置, and a grant left from before is
 * ignored by the menu and the server alike (both read grantedKeys).
 */
export const AUDITOR_ROLE = 'auditor';

export const RESERVED_LEAVES: Readonly<Record<string, readonly string[]>> = {
  'system.log': [AUDITOR_ROLE],
};

/** Whether a role may hold a menu entry. */
export function roleMayHold(roleCode: string, key: string): boolean {
  const only = RESERVED_LEAVES[key];
  return !only || only.includes(roleCode);
}

/** Whether someone with these roles may use a granted entry (one of them must be allowed it). */
export function rolesMayUse(roleCodes: readonly string[], key: string): boolean {
  const only = RESERVED_LEAVES[key];
  return !only || roleCodes.some((r) => only.includes(r));
}
