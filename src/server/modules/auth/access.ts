import type { Db } from '../../db/index';
import { forbidden } from '../../errors';
import type { SessionUser } from './auth.service';
import { grantedKeys } from './auth.service';
import { holdsGrant, type Grant } from '../../../shared/records/define';

/**
 * Authorisation by menu grant: a call that backs an admin page is allowed exactly when the
 * caller may open that page. One rule, shared with the side menu, so a hidden page never has
 * a reachable API.
 */
export function createAccess(db: Db) {
  return {
    /** Whether the user holds the leaf `menuKey`, or any one of several (a record's `Grant`). */
    async can(user: SessionUser, menuKey: Grant): Promise<boolean> {
      return holdsGrant(await grantedKeys(db, user.roles), menuKey);
    },
    async require(user: SessionUser, menuKey: Grant): Promise<void> {
      if (!(await this.can(user, menuKey))) throw forbidden('无权限执行此操作，请联系管理员开通');
    },
  };
}
export type Access = ReturnType<typeof createAccess>;
