/**
 * The shared validators of every record (research/records-design.md §1). Each answers null for a
 * good value, or what is wrong as a phrase that follows the field's label: the field builders
 * (define.ts) say `${label}${problem}`, e.g. 值班电话须为手机号或固定电话（如 13812345678 或
 * 010-12345678）. Forms, the server and the xlsx import all call these, so they say the same.
 */

/** Mainland mobile numbers: 11 digits, 1 then 3–9. */
export const MOBILE_RE = /^1[3-9]\d{9}$/;
/** Landlines: an optional area code (0 + 2–3 digits, '-' optional), 7–8 digits, an optional extension. */
export const LANDLINE_RE = /^(0\d{2,3}-?)?\d{7,8}(-\d{1,6})?$/;

export function mobileProblem(v: string): string | null {
  return MOBILE_RE.test(v) ? null : '须为 11 位手机号（如 13812345678）';
}

export function landlineProblem(v: string): string | null {
  return LANDLINE_RE.test(v) ? null : '须为固定电话（如 010-12345678，分机写在后面：010-12345678-123）';
}

/** A duty room or a person: a mobile or a landline. */
export function phoneProblem(v: string): string | null {
  return MOBILE_RE.test(v) || LANDLINE_RE.test(v)
    ? null
    : '须为手机号或固定电话（如 13812345678 或 010-12345678）';
}

/** 13812341234 → 138****1234 (lists show phones masked; records-design §1). */
export function maskPhone(v: string): string {
  if (v.length >= 11) return `${v.slice(0, 3)}****${v.slice(-4)}`;
  return v.length > 4 ? `${'*'.repeat(v.length - 4)}${v.slice(-4)}` : v;
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** The check character of the first 17 digits of a resident ID (GB 11643, ISO 7064 mod 11-2). */
export function idCardCheck(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i]!;
  return ID_CHECK[sum % 11]!;
}

/**
 * A resident identity card number (居民身份证, GB 11643-1999): 18 characters, a real birth date
 * not in the future, and the check character (X in either case). `today` is 'yyyy-MM-dd'.
 */
export function idCardProblem(v: string, today?: string): string | null {
  const id = v.toUpperCase();
  if (!/^\d{17}[\dX]$/.test(id)) return '须为 18 位居民身份证号码（最后一位可以是 X）';
  const birth = idCardBirthDate(id);
  if (!birth || (today && birth > today) || birth < '1900-01-01') return '中的出生日期不正确，请核对';
  if (idCardCheck(id.slice(0, 17)) !== id[17]) return '校验位不正确，请核对后重新输入';
  return null;
}

/** 'yyyy-MM-dd' of the birth date in an 18-digit ID, or null when it is no real date. */
export function idCardBirthDate(id: string): string | null {
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}`;
}

/** 1 男 or 2 女, from the 17th digit (odd: male). */
export function idCardGender(id: string): 1 | 2 {
  return Number(id[16]) % 2 === 1 ? 1 : 2;
}

/** 110101199003071234 → 1101**********1234. */
export function maskIdNumber(v: string): string {
  if (v.length <= 8) return v.length > 2 ? `${'*'.repeat(v.length - 2)}${v.slice(-2)}` : v;
  return `${v.slice(0, 4)}${'*'.repeat(v.length - 8)}${v.slice(-4)}`;
}

const digitsOf = (v: string) => v.replace(/[\s-]/g, '').toUpperCase();

function isbn13CheckOk(d: string): boolean {
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += Number(d[i]) * (i % 2 === 0 ? 1 : 3);
  return sum % 10 === 0;
}

function isbn10CheckOk(d: string): boolean {
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (d[i] === 'X' ? 10 : Number(d[i])) * (10 - i);
  return sum % 11 === 0;
}

/** The ISBN-13 of an ISBN-10 (978 prefix, new check digit). */
export function isbn10To13(isbn10: string): string {
  const body = `978${digitsOf(isbn10).slice(0, 9)}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/**
 * An ISBN as stored: 13 digits. An ISBN-10 entered (old books) is converted; hyphens and spaces
 * are dropped. Null when it is neither a valid ISBN-13 (978/979) nor a valid ISBN-10.
 */
export function normalizeIsbn(v: string): string | null {
  const d = digitsOf(v);
  if (/^97[89]\d{10}$/.test(d)) return isbn13CheckOk(d) ? d : null;
  if (/^\d{9}[\dX]$/.test(d)) return isbn10CheckOk(d) ? isbn10To13(d) : null;
  return null;
}

