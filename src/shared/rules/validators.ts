import { spoofProblem } from '../drive/names';

/**
 * Field rules shared by the forms and the server (spec/office.md §5 "Client-side validators").
 * Each returns a Chinese message a person can act on, or null when the value is fine, so the
 * form shows the very words the server would answer with.
 */

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 20;

/** 6–20 characters with at least two of digits, letters and symbols. */
export function passwordProblem(pw: string): string | null {
  if (pw.length < PASSWORD_MIN || pw.length > PASSWORD_MAX) return '密码长度须为 6–20 位';
  if (/\s/.test(pw)) return '密码不能包含空格';
  const kinds = [/\d/, /[A-Za-z]/, /[^\dA-Za-z]/].filter((re) => re.test(pw)).length;
  if (kinds < 2) return '密码须至少包含数字、字母、符号中的两种';
  return null;
}

/** Mainland mobile numbers: 11 digits starting 1[3-9]. */
export const PHONE_RE = /^1[3-9]\d{9}$/;
export function phoneProblem(phone: string): string | null {
  return PHONE_RE.test(phone) ? null : '请输入正确的 11 位手机号';
}

/** Accounts are letters and digits, 2–30 characters (the spec's "digits plus letters" rule). */
export const ACCOUNT_RE = /^[A-Za-z0-9]{2,30}$/;
export function accountProblem(account: string): string | null {
  return ACCOUNT_RE.test(account) ? null : '账号须为 2–30 位字母或数字';
}

/** Display names: 1–30 characters, no control characters. */
export function nameProblem(name: string, what = '姓名'): string | null {
  return lineProblem(name, what, 30, true);
}

/** Office and duty-room numbers: digits with an optional area code, extension or +86 (3–20 characters). */
export const OFFICE_PHONE_RE = /^(?:\+\d{1,3}[ -]?)?(?:\(\d{2,4}\)[ -]?)?\d+(?:[ -]\d+)*$/;
export function officePhoneProblem(phone: string): string | null {
  const digits = phone.replace(/\D/g, '').length;
  return OFFICE_PHONE_RE.test(phone) && phone.length <= 20 && digits >= 3
    ? null
    : '请输入正确的办公电话（数字，可含区号“-”，如 010-12345678）';
}

/** A plain e-mail address (at most 60 characters); the server never sends mail to it. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function emailProblem(email: string): string | null {
  if (email.length > 60) return '邮箱不能超过 60 个字符';
  return EMAIL_RE.test(email) ? null : '请输入正确的邮箱地址';
}

/**
 * A one-line text field of at most `max` characters (titles, places, positions), with the
 * same words on every form: 请输入X / X不能超过 N 个字符 / X不能包含控制字符 / X不能包含不可见字符….
 */
export function lineProblem(value: string, what: string, max: number, required = false): string | null {
  const t = value.trim();
  if (!t) return required ? `请输入${what}` : null;
  if (t.length > max) return `${what}不能超过 ${max} 个字符`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(t)) return `${what}不能包含控制字符`;
  // People's, departments' and roles' names and titles are shown to colleagues like file
  // names are: a right-to-left override or a zero-width character would spoof them the same way.
  return spoofProblem(t, what);
}
