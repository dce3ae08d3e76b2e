import type { Db } from '../../db/index';
import { forbidden } from '../../errors';
import type { SessionUser } from './auth.service';
import { grantedKeys } from './auth.service';

/**
 * Authorisation by menu grant: a call that backs an admin page is allowed exactly when the
 * caller may open that page. One rule, shared with the side menu, so a hidden page never has
 * a reachable API.
 */
export function createAccess(db: Db) {
  return {
    async can(user: SessionUser, menuKey: string): Promise<boolean> {
      const granted = await grantedKeys(db, user.roles);
      return granted === 'all' || granted.has(menuKey);
    },
    async require(user: SessionUser, menuKey: string): Promise<void> {
      if (!(await this.can(user, menuKey))) throw forbidden('无权限执行此操作，请联系管理员开通');
    },
  };
}
export type Access = ReturnType<typeof createAccess>;
