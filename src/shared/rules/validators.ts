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
  const t = name.trim();
  if (!t) return `请输入${what}`;
  if (t.length > 30) return `${what}不能超过 30 个字符`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(t)) return `${what}不能包含控制字符`;
  return null;
}
