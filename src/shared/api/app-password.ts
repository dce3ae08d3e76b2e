import { z } from 'zod';
import { lineProblem } from '../rules/validators';
import { Id, rule } from './fields';

/**
 * App passwords (issue 26; README "Mount the drive (WebDAV)"): passwords a person makes in
 * 个人中心 for a WebDAV client (Windows, macOS, a phone's file app), each with a name, never the
 * sign-in password. Shown once when made; the server keeps only a hash. Calls, under
 * /singleMuseum, for the signed-in person's own passwords:
 *
 * - GET  personal/appPassword/list → {list, max}
 * - POST personal/appPassword/add {name, password (the sign-in password, to confirm)} → AppPasswordMade
 * - POST personal/appPassword/delete {id} → revokes it at once
 */

/** How many live app passwords one person may hold. */
export const APP_PASSWORD_MAX = 20;
export const APP_PASSWORD_NAME_MAX = 30;

export const AppPasswordName = z
  .string()
  .trim()
  .superRefine(rule((v) => lineProblem(v, '应用密码名称', APP_PASSWORD_NAME_MAX, true)));

export const AppPasswordCreate = z.object({
  name: AppPasswordName,
  password: z.string().min(1, '请输入登录密码以确认身份').max(100, '密码不能超过 100 个字符'),
});
export type AppPasswordCreate = z.infer<typeof AppPasswordCreate>;

export const AppPasswordRevoke = z.object({ id: Id });

export const AppPasswordRow = z.object({
  id: z.number(),
  name: z.string(),
  /** yyyy-MM-dd HH:mm:ss, museum time. */
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
});
export type AppPasswordRow = z.infer<typeof AppPasswordRow>;

export interface AppPasswordList {
  list: AppPasswordRow[];
  max: number;
}

/** The answer to add: the password itself, this once, and the account to pair it with. */
export interface AppPasswordMade {
  id: number;
  name: string;
  account: string;
  appPassword: string;
}

/** App passwords are 24 letters and digits without look-alikes, shown in groups of four. */
export const APP_PASSWORD_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const APP_PASSWORD_LENGTH = 24;

/** An app password as typed: groups and case do not matter (`ABCD-efgh…` = `abcdefgh…`). */
export function normalizeAppPassword(typed: string): string {
  return typed.replace(/[\s-]/g, '').toLowerCase();
}

/** True when a password as typed has the shape of an app password (so a sign-in password never is checked as one). */
export function looksLikeAppPassword(typed: string): boolean {
  const n = normalizeAppPassword(typed);
  return n.length === APP_PASSWORD_LENGTH && [...n].every((c) => APP_PASSWORD_ALPHABET.includes(c));
}
