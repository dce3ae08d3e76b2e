/**
 * What the system log keeps of a request's parameters: everything a reader needs to see what
 * was asked, and no secret. Secrets are found two ways, both recursive through objects and
 * lists (JSON bodies, query strings, form-encoded and multipart fields alike):
 *
 * - by key: passwords, tokens, secrets, share codes (提取码), cookies and signatures are replaced
 *   by `******`; ID-card, passport and certificate numbers are masked to their first and last
 *   four characters (1101**********1234, the lists' own mask, records-design §1); file contents
 *   (`fileContent`, multipart file parts, raw bodies) are never kept, only their size or name;
 * - by value, wherever they stand (a note, a file name, an error message): ID numbers (15 or
 *   18 characters) are masked the same way, and JSON web tokens, `Bearer …` credentials and
 *   session-token-like strings (40+ random base64url characters) become `******`.
 *
 * Long texts are cut (a notice's body need not be stored twice) and the whole is bounded, so a
 * large request cannot make a large log row.
 */

export const HIDDEN = '******';

/** Keys (lowercase, without `_` and `-`) whose values are secrets. */
const SECRET_KEY =
  /(password|passwd|pwd|secret|token|jwt|authorization|cookie|sessionid|extractioncode|sharecode|captcha|verifycode|smscode|privatekey|apikey|accesskey|signature)/;
/** Keys whose values are identity document numbers. */
const ID_KEY =
  /(idcard|idno$|idnum|identitycard|identityno|identitynum|certno|certnum|certificateno|certificatenum|passport|sfz|zjhm|credentialno)/;
/** Keys whose values are a file's bytes or text. */
const CONTENT_KEY = /^(filecontent|filedata|filebody|base64|blob)$/;

const ID_18 = /(?<![0-9A-Za-z])\d{17}[\dXx](?![0-9A-Za-z])/g;
const ID_15 = /(?<![0-9A-Za-z])\d{15}(?![0-9A-Za-z])/g;
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const LONG_RANDOM = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{40,}(?![A-Za-z0-9_-])/g;
// eslint-disable-next-line no-control-regex -- the point: strip control characters
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export interface Limits {
  /** Longest string kept whole. */
  text: number;
  /** Most list items kept. */
  items: number;
  /** Most keys kept of one object. */
  keys: number;
  /** Deepest nesting kept. */
  depth: number;
}
const FULL: Limits = { text: 500, items: 50, keys: 100, depth: 8 };
const TIGHT: Limits = { text: 100, items: 10, keys: 40, depth: 4 };
/** The most characters of parameters one entry stores. */
export const PARAMS_MAX = 8000;

const normKey = (k: string) => k.toLowerCase().replace(/[_-]/g, '');
export const isSecretKey = (k: string) => SECRET_KEY.test(normKey(k));
export const isIdKey = (k: string) => ID_KEY.test(normKey(k));

/** An ID number with only its first and last four characters shown. */
export function maskId(v: string): string {
  return v.length < 12 ? HIDDEN : `${v.slice(0, 4)}${'*'.repeat(v.length - 8)}${v.slice(-4)}`;
}

const classOf = (c: string) =>
  c >= 'a' && c <= 'z' ? 0 : c >= 'A' && c <= 'Z' ? 1 : c >= '0' && c <= '9' ? 2 : 3;

/**
 * A random-looking run (a session token, a key): upper and lower case mixed all through it and
 * many distinct characters. An MD5 (one case), a word or a CamelCase name (few changes of case)
 * is not one.
 */
function looksRandom(s: string): boolean {
  let changes = 0;
  for (let i = 1; i < s.length; i++) if (classOf(s[i]!) !== classOf(s[i - 1]!)) changes++;
  return /[a-z]/.test(s) && /[A-Z]/.test(s) && new Set(s).size >= 20 && changes >= s.length * 0.3;
}

/** Free text with every secret found by its look masked (see the file's comment). */
export function redactText(s: string): string {
  return s
    .replace(CONTROL, '')
    .replace(JWT, HIDDEN)
    .replace(BEARER, (_m, kind: string) => `${kind} ${HIDDEN}`)
    .replace(LONG_RANDOM, (m) => (looksRandom(m) ? HIDDEN : m))
    .replace(ID_18, maskId)
    .replace(ID_15, maskId);
}

/** At most `n` UTF-16 units, never splitting a surrogate pair, with what was cut said. */
export function clip(s: string, n: number): string {
  if (s.length <= n) return s;
  let end = n;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${s.slice(0, end)}…（共 ${s.length} 字）`;
}

/** A column's text: control characters gone, secrets masked, at most `n` characters. */
export function cleanText(s: string, n: number): string {
  const t = redactText(s);
  if (t.length <= n) return t;
  const c = t.charCodeAt(n - 1);
  return t.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function redactValue(v: unknown, lim: Limits, depth: number): unknown {
  if (v === null || v === undefined || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    // A 15- or 18-digit ID number sent as a JSON number.
    const t = String(v);
    return /^\d{15}$|^\d{18}$/.test(t) ? maskId(t) : v;
  }
  if (typeof v === 'bigint') return String(v);
  // Masked before it is cut, so no half of a secret survives at the cut.
  if (typeof v === 'string') return clip(redactText(v.length > 100_000 ? v.slice(0, 100_000) : v), lim.text);
  if (typeof v !== 'object') return `[${typeof v}]`;
  if (depth >= lim.depth) return '[…]';
  if (Array.isArray(v)) {
    const kept = v.slice(0, lim.items).map((x) => redactValue(x, lim, depth + 1));
    return v.length > lim.items ? [...kept, `…（共 ${v.length} 项）`] : kept;
  }
  // Buffers, streams and other non-plain objects are a body's bytes: never kept.
  if (!isPlainObject(v)) return '[二进制内容，不记录]';
  const out: Record<string, unknown> = {};
  const keys = Object.keys(v);
  for (const k of keys.slice(0, lim.keys)) {
    const x = (v as Record<string, unknown>)[k];
    const key = cleanText(k, 60);
    if (x === undefined) continue;
    if (isSecretKey(k)) out[key] = HIDDEN;
    else if (CONTENT_KEY.test(normKey(k)))
      out[key] = typeof x === 'string' ? `[文件内容 ${x.length} 字，不记录]` : '[文件内容，不记录]';
    else if (isIdKey(k))
      out[key] = typeof x === 'string' || typeof x === 'number' ? maskId(String(x)) : HIDDEN;
    else out[key] = redactValue(x, lim, depth + 1);
  }
  if (keys.length > lim.keys) out['…'] = `共 ${keys.length} 个字段`;
  return out;
}

/** Any parameters, redacted and bounded (see the file's comment). */
export function redact(v: unknown): unknown {
  return redactValue(v, FULL, 0);
}

/**
 * The parameters as the JSON text stored, at most PARAMS_MAX characters; null when there are
 * none. Too long even when tightened: the first part of the (already redacted) text is kept as
 * a string, so what is stored is always valid JSON.
 */
export function paramsText(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'object' && !Array.isArray(v) && isPlainObject(v) && Object.keys(v).length === 0)
    return null;
  let text = JSON.stringify(redactValue(v, FULL, 0));
  if (text.length > PARAMS_MAX) text = JSON.stringify(redactValue(v, TIGHT, 0));
  if (text.length > PARAMS_MAX) text = JSON.stringify({ 参数过长: clip(text, PARAMS_MAX / 2) });
  return text;
}
