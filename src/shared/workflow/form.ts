import { UNIT, type FormField } from './definition';
import type { FormValues } from './conditions';
import {
  durationText,
  isHalf,
  rangeDuration,
  rangeMax,
  rangeText,
  type Half,
  type RangeEnds,
  type RangeValue,
} from './duration';
import { numberProblem } from './numbers';
import { parseMuseumDate, parseMuseumMinute } from '../rules/museum-time';

/**
 * A request's form against its template version's fields (issue 8): required fields, value
 * types, option keys, amounts with at most 2 decimals, date ranges whose end is not before the
 * start. Pure, so the start dialog can show the same words the server answers with. Values the
 * fields do not name are dropped, so a stored form holds exactly the template's fields.
 */

export const FORM_MSG = {
  required: (label: string) => `请填写“${label}”`,
  text: (label: string) => `“${label}”应为文字`,
  tooLong: (label: string, max: number) => `“${label}”最多 ${max} 个字`,
  number: (label: string, problem: string) => `“${label}”：${problem}`,
  negative: (label: string) => `“${label}”不能小于 0`,
  date: (label: string) => `“${label}”的日期格式应为 yyyy-MM-dd`,
  rangeOrder: (label: string) => `“${label}”的结束时间不能早于开始时间`,
  duration: (label: string) => `请填写“${label}”的时长（大于 0）`,
  time: (label: string) => `“${label}”的时间格式应为 yyyy-MM-dd HH:mm`,
  half: (label: string) => `“${label}”请选择上午或下午`,
  empty: (label: string) => `“${label}”的结束时间应晚于开始时间`,
  rangeTooLong: (label: string, max: string) => `“${label}”最长 ${max}，请分成几次申请`,
  mismatch: (label: string, expected: string) =>
    `“${label}”的时长应为 ${expected}（按起止时间计算），请重新选择起止时间后再提交`,
  option: (label: string) => `“${label}”的选项不存在，请重新选择`,
  ids: (label: string) => `“${label}”的选择不正确，请重新选择`,
  tooMany: (label: string, max: number) => `“${label}”最多选择 ${max} 项`,
  docNo: (label: string) => `“${label}”应写成 机关代字〔年份〕序号号，例如 馆办发〔2026〕12号（序号不加 0）`,
} as const;

/**
 * 发文字号 (GB/T 9704-2012 §7.2.4): the issuing body's code, the year in 〔〕 and the number
 * with 号, e.g. 馆办发〔2026〕12号. People type the year's brackets however their input method
 * gives them ([] ［］ () （） 【】 〔〕 ﹝﹞) and sometimes spaces; those are read as 〔〕 so the
 * stored number is the one printed on the document. The sequence has no leading 0 (the
 * standard: 不编虚位), so 012号 and 12号 cannot be two different documents.
 */
const DOC_NO_RE = /^([\u4e00-\u9fa5A-Za-z]{1,12})〔(\d{4})〕([1-9]\d{0,5})号$/;
export function normalizeDocNo(raw: string): string | null {
  const s = raw
    .replace(/\s+/g, '')
    .replace(/[[［(（【﹝〔]/g, '〔')
    .replace(/[\]］)）】﹞〕]/g, '〕');
  const m = DOC_NO_RE.exec(s);
  if (!m) return null;
  const year = Number(m[2]);
  // Four digits alone would take 0026 (a slip for 2026); a document's year is a real one.
  if (year < 1900 || year > 2100) return null;
  return s;
}

/** Text limits: a line, a paragraph. */
export const TEXT_MAX = 200;
export const TEXTAREA_MAX = 2000;
/** Attachments, people or departments one field holds. */
export const IDS_MAX = 50;

