import { z } from 'zod';
import { accountProblem, nameProblem, passwordProblem, phoneProblem } from '../rules/validators';
import { PageQuery } from './envelope';
import { BoolFlag, Id, oneOrMany, rule } from './fields';

/** Organisation calls (users, departments, roles, role menus, personal centre), our design. */

const Account = z.string().trim().superRefine(rule(accountProblem));
const UserName = z
  .string()
  .trim()
  .superRefine(rule((v) => nameProblem(v)));
const Phone = z
  .string()
  .trim()
  .superRefine(rule((v) => (v === '' ? null : phoneProblem(v))));
export const Password = z.string().superRefine(rule(passwordProblem));

export const UserListQuery = PageQuery.extend({
  keyword: z.string().trim().max(30).optional(),
  deptId: z.coerce.number().int().positive().optional(),
});
export type UserListQuery = z.infer<typeof UserListQuery>;

export const UserRow = z.object({
  userId: z.number(),
  account: z.string(),
  userName: z.string(),
  phone: z.string(),
  image: z.string(),
  enabled: z.boolean(),
  superiorId: z.number().nullable(),
  superiorName: z.string(),
  deptIds: z.array(z.number()),
  deptNames: z.array(z.string()),
  roleIds: z.array(z.number()),
  roleNames: z.array(z.string()),
});
export type UserRow = z.infer<typeof UserRow>;

const UserFields = z.object({
  userName: UserName,
  phone: Phone,
  deptIds: oneOrMany(z.array(Id).max(20)).default([]),
  roleIds: oneOrMany(z.array(Id).max(20)).default([]),
  superiorId: Id.nullable().default(null),
});
export const UserCreate = UserFields.extend({ account: Account, password: Password });
export type UserCreate = z.input<typeof UserCreate>;
export const UserUpdate = UserFields.extend({ userId: Id });
export type UserUpdate = z.input<typeof UserUpdate>;
export const UserEnable = z.object({ userId: Id, enabled: BoolFlag() });
export const UserResetPassword = z.object({ userId: Id, password: Password });
export const IdBody = z.object({ id: Id });

export interface DeptNode {
  id: number;
  name: string;
  parentId: number | null;
  sort: number;
  userCount: number;
  children: DeptNode[];
}
export const DeptNode: z.ZodType<DeptNode> = z.lazy(() =>
  z.object({
    id: z.number(),
    name: z.string(),
    parentId: z.number().nullable(),
    sort: z.number(),
    userCount: z.number(),
    children: z.array(DeptNode),
  }),
);
const DeptName = z
  .string()
  .trim()
  .superRefine(rule((v) => nameProblem(v, '部门名称')));
export const DeptCreate = z.object({ name: DeptName, parentId: Id.nullable().default(null) });
export const DeptUpdate = DeptCreate.extend({ id: Id });

export const RoleRow = z.object({
  roleId: z.number(),
  code: z.string(),
  name: z.string(),
  remark: z.string(),
  builtin: z.boolean(),
  userCount: z.number(),
  menuKeys: z.array(z.string()),
  /** viviHignAdmin sees every group whatever its stored keys say (spec/office.md §6). */
  allMenus: z.boolean(),
});
export type RoleRow = z.infer<typeof RoleRow>;
const RoleCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9_]{1,39}$/, '角色编码须以字母开头，由 2–40 位字母、数字或下划线组成');
const RoleFields = z.object({
  name: z
    .string()
    .trim()
    .superRefine(rule((v) => nameProblem(v, '角色名称'))),
  remark: z.string().trim().max(200, '备注不能超过 200 个字符').default(''),
});
export const RoleCreate = RoleFields.extend({ code: RoleCode });
export const RoleUpdate = RoleFields.extend({ roleId: Id });
export const RoleSetMenus = z.object({ roleId: Id, menuKeys: z.array(z.string().max(80)).max(500) });

export const ProfileUpdate = z.object({ userName: UserName, phone: Phone });
export const PasswordChange = z.object({
  oldPassword: z.string().min(1, '请输入原密码').max(100),
  newPassword: Password,
});

/** Avatars: small images only, checked by their bytes on the server. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
