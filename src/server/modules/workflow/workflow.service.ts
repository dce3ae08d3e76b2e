import type { CopytoUserList, PickerUser } from '../../../shared/api/workflow';
import type { Db } from '../../db/index';
import { loadOrgSnapshot, type OrgSnapshot } from './org-snapshot';
import * as repo from './workflow.repo';

/** Picker rows of the given people (or everyone enabled), in the order given. */
function pickerUsers(org: OrgSnapshot, ids: number[]): PickerUser[] {
  const names = new Map(org.departments.map((d) => [d.id, d.name]));
  return ids
    .filter((id) => org.isActive(id))
    .map((id) => {
      const p = org.person(id)!;
      // Only the person's own departments, not the ancestors deptsOf adds.
      const own = org.ownDeptsOf(id).map((d) => names.get(d) ?? '');
      return {
        userId: id,
        name: p.name,
        userImage: p.image,
        departmentNames: own.filter(Boolean).join('、'),
      };
    });
}

/**
 * Approvals and their workflows (issue 8). So far: the organisation snapshot the engine routes
 * against, and the pickers' data.
 */
export function createWorkflowService(db: Db) {
  return {
    org: () => loadOrgSnapshot(db),
    /** The copy-to picker: the named people (or everyone), every department and every role. */
    async copytoUserList(userIds: number[]): Promise<CopytoUserList> {
      const org = await loadOrgSnapshot(db);
      const roles = await repo.allRoles(db);
      return {
        userlist: pickerUsers(org, userIds.length ? [...new Set(userIds)] : org.everyone()),
        deptlist: org.departments.map((d) => ({ deptId: d.id, deptName: d.name, parentId: d.parentId })),
        deptrolelist: roles.map((x) => ({ roleid: x.id, roleName: x.name })),
      };
    },
    async approverUserList() {
      const org = await loadOrgSnapshot(db);
      return { userlist: pickerUsers(org, org.everyone()) };
    },
  };
}
export type WorkflowService = ReturnType<typeof createWorkflowService>;
