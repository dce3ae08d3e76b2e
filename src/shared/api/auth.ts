import { z } from 'zod';
import { ICON_NAMES, MODULE_KEYS } from '../menu/types';

/** Calls of spec/office.md §7 "Login and session", under /singleMuseum. */

export const LoginBody = z.object({
  username: z.string().trim().min(1, '请输入账号或手机号').max(30, '账号或手机号过长'),
  password: z.string().min(1, '请输入密码').max(100, '密码过长'),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** §3 Login result. `image` is the avatar URL ('' when none). */
export const LoginResult = z.object({
  token: z.string(),
  userId: z.number(),
  userName: z.string(),
  image: z.string(),
  phone: z.string(),
});
export type LoginResult = z.infer<typeof LoginResult>;

export const RoleFunctionResult = z.object({ roles: z.array(z.string()), firstUrl: z.string() });
export type RoleFunctionResult = z.infer<typeof RoleFunctionResult>;

const Icon = z.enum(ICON_NAMES);
const Leaf = z.object({
  key: z.string(),
  title: z.string(),
  path: z.string(),
  search: z.record(z.string(), z.string()).optional(),
  icon: Icon.optional(),
  badge: z.string().optional(),
});
const Group = z.object({
  key: z.string(),
  title: z.string(),
  icon: Icon.optional(),
  children: z.array(Leaf),
});

/**
 * The menu data call (`GET /login/menu`, our design; the spec leaves it "not shown"): the
 * modules the user may open, each with only its permitted entries, plus the flat list of
 * granted keys so the app can decide 无权限 for hidden pages without a second table.
 */
export const MenuResult = z.object({
  modules: z.array(
    z.object({
      key: z.enum(MODULE_KEYS),
      title: z.string(),
      icon: Icon,
      items: z.array(z.union([Group, Leaf])),
    }),
  ),
  grantedKeys: z.array(z.string()),
});
export type MenuResult = z.infer<typeof MenuResult>;

/** The signed-in user as the app holds it (§3 Session user, plus roles and departments). */
export const UserInfo = z.object({
  userId: z.number(),
  account: z.string(),
  userName: z.string(),
  image: z.string(),
  phone: z.string(),
  roles: z.array(z.string()),
  /** Display names of `roles`, in the same order. */
  roleNames: z.array(z.string()),
  departments: z.array(z.object({ id: z.number(), name: z.string() })),
  /** The password was chosen by someone else (an initial or a reset one): choose one first. */
  mustChangePassword: z.boolean(),
});
export type UserInfo = z.infer<typeof UserInfo>;
