import { z } from 'zod';
import { lineProblem, passwordProblem, phoneProblem } from '../rules/validators';
import { addRecordLabels } from './labels';
import { rule } from './fields';

/**
 * Self-registration and pending staff (issue 18; README "Self-registration and pending staff").
 *
 * A newcomer registers on the public page `/register` (spec §2: "Login and register paths are
 * reachable without a user id cookie"; the spec names no path, this is ours) with their name,
 * mobile, department and a password. The registration is a pipeline record, `staffRegistration`
 * (shared/records/system/staff-registration.ts): 待审核 → 已通过 (an administrator chooses the
 * roles; the account is created, enabled, with that password) or 已拒绝 (with a reason).
 *
 * Public calls (ours; the spec shows none), under /singleMuseum:
 * - GET  register/depts: the departments to choose from, [{id, name, parentId}] in tree order.
 * - POST register/apply: RegisterBody → {message}. Throttled per address (REGISTER_* below):
 *   every call that passes the schema counts, accepted or refused, as sign-in failures do.
 *
 * How the person is told: no SMS or e-mail is available, so the sign-in answer is the channel.
 * Signing in with the registered phone and password answers 账号正在审核中… while pending and
 * 注册申请未通过：<理由> once refused (codes 1011 and 1012); a wrong password answers exactly as
 * for an unknown account, so nobody else learns that the phone registered. Once approved, the
 * sign-in works and the new account's first notice says which roles it was granted.
 */

export const REGISTER_PATH = '/register';

/** Registration calls that pass the schema, per address, free within the window… */
export const REGISTER_FREE_PER_ADDRESS = 10;
/** …of an hour; after them each call waits longer: 30 s, 60 s, 120 s … up to 15 minutes. */
export const REGISTER_WINDOW_MS = 3600_000;
/** A flood guard on the public calls, per address and minute (the sign-in's style). */
export const REGISTER_CALLS_PER_MINUTE = 120;

/** One answer for a phone that has an account or a registration waiting, whichever it is. */
export const PHONE_TAKEN = '该手机号已注册或正在审核中，请直接登录；忘记密码请联系管理员';
export const REGISTER_DONE = '注册申请已提交，请等待管理员审核';
/** The sign-in answers of a registered phone (with its right password). */
export const LOGIN_PENDING = '账号正在审核中，请耐心等待管理员审核通过后再登录';
export const loginRefused = (reason: string) => `注册申请未通过：${reason}`;
export const registerThrottled = (seconds: number) => `注册申请过于频繁，请 ${seconds} 秒后再试`;
export const PASSWORD_MISMATCH = '两次输入的密码不一致';
/** The new account's first notice (its bell on the first sign-in): what it was granted. */
export const welcomeNotice = (roles: string) => `欢迎加入馆务云！您的注册申请已通过，已授予角色：${roles}`;

const text = (what: string, max: number, required: boolean) =>
  z
    .string({ error: () => (required ? `请输入${what}` : `${what}格式不正确`) })
    .trim()
    .superRefine(rule((v) => lineProblem(v, what, max, required)));

export const RegisterBody = z
  .object({
    userName: text('姓名', 30, true),
    phone: z
      .string({ error: () => '请输入手机号' })
      .trim()
      .min(1, '请输入手机号')
      .superRefine(rule(phoneProblem)),
    deptId: z.preprocess(
      (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v),
      z
        .number({ error: () => '请选择部门' })
        .int('请选择部门')
        .positive('请选择部门'),
    ),
    password: z
      .string({ error: () => '请输入密码' })
      .min(1, '请输入密码')
      .superRefine(rule(passwordProblem)),
    confirmPassword: z.string({ error: () => '请再次输入密码' }).min(1, '请再次输入密码'),
    remark: text('申请说明', 200, false).default(''),
  })
  .superRefine((b, ctx) => {
    if (b.confirmPassword && b.password !== b.confirmPassword)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: PASSWORD_MISMATCH });
  });
export type RegisterBody = z.input<typeof RegisterBody>;

addRecordLabels({ confirmPassword: '确认密码' });

export const RegisterDept = z.object({ id: z.number(), name: z.string(), parentId: z.number().nullable() });
export type RegisterDept = z.infer<typeof RegisterDept>;

/** GET sysUserPending/count: registrations waiting, for the side menu's badge. */
export const PendingStaffCount = z.object({ pendingStaffCount: z.number() });
export type PendingStaffCount = z.infer<typeof PendingStaffCount>;
