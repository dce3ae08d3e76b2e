import { z } from 'zod';
import { Id } from './fields';

/**
 * The person-picker data of the approval screens and the designer (spec/office.md §3
 * "Person-picker data", §7 "/workflowConfig/*"), under /singleMuseum.
 *
 * Decisions the spec leaves open: `departmentNames` is the person's departments joined with
 * '、'; `deptrolelist` is every role, to pair with a department in the approver drawer
 * (settype 3: the role's holders in that department approve).
 */

export const PickerUser = z.object({
  userId: z.number(),
  name: z.string(),
  userImage: z.string(),
  departmentNames: z.string(),
});
export type PickerUser = z.infer<typeof PickerUser>;
export const PickerDept = z.object({
  deptId: z.number(),
  deptName: z.string(),
  parentId: z.number().nullable(),
});
export const PickerRole = z.object({ roleid: z.number(), roleName: z.string() });

/** POST /workflowConfig/copytoUserList: `userIds` (list or "1,2,3") narrows userlist to them; empty means everyone. */
export const CopytoUserListBody = z.object({
  userIds: z
    .union([z.array(Id).max(1000, '一次最多选择 1000 人'), z.string().max(12_000)])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return [];
      if (Array.isArray(v)) return v;
      const ids = v.split(',').map((s) => Number(s.trim()));
      if (ids.some((n) => !Number.isInteger(n) || n <= 0)) {
        ctx.addIssue({ code: 'custom', message: '人员参数不正确' });
        return z.NEVER;
      }
      return ids;
    }),
});
export const CopytoUserList = z.object({
  userlist: z.array(PickerUser),
  deptlist: z.array(PickerDept),
  deptrolelist: z.array(PickerRole),
});
export type CopytoUserList = z.infer<typeof CopytoUserList>;

/** GET /workflowConfig/approverUserList: every enabled person (the transfer picker, 选择联系人). */
export const ApproverUserList = z.object({ userlist: z.array(PickerUser) });