export type FormCheck = { ok: true; form: FormValues } | { ok: false; message: string };

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
function isDate(v: unknown, re = DATE_RE): v is string {
  if (typeof v !== 'string' || !re.test(v)) return false;
  const d = new Date(`${v.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v.slice(0, 10);
}
const empty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** One field's value, checked and normalised; a string is the Chinese refusal. */
function checkValue(f: FormField, v: unknown): { value: unknown } | string {
  const { label } = f;
  switch (f.type) {
    case 'text':
    case 'textarea': {
      if (typeof v !== 'string') return FORM_MSG.text(label);
      const max = f.type === 'text' ? TEXT_MAX : TEXTAREA_MAX;
      if (v.length > max) return FORM_MSG.tooLong(label, max);
      if (f.type === 'text' && f.format === 'docNo') {
        const docNo = normalizeDocNo(v);
        return docNo === null ? FORM_MSG.docNo(label) : { value: docNo };
      }
      return { value: v.trim() };
    }
    case 'number':
    case 'amount': {
      const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '';
      const problem = numberProblem(text, 2);
      if (problem) return FORM_MSG.number(label, problem);
      const n = Number(text);
      if (!Number.isFinite(n)) return FORM_MSG.number(label, '请输入数字');
      if (f.type === 'amount' && n < 0) return FORM_MSG.negative(label);
      return { value: n };
    }
    case 'date':
      return isDate(v) ? { value: v } : FORM_MSG.date(label);
    case 'dateRange':
      return checkRange(f, v);
    case 'radio': {
      const keys = (f.options ?? []).map((o) => o.key);
      return typeof v === 'string' && keys.includes(v) ? { value: v } : FORM_MSG.option(label);
    }
    case 'checkbox': {
      const keys = (f.options ?? []).map((o) => o.key);
      if (!Array.isArray(v) || v.some((k) => typeof k !== 'string' || !keys.includes(k))) {
        return FORM_MSG.option(label);
      }
      return { value: [...new Set(v as string[])] };
    }
    case 'person':
    case 'dept':
    case 'attachment':
    case 'image': {
      const ids = typeof v === 'number' ? [v] : v;
      if (!Array.isArray(ids) || ids.some((n) => !Number.isInteger(n) || (n as number) <= 0)) {
        return FORM_MSG.ids(label);
      }
      if (ids.length > IDS_MAX) return FORM_MSG.tooMany(label, IDS_MAX);
      return { value: [...new Set(ids as number[])] };
    }
  }
}

/**
 * A date range (shared/workflow/duration.ts): real ends in the field's unit (days with an
 * optional 上午/下午 each, hours with a time), the end not before the start, at most a year.
 * The duration is computed here, never taken from the client: one sent that differs is
 * refused (a stale or tampered form), one left out is filled in.
 */
function checkRange(f: FormField, v: unknown): { value: RangeValue } | string {
  const { label } = f;
  const hours = f.unit === UNIT.hours;
  const r = v as Partial<Record<keyof RangeValue, unknown>> | null;
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return FORM_MSG.date(label);
  const real = (x: unknown): x is string =>
    typeof x === 'string' && (hours ? parseMuseumMinute(x) : parseMuseumDate(x)) !== null;
  if (!real(r.start) || !real(r.end)) return hours ? FORM_MSG.time(label) : FORM_MSG.date(label);
  if (
    !hours &&
    ((r.startHalf !== undefined && !isHalf(r.startHalf)) || (r.endHalf !== undefined && !isHalf(r.endHalf)))
  )
    return FORM_MSG.half(label);
  const ends: RangeEnds = hours
    ? { start: r.start, end: r.end }
    : {
        start: r.start,
        end: r.end,
        startHalf: (r.startHalf as Half) ?? 'am',
        endHalf: (r.endHalf as Half) ?? 'pm',
      };
  const d = rangeDuration(ends, f.unit);
  if (d === null) return FORM_MSG.rangeOrder(label);
  if (d <= 0) return FORM_MSG.empty(label);
  if (d > rangeMax(f.unit)) return FORM_MSG.rangeTooLong(label, durationText(rangeMax(f.unit), f.unit));
  if (r.duration !== undefined && r.duration !== null) {
    const sent = typeof r.duration === 'number' ? r.duration : Number(r.duration);
    if (!Number.isFinite(sent) || Math.abs(sent - d) > 0.005)
      return FORM_MSG.mismatch(label, durationText(d, f.unit));
  }
  return { value: { ...ends, duration: d } };
}

/** Checks a whole form; the first problem, in field order, refuses it. */
export function checkForm(fields: readonly FormField[], values: FormValues): FormCheck {
  const form: FormValues = {};
  for (const f of fields) {
    const v = values[f.id];
    if (empty(v) || (typeof v === 'string' && v.trim() === '')) {
      if (f.required) return { ok: false, message: FORM_MSG.required(f.label) };
      continue;
    }
    const r = checkValue(f, v);
    if (typeof r === 'string') return { ok: false, message: r };
    form[f.id] = r.value;
  }
  return { ok: true, form };
}

/** A stored value as the detail shows it (options by their text, ranges with their duration). */
export function displayValue(
  f: FormField,
  v: unknown,
  names: { person?: (id: number) => string; dept?: (id: number) => string } = {},
): string {
  if (empty(v)) return '';
  const option = (k: unknown) => f.options?.find((o) => o.key === k)?.value ?? String(k);
  switch (f.type) {
    case 'radio':
      return option(v);
    case 'checkbox':
      return (v as unknown[]).map(option).join('、');
    case 'dateRange': {
      const r = v as RangeValue;
      return `${rangeText(r)}（${durationText(r.duration, f.unit)}）`;
    }
    case 'amount':
      return `${Number(v).toFixed(2)}元`;
    case 'person':
      return (v as number[]).map((id) => names.person?.(id) ?? String(id)).join('、');
    case 'dept':
      return (v as number[]).map((id) => names.dept?.(id) ?? String(id)).join('、');
    case 'attachment':
    case 'image':
      return `${(v as unknown[]).length} 个附件`;
    default:
      return String(v);
  }
}
