import { z } from 'zod';
import { spoofProblem } from '../drive/names';
// Installs the Chinese error map before any schema here or in a module importing this runs.
import './messages';

/** Building blocks shared by the API contracts. */

/** Turns a shared rule (a Chinese message or null) into a zod refinement, so forms and server say the same words. */
export function rule(check: (v: string) => string | null) {
  return (v: string, ctx: z.RefinementCtx) => {
    const problem = check(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };
}

/**
 * For titles and names that colleagues read (projects, boards, tasks, notices, templates): no
 * text-direction or invisible characters, which would make them read as something else
 * (issue 16 §3; the rule is the drive's, `spoofProblem`).
 */
export const visibleText = (what: string) => rule((v) => spoofProblem(v, what));

/**
 * A positive whole id, from a number or its text. Not z.coerce: that turns a missing id into NaN
 * (必须是数字 instead of 请填写…) and `true` into 1. A refusal names the field through the error
 * map: 请填写文件编号, 文件编号必须是数字, 文件编号必须大于 0.
 */
export const Id = z.preprocess(
  // '' is a field left empty (请填写…), not the id 0.
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v),
  z.number().int().positive(),
) as unknown as z.ZodType<number, number | string>;

/**
 * An optional field where an empty value means "not given", as clients send unused parameters
 * (`isMin=&isAdmin=`); before, z.coerce read '' as 0, which meant the same for these flags.
 */
export function absentIfEmpty<T extends z.ZodType>(s: T): z.ZodOptional<T> {
  return z
    .preprocess((v) => (v === '' ? undefined : v), s.optional())
    .optional() as unknown as z.ZodOptional<T>;
}

/**
 * What a boolean-like field may arrive as: real booleans and 0/1 in JSON, and the strings a
 * query or a form carries. The drive client this spec descends from sends `isMin=true`; ours
 * sends 1; both mean the same. (The static input types below are what our own app sends; the
 * server accepts every spelling at run time.)
 */
type FlagInput = boolean | number | string;

function flagOf(v: unknown): 0 | 1 | undefined {
  if (v === true || v === 1) return 1;
  if (v === false || v === 0) return 0;
  if (typeof v !== 'string') return undefined;
  const s = v.trim().toLowerCase();
  if (s === '1' || s === 'true') return 1;
  if (s === '0' || s === 'false') return 0;
  return undefined;
}

function flagSchema<T, In>(out: (f: 0 | 1) => T): z.ZodType<T, In> {
  return z
    .custom<FlagInput>((v) => flagOf(v) !== undefined, { params: { kind: 'flag' } })
    .transform((v) => out(flagOf(v)!)) as unknown as z.ZodType<T, In>;
}

/**
 * A yes/no field as the services have always received it, 1 or 0, from `true`/`false`,
 * `1`/`0` (strings, numbers, booleans). Anything else: `<字段>只能是 true 或 false（也可以是 1 或 0）`.
 */
export const Flag = (): z.ZodType<0 | 1, number | boolean> => flagSchema((f) => f);

/** The same, for fields the services receive as a boolean. */
export const BoolFlag = (): z.ZodType<boolean, boolean> => flagSchema((f) => f === 1);

/**
 * A list of ids, also when a client sends one id where a list is expected: `[5, 6]`, `5`, `'5'`,
 * and the spec's text forms `'5,6'` and `'[5,6]'`. `list` bounds the resulting array (its own
 * min/max messages). Order is kept; repeats are the caller's to drop.
 */
export function oneOrMany<S extends z.ZodType<number[]>>(
  list: S,
  /** The field's own label, when it has one (a record's field): the words name it, not its key. */
  label?: string,
): z.ZodType<z.output<S>, z.input<S>> {
  return z.preprocess((v, ctx) => {
    if (v === undefined || typeof v === 'number' || typeof v === 'string' || Array.isArray(v))
      return toIdList(v);
    // An object or a boolean is neither an id nor a list: say what is wanted (接收人必须是编号或编号列表…).
    ctx.addIssue({
      code: 'custom',
      params: { kind: 'idList' },
      input: v,
      ...(label ? { message: `${label}必须是编号或编号列表，例如 5 或 [5, 6]` } : {}),
    });
    return z.NEVER;
  }, list) as unknown as z.ZodType<z.output<S>, z.input<S>>;
}

function toIdList(v: unknown): unknown {
  if (typeof v === 'number') return [v];
  if (typeof v !== 'string') return v;
  const s = v.trim();
  if (s === '') return [];
  if (s.startsWith('[')) {
    try {
      return JSON.parse(s);
    } catch {
      return v;
    }
  }
  // '5' or '5,6': a wrong piece stays a string, so the item schema names it (第 2 项…必须是数字).
  return s.split(',').map((p) => (/^\s*\d+\s*$/.test(p) ? Number(p) : p.trim()));
}

/**
 * A list of ids as the spec sends it: JSON text of `[{<key>: id}]` (or that array itself).
 * Plain ids are unambiguous here (the key is fixed), so `5`, `'5,6'`, `[5, 6]` and `'[5,6]'`
 * are taken as the same list. Text that is none of these answers
 * `<字段>格式不正确：应为 [{"userFileId": 1}] 这样的列表`; a bad item names its place
 * (文件列表第 2 项的文件编号必须是数字). Answers the distinct ids; 1–1000 of them.
 */
export function idListField<K extends string>(key: K) {
  // A plain item (5, '5', 'abc') is read as {key: item}, so a bad one is named by its place and
  // key: 文件列表第 2 项的文件编号必须是数字.
  const item = z.preprocess(
    (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : { [key]: v }),
    z.object({ [key]: Id } as Record<K, typeof Id>),
  );
  const list = z.array(item).min(1, '请选择文件').max(1000, '一次最多操作 1000 项');
  type In = string | number | (number | string | Record<K, number | string>)[];
  return z
    .preprocess((v, ctx) => {
      if (typeof v === 'number') return [v];
      if (Array.isArray(v) || v === undefined) return v;
      if (typeof v !== 'string') {
        ctx.addIssue({ code: 'custom', params: { kind: 'objectList' }, input: v });
        return z.NEVER;
      }
      const s = v.trim();
      if (/^\d+(\s*,\s*\d+)*$/.test(s)) return s.split(',').map((p) => Number(p));
      try {
        const parsed: unknown = JSON.parse(s);
        if (Array.isArray(parsed)) return parsed;
      } catch {
        /* reported below */
      }
      ctx.addIssue({ code: 'custom', params: { kind: 'objectList' }, input: v });
      return z.NEVER;
    }, list)
    .transform((rows) => [
      ...new Set(rows.map((r) => (r as Record<string, number>)[key]!)),
    ]) as unknown as z.ZodType<number[], In>;
}

/**
 * The two fields of an offline write's device clock (rules/clock-offset.ts `DeviceClock`): the
 * device's time at the moment and its measured offset, bounded to a week (the outbox's keys
 * live that long). `device` names the device in the refusal (手机时间必须是数字).
 */
export function deviceClockFields(device: string) {
  return {
    deviceTime: z.coerce.number(`${device}时间必须是数字`).int().nonnegative().optional(),
    serverOffsetMs: z.coerce
      .number('时钟偏差必须是数字')
      .int()
      .min(-7 * 86_400_000)
      .max(7 * 86_400_000)
      .optional(),
  };
}