export function isbnProblem(v: string): string | null {
  const d = digitsOf(v);
  if (!/^97[89]\d{10}$/.test(d) && !/^\d{9}[\dX]$/.test(d))
    return '须为 13 位 ISBN（978 或 979 开头）或 10 位旧 ISBN';
  return normalizeIsbn(v) ? null : '校验位不正确，请核对后重新输入';
}

/** ISSN: NNNN-NNNC, the check character mod 11 (X for 10). */
export function issnProblem(v: string): string | null {
  const s = v.trim().toUpperCase();
  if (!/^\d{4}-\d{3}[\dX]$/.test(s)) return '须为 NNNN-NNNC 格式（如 0254-4164）';
  const d = s.replace('-', '');
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(d[i]) * (8 - i);
  const check = (11 - (sum % 11)) % 11;
  return (check === 10 ? 'X' : String(check)) === d[7] ? null : '校验位不正确，请核对后重新输入';
}

/** 国内统一连续出版物号 (CN 刊号): CN 11-1234 or CN 11-1234/K. */
export const CN_SERIAL_RE = /^CN\s?\d{2}-\d{4}(\/[A-Z]{1,2})?$/;
export function cnSerialProblem(v: string): string | null {
  return CN_SERIAL_RE.test(v.trim()) ? null : '须为 CN 刊号格式（如 CN 11-1234/K）';
}

/** The 22 basic classes of the 中国图书馆分类法 (CLC), by letter. */
export const CLC_CLASSES: readonly { value: string; label: string }[] = [
  { value: 'A', label: '马克思主义、列宁主义、毛泽东思想、邓小平理论' },
  { value: 'B', label: '哲学、宗教' },
  { value: 'C', label: '社会科学总论' },
  { value: 'D', label: '政治、法律' },
  { value: 'E', label: '军事' },
  { value: 'F', label: '经济' },
  { value: 'G', label: '文化、科学、教育、体育' },
  { value: 'H', label: '语言、文字' },
  { value: 'I', label: '文学' },
  { value: 'J', label: '艺术' },
  { value: 'K', label: '历史、地理' },
  { value: 'N', label: '自然科学总论' },
  { value: 'O', label: '数理科学和化学' },
  { value: 'P', label: '天文学、地球科学' },
  { value: 'Q', label: '生物科学' },
  { value: 'R', label: '医药、卫生' },
  { value: 'S', label: '农业科学' },
  { value: 'T', label: '工业技术' },
  { value: 'U', label: '交通运输' },
  { value: 'V', label: '航空、航天' },
  { value: 'X', label: '环境科学、安全科学' },
  { value: 'Z', label: '综合性图书' },
];
const CLC_LETTERS = new Set(CLC_CLASSES.map((c) => c.value));

/** 中图分类号: one of the 22 class letters first (K878.2, TP311.13, I247.5). */
export function clcProblem(v: string): string | null {
  const s = v.trim().toUpperCase();
  if (!/^[A-Z][A-Z0-9.\-/=:()"<>+]{0,29}$/.test(s) || !CLC_LETTERS.has(s[0]!))
    return '须以中图法 22 个基本大类的字母开头（如 K878.2、TP311）';
  return null;
}

/** The largest amount a money field takes: 9 999 999 999.99 yuan. */
export const MONEY_MAX = 9_999_999_999.99;

/** Money: not negative, at most 2 decimals. */
export function moneyProblem(v: number): string | null {
  if (!Number.isFinite(v)) return '须为金额数字（如 128.50）';
  if (v < 0) return '不能为负数';
  if (v > MONEY_MAX) return '金额过大';
  if (Math.round(v * 100) !== Number((v * 100).toFixed(6))) return '最多保留 2 位小数';
  return null;
}

/**
 * An address embedded or linked from our pages (digital exhibitions, carousels): https only,
 * on a host of the allow-list (the host itself or a subdomain of it). An empty list allows no
 * host at all, so a museum that has set none cannot be made to frame a stranger's page.
 */
export function httpsUrlProblem(v: string, allowedHosts: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(v.trim());
  } catch {
    return '须为完整的网址（以 https:// 开头）';
  }
  if (url.protocol !== 'https:') return '须以 https:// 开头';
  if (url.username || url.password) return '不能包含用户名或密码';
  const host = url.hostname.toLowerCase();
  const ok = allowedHosts.some((h) => {
    const a = h.trim().toLowerCase();
    return a !== '' && (host === a || host.endsWith(`.${a}`));
  });
  return ok ? null : `的域名 ${host} 不在允许的网站名单中，请联系管理员添加`;
}
