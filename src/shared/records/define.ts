import type { z as Z } from 'zod';
import type { oneOrMany as OneOrMany } from '../api/fields';
import { addRecordLabels } from '../api/labels';
import type { issueText as IssueText, labelledIssue as LabelledIssue } from '../api/messages';
import { spoofProblem } from '../drive/names';
import { parseMuseumMinute } from '../rules/museum-time';
import { moneyProblem } from './validators';
import type { RecordDetail, RecordPage } from './api';

/**
 * The records engine's one idea (ARCHITECTURE.md §9, research/records-design.md §2): a record is
 * declared once, here in shared, and the server's routes, validation and SQL, the client's
 * types and the UI's list, form and detail all read that one object.
 *
 * A declaration is plain data plus a few small functions (a record's own rules). There is no
 * class hierarchy and nothing is generated: `src/server/records` and `src/app/features/records`
 * read the same object directly. This file is the whole vocabulary; a newcomer starts here,
 * then reads one record (`office/duty-roster.ts`).
 */

// ---------------------------------------------------------------------------------------------
// zod, linked in

/*
 * This file declares records without loading zod: the workbench and other pages read a record's
 * words, columns and choices (its title, labels, dictionaries) and never validate it, and zod is
 * 26 KiB gzip of the workbench's JavaScript (issue 25). A field's schema is built on its first
 * read, by zod and the helpers below, which ./schemas.ts links in when it loads. Whoever reads a
 * schema imports ./schemas.ts (the server's routes, the forms, the API contracts built from
 * fields); a read before that fails at once, naming the file to import.
 */
let z: typeof Z;
let oneOrMany: typeof OneOrMany;
let labelledIssue: typeof LabelledIssue;
let issueText: typeof IssueText;

/** Called once by ./schemas.ts. */
export function linkSchemas(kit: {
  z: typeof Z;
  oneOrMany: typeof OneOrMany;
  labelledIssue: typeof LabelledIssue;
  issueText: typeof IssueText;
}) {
  ({ z, oneOrMany, labelledIssue, issueText } = kit);
}

// ---------------------------------------------------------------------------------------------
// Fields

export type FieldKind =
  | 'text'
  | 'textarea'
  | 'rich'
  | 'int'
  | 'money'
  | 'date'
  | 'time'
  | 'datetime'
  | 'dict'
  | 'status'
  | 'bool'
  | 'user'
  | 'users'
  | 'dept'
  /** Roles of the organisation (ids): a transition's input only (an approval granting roles). */
  | 'roles'
  | 'file'
  | 'image'
  | 'ref'
  /** Rows of another record (ids): a multiple `ref`, stored as ',3,7,' (see `f.refs`). */
  | 'refs'
  | 'list';

/** A choice of a status field, with the colour its badge and tab take. */
export interface StatusOption {
  value: number;
  label: string;
  color?: string;
}

/** How the UI shows a field (the server reads `filter`, `keyword` and `mask` too). */
export interface FieldUi {
  /** A column of the list (and a line of the phone card). */
  list?: boolean;
  /** A filter of the list: `eq` one value; `range` from/to (dates, numbers); `contains` one of a list (a person, a group). */
  filter?: 'eq' | 'range' | 'contains';
  /** Searched by the list's keyword box (text fields). */
  keyword?: boolean;
  /**
   * Personal data: masked in lists, whole only in the detail to writers (records-design §1).
   * `writersOnly`: never shown to someone without the write grant (a storeroom location).
   */
  mask?: 'phone' | 'idNumber' | 'writersOnly';
  /** Not in the form: set by the server (a status moved by transitions, a derived count). */
  form?: false;
  /** Not in the xlsx import template (rich text, derived fields). Default: form fields import. */
  importable?: false;
  placeholder?: string;
  /** One line under the input. */
  help?: string;
  /** Column width in the table, px. */
  width?: number;
  /** A datetime shown to the second (a log's time), not to the minute. */
  seconds?: boolean;
}

export interface Field extends FieldUi {
  kind: FieldKind;
  label: string;
  required: boolean;
  /**
   * Validates one value as a client sends it (JSON, a form-encoded body, an xlsx cell read as
   * text) and answers the stored value, or undefined for an optional field left empty. Every
   * message names the field by `label`.
   */
  schema: Z.ZodType;
  /** What an optional field left empty stores (and what the form starts from). */
  empty: unknown;
  /** The dictionary (collectDict key) a `dict` field draws its options from. */
  dict?: string;
  /** The choices of a `status` field. */
  options?: readonly StatusOption[];
  /** The longest text, for the input's counter; the most files of a file field, rows of a list. */
  max?: number;
  /** The value a new record starts with when the field is not in the form (a status). */
  initial?: unknown;
  /** A file field's types (extensions, lower case; any when absent) and largest file in bytes. */
  accept?: { types?: readonly string[]; maxBytes?: number };
  /**
   * A ref (or refs) field: the record it points to, and that record's field naming a row (its
   * title). `active`: a row newly chosen must hold this value in this field (an enabled group);
   * a value kept unchanged stays valid after the row is disabled.
   */
  ref?: { record: string; by: string; active?: { field: string; value: unknown } };
  /** A list field: the fields of one of its rows. */
  sub?: Fields;
  /**
   * A text field that is a multiple choice of fixed words (可服务时间): stored as the chosen
   * words joined by 、 in this order, so the column stays text and older free text still reads.
   */
  choices?: readonly string[];
  /**
   * An older caller's key for this field, read as the field when a body lacks the field itself
   * (意向服务组 was one `groupId` before it became `groupIds`): the call's contract does not break.
   */
  alias?: string;
}

interface Common extends FieldUi {
  required?: boolean;
}

export const blank = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Empty input (missing, null, '') reads as "not given", then required or optional applies.
 *
 * `inner` is built on the first read of `schema`, not when the record is declared: about 70
 * records declare some 900 fields, and building every one's zod schemas at import was a tenth
 * of the server's start and part of every signed-in page's (issue 25), though most are not
 * used until someone saves that record.
 */
function field(
  kind: FieldKind,
  label: string,
  o: Common,
  inner: () => Z.ZodType,
  empty: unknown,
  extra: Partial<Field> = {},
): Field {
  const { required = false, ...ui } = o;
  let schema: Z.ZodType | undefined;
  return {
    kind,
    label,
    required,
    empty,
    ...ui,
    ...extra,
    get schema() {
      if (!z) throw new Error(`${label}：读取字段的校验规则前请先引用 shared/records/schemas.ts`);
      // The label rides along as the JSON schema's title (the OpenAPI document shows it).
      schema ??= z
        .preprocess((v) => (blank(v) ? undefined : v), required ? inner() : inner().optional())
        .meta({ title: label });
      return schema;
    },
  };
}

/** A number from a number or its text (a form or a cell sends text); anything else stays as it is. */
const toNumber = (v: unknown) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v);
const toText = (v: unknown) => (typeof v === 'number' ? String(v) : v);

/** Text rules every one-line text obeys: no control characters, no spoofing characters. */
function textRules(label: string, v: string, ctx: Z.RefinementCtx) {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(v))
    ctx.addIssue({ code: 'custom', message: `${label}不能包含控制字符` });
  const spoof = spoofProblem(v, label);
  if (spoof) ctx.addIssue({ code: 'custom', message: spoof });
}

/** Adds `${label}${problem}` when a shared validator (validators.ts) finds one. */
function validated(label: string, check?: (v: string) => string | null) {
  return (v: string, ctx: Z.RefinementCtx) => {
    textRules(label, v, ctx);
    const problem = check?.(v);
    if (problem) ctx.addIssue({ code: 'custom', message: `${label}${problem}` });
  };
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Whether 'yyyy-MM-dd' is a real day. */
export function isRealDate(v: string): boolean {
  if (!DATE_RE.test(v)) return false;
  const [y, m, d] = v.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/**
 * A field with some of its properties changed (a starting value, what empty stores), keeping its
 * schema unbuilt: a spread (`{ ...f.int(…), empty: 9999 }`) would read the schema there and then,
 * when a record is declared, before zod is linked in.
 */
export function withField(fd: Field, changes: Partial<Omit<Field, 'schema'>>): Field {
  return Object.defineProperties(
    {},
    { ...Object.getOwnPropertyDescriptors(fd), ...Object.getOwnPropertyDescriptors(changes) },
  ) as Field;
}

/** The field builders. Each takes the Chinese label first, then its options. */
export const f = {
  /** One line of text, at most `max` characters (default 50), checked by `validate` when given. */
  text(
    label: string,
    o: Common & { max?: number; validate?: (v: string) => string | null; choices?: readonly string[] } = {},
  ): Field {
    const max = o.max ?? 50;
    const { choices, ...rest } = o;
    const inner = () =>
      z
        .string({ error: labelledIssue(label) })
        .trim()
        .max(max)
        .superRefine(validated(label, o.validate));
    if (!choices) return field('text', label, rest, () => z.preprocess(toText, inner()), '', { max });
    // A choice: an array (JSON) or words joined by 、 ， or , (a form, a cell), each one of the
    // choices, stored in the choices' order without repeats.
    const picked = () =>
      inner().transform((v, ctx) => {
        const words = v
          .split(/[、,，]/)
          .map((w) => w.trim())
          .filter(Boolean);
        const wrong = words.filter((w) => !choices.includes(w));
        if (wrong.length)
          ctx.addIssue({
            code: 'custom',
            message: `${label}只能从“${choices.join('、')}”中选择，“${wrong[0]}”不是选项`,
          });
        return choices.filter((c) => words.includes(c)).join('、');
      });
    const toWords = (v: unknown) =>
      Array.isArray(v) ? (v.length ? v.map(toText).join('、') : undefined) : toText(v);
    return field('text', label, rest, () => z.preprocess(toWords, picked()), '', { max, choices });
  },
  /** Several lines of plain text (default at most 500 characters). */
  textarea(label: string, o: Common & { max?: number } = {}): Field {
    const max = o.max ?? 500;
    const inner = () =>
      z
        .string({ error: labelledIssue(label) })
        .trim()
        .max(max)
        .superRefine(validated(label));
    return field('textarea', label, o, inner, '', { max });
  },
  /** Rich text (HTML); the server sanitises it before it is stored (ARCHITECTURE.md §6). */
  rich(label: string, o: Common & { max?: number } = {}): Field {
    const max = o.max ?? 200_000;
    const inner = () => z.string({ error: labelledIssue(label) }).max(max);
    return field('rich', label, { importable: false, ...o }, inner, '', { max });
  },
  /** A whole number between `min` and `max`. */
  int(label: string, o: Common & { min?: number; max?: number; initial?: number } = {}): Field {
    const inner = () =>
      z
        .number({ error: labelledIssue(label) })
        .int()
        .min(o.min ?? 0)
        .max(o.max ?? 2_147_483_647);
    const { initial, ...rest } = o;
    return field(
      'int',
      label,
      rest,
      () => z.preprocess(toNumber, inner()),
      null,
      initial === undefined ? {} : { initial },
    );
  },
  /** Yuan with at most two decimals, not negative (stored as fen). */
  money(label: string, o: Common = {}): Field {
    const inner = () =>
      z.number({ error: labelledIssue(label) }).superRefine((v, ctx) => {
        const problem = moneyProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: `${label}${problem}` });
      });
    return field('money', label, o, () => z.preprocess(toNumber, inner()), null);
  },
  /** A museum day, 'yyyy-MM-dd' (the spec's date picker). */
  date(label: string, o: Common = {}): Field {
    const inner = () =>
      z
        .string({ error: labelledIssue(label, '请选择') })
        .trim()
        .refine(isRealDate, `${label}须为有效日期，格式 yyyy-MM-dd（如 2026-12-01）`);
    return field('date', label, o, inner, '');
  },
  /** A time of day, 'HH:mm'. */
  time(label: string, o: Common = {}): Field {
    const inner = () =>
      z
        .string({ error: labelledIssue(label, '请选择') })
        .trim()
        .regex(TIME_RE, `${label}须为 HH:mm 格式的时间（如 08:30）`);
    return field('time', label, o, inner, '');
  },
  /** A moment, entered as 'yyyy-MM-dd HH:mm' museum time, stored and answered as epoch ms. */
  datetime(label: string, o: Common = {}): Field {
    // Epoch ms arrive as text in a query string (a list's datetime range filter): read as the number.
    const epochText = (v: unknown) => (typeof v === 'string' && /^\s*\d{12,14}\s*$/.test(v) ? Number(v) : v);
    const union = () =>
      z
        .union([z.number().int().nonnegative(), z.string().trim()], { error: labelledIssue(label, '请选择') })
        .transform((v, ctx) => {
          const ms = typeof v === 'number' ? v : parseMuseumMinute(v);
          if (ms === null) {
            ctx.addIssue({
              code: 'custom',
              message: `${label}须为 yyyy-MM-dd HH:mm 格式（如 2026-12-01 09:30）`,
            });
            return z.NEVER;
          }
          return ms;
        });
    return field('datetime', label, o, () => z.preprocess(epochText, union()), null);
  },
  /** One value of the dictionary `dict` (collectDict); the server checks it is an item there. */
  dict(label: string, dict: string, o: Common = {}): Field {
    const inner = () =>
      z
        .string({ error: labelledIssue(label, '请选择') })
        .trim()
        .max(50);
    return field('dict', label, o, () => z.preprocess(toText, inner()), '', { dict });
  },
  /** A status with fixed choices: moved by transitions (pipelines) or chosen in the form. */
  status(label: string, options: readonly StatusOption[], o: Common & { initial?: number } = {}): Field {
    const values = options.map((x) => x.value);
    const words = options.map((x) => `${x.value} ${x.label}`).join('、');
    const inner = () =>
      z
        .number({ error: labelledIssue(label, '请选择') })
        .int()
        .refine((v) => values.includes(v), `${label}不正确，可选：${words}`);
    return field('status', label, o, () => z.preprocess(toNumber, inner()), o.initial ?? values[0], {
      options,
      initial: o.initial ?? values[0],
    });
  },
  /** Yes or no: true/false, 1/0 (as text too). */
  bool(label: string, o: Common = {}): Field {
    const flag = (v: unknown) => {
      if (v === true || v === 1 || v === '1' || v === 'true' || v === '是') return true;
      if (v === false || v === 0 || v === '0' || v === 'false' || v === '否') return false;
      return v;
    };
    const inner = () =>
      z.boolean({
        error: () => `${label}只能是 true 或 false（也可以是 1 或 0）`,
      });
    return field('bool', label, o, () => z.preprocess(flag, inner()), false);
  },
  /** One member of staff (an enabled account); the server checks they exist. */
  user(label: string, o: Common = {}): Field {
    return field('user', label, o, () => idOf(label), null);
  },
  /** Members of staff, between `min` (default 1 when required) and `max`; repeats are dropped. */
  users(label: string, o: Common & { min?: number; max?: number } = {}): Field {
    const list = () =>
      z
        .array(idOf(label), { error: labelledIssue(label, '请选择') })
        .min(o.min ?? (o.required ? 1 : 0))
        .max(o.max ?? 50)
        .transform((ids) => [...new Set(ids)]);
    return field('users', label, o, () => oneOrMany(list() as unknown as Z.ZodType<number[]>, label), []);
  },
  /** A department. */
  dept(label: string, o: Common = {}): Field {
    return field('dept', label, o, () => idOf(label), null);
  },
  /**
   * Roles (ids), 1 to `max`: a transition's input only (an approval that grants roles). The role
   * table is the organisation's, not a record's: a row keeps what it needs of them in its own
   * fields, and the transition's effect checks the roles exist.
   */
  roles(label: string, o: Common & { max?: number } = {}): Field {
    const list = () =>
      z
        .array(idOf(label), { error: labelledIssue(label, '请选择') })
        .min(o.required ? 1 : 0, `请选择${label}`)
        .max(o.max ?? 20)
        .transform((ids) => [...new Set(ids)]);
    return field('roles', label, o, () => oneOrMany(list() as unknown as Z.ZodType<number[]>, label), []);
  },
  /**
   * Files (the attachment service's uploads, bound to the row as `(tableName = record name,
   * record id)`): the ids of uploads, at most `max` (default 1). `types` limits the extensions
   * (lower case, no dot) and `maxBytes` the size of each; the server checks both from the stored
   * upload. Not imported (a spreadsheet cannot carry a file).
   */
  file(
    label: string,
    o: Common & { max?: number; types?: readonly string[]; maxBytes?: number } = {},
  ): Field {
    const { max = 1, types, maxBytes, ...rest } = o;
    const accept = { types: types?.map((t) => t.toLowerCase()), maxBytes };
    return field(
      'file',
      label,
      { importable: false, ...rest },
      () => idList(label, rest.required, max, '个文件'),
      [],
      {
        max,
        accept,
      },
    );
  },
  /** Images (PNG, JPEG, GIF or WebP by their bytes, at most 10 MB each), shown as thumbnails. */
  image(label: string, o: Common & { max?: number } = {}): Field {
    const { max = 1, ...rest } = o;
    return field(
      'image',
      label,
      { importable: false, ...rest },
      () => idList(label, rest.required, max, '张图片'),
      [],
      {
        max,
      },
    );
  },
  /**
   * A row of another record, by id. `by` is that record's field that names a row: the form's
   * picker searches and shows it, lists and exports show it, an import cell names the row by it.
   * The server checks the row exists and the caller may read it; a row referred to cannot be
   * deleted.
   */
  ref(
    label: string,
    record: string,
    o: Common & { by: string; active?: { field: string; value: unknown } },
  ): Field {
    const { by, active, ...rest } = o;
    return field('ref', label, rest, () => idOf(label), null, {
      ref: { record, by, ...(active ? { active } : {}) },
    });
  },
  /**
   * Several rows of another record (意向服务组): 1 (when required) to `max` ids, repeats dropped,
   * in the order chosen. Sent as a list or as '3,7'; `by`, `active` as for `ref`.
   *
   * Stored as ',3,7,' in one text column, like a list of people, not in a join table: the engine
   * keeps a record in one table, and every path (save, import, scopes, the list's filter, the
   * delete guard) already reads and writes such lists on SQLite and PostgreSQL alike. The
   * encoding is exact for "has 7" (LIKE '%,7,%' cannot match 17 or 70, and ids hold no LIKE
   * wildcards), so the filter and the delete guard are exact. The cost is no foreign key and
   * no index on the column: fine at a museum's few thousand rows.
   */
  refs(
    label: string,
    record: string,
    o: Common & { by: string; max?: number; active?: { field: string; value: unknown }; alias?: string },
  ): Field {
    const { by, max = 20, active, alias, ...rest } = o;
    const list = () =>
      z
        .array(idOf(label), { error: labelledIssue(label, '请选择') })
        .min(rest.required ? 1 : 0, `请至少选择一个${label}`)
        .max(max, `${label}最多选择 ${max} 个`)
        .transform((ids) => [...new Set(ids)]);
    return field('refs', label, rest, () => oneOrMany(list() as unknown as Z.ZodType<number[]>, label), [], {
      ref: { record, by, ...(active ? { active } : {}) },
      max,
      ...(alias ? { alias } : {}),
    });
  },
  /**
   * Rows of sub-fields kept with the record as JSON (a month's indicators, a plan's items): each
   * row is checked with `sub`'s own schemas, and a refusal names the row (业务指标第 2 行：数值不能为负数).
   * Sub-fields are plain values: no files, lists or rich text inside. Not imported.
   */
  list(label: string, sub: Fields, o: Common & { min?: number; max?: number } = {}): Field {
    const { min = o.required ? 1 : 0, max = 50, ...rest } = o;
    const inner = () => {
      const row = z.object(Object.fromEntries(Object.entries(sub).map(([k, fd]) => [k, fd.schema])));
      return z
        .preprocess(fromJsonText, z.array(z.unknown(), { error: labelledIssue(label) }))
        .transform((rows, ctx) => {
          const refuse = (message: string) => ctx.addIssue({ code: 'custom', message });
          if (rows.length > max) refuse(`${label}最多 ${max} 行`);
          if (rows.length < min) refuse(`请至少填写 ${min} 行${label}`);
          const out: Record<string, unknown>[] = [];
          for (const [i, r] of rows.entries()) {
            const parsed = isPlainObject(r) ? row.safeParse(r) : null;
            if (!parsed) refuse(`${label}第 ${i + 1} 行格式不正确`);
            else if (!parsed.success) refuse(`${label}第 ${i + 1} 行：${issueText(parsed.error.issues[0]!)}`);
            else
              out.push(
                Object.fromEntries(Object.entries(sub).map(([k, fd]) => [k, parsed.data[k] ?? fd.empty])),
              );
          }
          return out;
        });
    };
    return field('list', label, { importable: false, ...rest }, inner, [], { sub, max });
  },
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A list sent as JSON text (a form-encoded body) reads as the list. */
function fromJsonText(v: unknown): unknown {
  if (typeof v !== 'string' || !v.trim().startsWith('[')) return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** Ids of uploads, one or several (a form sends '3,5'), between 1 when required and `max`. */
function idList(label: string, required: boolean | undefined, max: number, unit: string): Z.ZodType {
  const list = z
    .array(idOf(label), { error: labelledIssue(label, '请选择') })
    .min(required ? 1 : 0, `请上传${label}`)
    .max(max, `${label}最多 ${max} ${unit}`)
    .transform((ids) => [...new Set(ids)]);
  return oneOrMany(list as unknown as Z.ZodType<number[]>, label);
}

/** An id field (Id's rules) whose messages name `label`. */
function idOf(label: string): Z.ZodType<number> {
  return z.preprocess(
    (v) => (typeof v === 'string' ? Number(v) : v),
    z
      .number({ error: labelledIssue(label, '请选择') })
      .int()
      .positive(),
  ) as unknown as Z.ZodType<number>;
}

// ---------------------------------------------------------------------------------------------
// Records

export type Fields = Record<string, Field>;

/** The columns every record table has (records-design §1), as the API names them. */
export interface BaseColumns {
  id: number;
  createTime: number;
  createBy: number | null;
  updateTime: number;
  updateBy: number | null;
}

/** A record's row as stored and answered: its fields' values and the base columns. */
export type Row = BaseColumns & Record<string, unknown>;

/** A problem with one field of one row, in the words a person acts on. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * A rule a record checks against other stored rows (its "peers"): the server loads the rows
 * `peers` selects (field → accepted values, the row itself excluded) inside the write's
 * transaction and calls `check`. Pure, so each rule is unit-tested alone.
 */
export interface PeerRule {
  name: string;
  peers: (row: Record<string, unknown>) => Record<string, readonly unknown[]>;
  check: (row: Record<string, unknown>, peers: readonly Row[], words: Words) => FieldProblem | null;
}

/**
 * How a rule's message names values: a dictionary item's label, a status's words, a person's
 * name (the server knows them; a unit test passes its own).
 */
export type Words = (field: string, value: unknown) => string;

/** A named status change of a pipeline (records-design §2 B). */
export interface Transition {
  /** The button's words: 发布, 下线, 通过. */
  label: string;
  /** The spec's call, when it is not `POST <name>`: 'GET publishOrCancel'. */
  call?: string;
  /** The statuses it leaves from; any other current status is refused with 状态已变化，请刷新. */
  from: readonly number[];
  to: number;
  /** The menu grant it needs; the record's write grant by default. */
  access?: Grant;
  /** What the call takes besides `id` (a reason, a time): fields like the record's own. */
  input?: Fields;
  /** A rule of this record: why the row may not move now, or null. */
  guard?: (row: Row, input: Record<string, unknown>) => string | null;
  /** Other fields the change sets (publishTime ← now). */
  set?: (row: Row, input: Record<string, unknown>, now: number) => Record<string, unknown>;
  /**
   * What the change does beyond this row, by name (`createAccount`): a function the server
   * registers for `<record>.<effect>` (records.service `registerEffect`), run in the
   * transition's transaction once the status has moved. It may set more fields of the row;
   * its refusal undoes the whole transition. The server refuses to start when a named effect
   * is not registered.
   */
  effect?: string;
  /** The confirmation the UI asks first. */
  confirm?: string;
  danger?: boolean;
}

/** Spec call names and methods, per record (they differ by module: pageList/list, save/add…). */
export interface Calls {
  list: string;
  detail: string;
  create?: string;
  update?: string;
  remove?: string;
  export?: string;
  /** sortable records: move one place up or down within its sort scope. */
  up?: string;
  down?: string;
  /** singletons: read and write the one row of a scope. */
  load?: string;
  save?: string;
}

export type Shape = 'catalog' | 'pipeline' | 'booking' | 'singleton' | 'log';

/**
 * A menu grant: one leaf key, or several of which any one will do. A record edited from several
 * pages (the carousel from the mini-program's, the website's and the English website's home
 * pages) is written by whoever holds any of their leaves.
 */
export type Grant = string | readonly string[];

/** The leaf keys of a grant. */
export const grantKeys = (g: Grant): readonly string[] => (typeof g === 'string' ? [g] : g);

/** Whether someone holding `granted` (leaf keys, or every leaf) holds `g`; null: anyone. */
export function holdsGrant(granted: 'all' | { has: (k: string) => boolean }, g: Grant | null): boolean {
  return g === null || granted === 'all' || grantKeys(g).some((k) => granted.has(k));
}

export interface RecordDef {
  /** The record's name: registry key, import scheme id, query-key prefix. */
  name: string;
  /** Its Chinese name: 值班表. */
  title: string;
  shape: Shape;
  /** The table its rows live in (a frozen migration makes it). */
  table: string;
  /** The call prefix under /singleMuseum: '/bs/bsDutyRoster'. */
  base: string;
  calls: Calls;
  fields: Fields;
  access: {
    /** The menu grant that lets someone read; null: any signed-in person. */
    read: Grant | null;
    /** The menu grant that lets someone create, change and delete. */
    write: Grant;
    /**
     * The rows a reader without the write grant sees, added to every query in the repository:
     * a field and the values it must hold (published news only).
     */
    readerSees?: { field: string; values: readonly unknown[] };
    /**
     * Rows that belong to a person or a department (a month's report, a department's figures):
     * someone without the `all` grant reads, changes and moves only the rows whose `field` is
     * themselves (a user field; set to the caller on create when it is not in the form) or one
     * of their departments (a dept field). Holders of `all` (the office) read and write every
     * row, and need neither the read nor the write grant to read.
     */
    owner?: { field: string; all: string };
    /**
     * Rows a narrower grant may also read and write, by the value of one field (视频分类: the
     * holder of `applet.videoType` edits the items of the `video_type` dictionary, and only
     * those). Someone holding one of `grants` (value → grant) and not `write` reads, creates,
     * changes, moves and deletes only rows whose `field` holds a value their grants name; a row
     * written with another value is refused with `message`. Not with `owner`.
     */
    keyed?: { field: string; grants: Readonly<Record<string, Grant>>; message: string };
  };
  /** The list order when none is asked for: [field, direction], first wins. */
  /**
   * A date-range filter on when each row was made (the base column create_time), under this
   * label: 提交时间 on applications. Sent as createTimeFrom / createTimeTo like a field's range.
   */
  createdFilter?: string;
  /**
   * Filters that are not columns (本年度服务时长 on the adult roll): drawn and validated like a
   * field's filter, turned into conditions by the module's list filter (`registerListFilter`).
   */
  virtualFilters?: Fields;
  order: readonly (readonly [string, 'asc' | 'desc'])[];
  /** Pipelines: the status field and its named transitions. */
  status?: { field: string };
  /**
   * The status moves through the record's `update` call (修复项目: the spec names no transition
   * calls): an update whose status field differs from the stored one runs the transition of the
   * table from the stored status to it, with the form's values, in one transaction; the
   * transitions then have no calls of their own. A status the table does not lead to is refused.
   */
  statusByUpdate?: boolean;
  transitions?: Record<string, Transition>;
  /** Fields whose values together name one row at most (a unique index backs each). */
  unique?: readonly { fields: readonly string[]; message: string }[];
  /** Rules against stored rows (no person on two overlapping shifts). */
  rules?: readonly PeerRule[];
  /**
   * Fields the server derives from the form's values on every create, update and import (a
   * service record's minutes from its times): never typed, so never wrong. Pure.
   */
  derive?: (row: Record<string, unknown>) => Record<string, unknown>;
  /** A rule across the fields of one row (end after start), or null. */
  check?: (row: Record<string, unknown>) => FieldProblem | null;
  /**
   * Rows frozen by a row of another record (a closed month): while a row of `record` whose
   * `match` fields (its field → ours) equal this row's holds one of `values` in `field`, no row
   * of it can be created, changed, moved or deleted, by anyone; `message` says why.
   */
  frozenBy?: {
    record: string;
    match: Readonly<Record<string, string>>;
    field: string;
    values: readonly unknown[];
    message: (row: Record<string, unknown>) => string;
  };
  /** Why a stored row may not be deleted (a system item), or null. */
  canDelete?: (row: Row) => string | null;
  /** Why a stored row may not be changed so (a system item's value), or null. */
  canUpdate?: (before: Row, after: Record<string, unknown>) => FieldProblem | null;
  /**
   * This record's rows belong to a row of another record, found by value (an item's `dictKey`
   * names a dictionary's `dictKey`): the server checks the owner exists on every write, and
   * refuses to delete an owner while rows belong to it.
   */
  belongsTo?: { record: string; field: string; by: string };
  /**
   * A tree inside the record (records-design §2 A `parent`): `field` holds the parent's `by`
   * value within the same `scope`; a row with children cannot be deleted.
   */
  tree?: { field: string; by: string; scope: readonly string[] };
  /** Catalog sort: a `sort` int field, smaller first; up/down swap with the neighbour in `scope`. */
  sortable?: { field: string; scope: readonly string[] };
  /** Deleted rows are kept, flagged (delFlag), and never shown again. */
  softDelete?: boolean;
  /** Rows can be imported from an xlsx template (scheme/batchImport). */
  importable?: boolean;
  /** Booking (C): the capacity record this one takes places from, and how many. */
  booking?: {
    capacityTable: string;
    capacityField: string;
    quantityField: string;
    releasedAt: readonly number[];
  };
  /** Singleton (D): the field that scopes the one row (type 1 / 2), if any. */
  singleton?: { scope?: string };
  /** Log (E): days a row is kept before pruning. */
  retentionDays?: number;
  /** How one row is named in messages and the detail title. */
  describe: (row: Record<string, unknown>) => string;
  /**
   * Calls written by hand rather than served by the generic server (the system log): the
   * generic UI reads them through these pure mappings. Such a record is never in RECORDS.
   */
  adapter?: CallAdapter;
}

/**
 * How the generic UI reads a module's hand-written calls (`calls` name them, under `base`):
 * the list's query in the module's own words, and its answers as the engine's. Pure, so a test
 * runs them against the real calls.
 */
export interface CallAdapter {
  /** The list's (and the export's) query, from the engine's (`<key>From`, filters, paging). */
  query: (engineQuery: Record<string, unknown>) => Record<string, unknown>;
  /** The list call's answer as a page of rows. */
  page: (answer: unknown) => RecordPage;
  /** The detail call's answer as a detail. */
  detail: (answer: unknown) => RecordDetail;
  /**
   * A call answering the choices of text filters (a log's modules and actions): its `call`
   * and how its answer reads as field → options. A filter with choices is a select.
   */
  choices?: {
    call: string;
    pick: (answer: unknown) => Record<string, readonly { value: string; label: string }[]>;
  };
}

/**
 * Declares a record: checks the declaration (a mistake fails at start and in the unit test, not
 * in front of a user), registers its labels for the validation messages, and returns it as is.
 */
export function defineRecord<D extends RecordDef>(def: D): D {
  const keys = new Set(Object.keys(def.fields));
  const need = (key: string, what: string) => {
    if (!keys.has(key)) throw new Error(`${def.name}: ${what} names unknown field ${key}`);
  };
  for (const [key, dir] of def.order)
    if (!['id', 'createTime', 'updateTime'].includes(key)) need(key, `order ${dir}`);
  if (def.status) {
    need(def.status.field, 'status');
    if (def.fields[def.status.field]!.kind !== 'status')
      throw new Error(`${def.name}: status must be f.status`);
  }
  for (const u of def.unique ?? []) for (const k of u.fields) need(k, 'unique');
  if (def.sortable) {
    need(def.sortable.field, 'sortable');
    for (const k of def.sortable.scope) need(k, 'sortable scope');
  }
  if (def.access.readerSees) need(def.access.readerSees.field, 'readerSees');
  if (def.access.owner) {
    need(def.access.owner.field, 'owner');
    if (!['user', 'dept'].includes(def.fields[def.access.owner.field]!.kind))
      throw new Error(`${def.name}: the owner field must be f.user or f.dept`);
  }
  for (const k of Object.values(def.frozenBy?.match ?? {})) need(k, 'frozenBy');
  if (def.access.keyed) {
    need(def.access.keyed.field, 'keyed');
    if (def.access.owner) throw new Error(`${def.name}: keyed and owner cannot be combined`);
  }
  for (const [key, fd] of Object.entries(def.fields)) {
    if (def.importable && fd.required && fd.form !== false && fd.importable === false)
      throw new Error(`${def.name}: required field ${key} cannot be imported, so the record cannot be`);
    for (const [sk, sub] of Object.entries(fd.sub ?? {}))
      if (['file', 'image', 'list', 'rich'].includes(sub.kind))
        throw new Error(`${def.name}: list ${key} cannot hold ${sub.kind} field ${sk}`);
  }
  if (def.transitions && !def.status) throw new Error(`${def.name}: transitions need a status field`);
  if (def.singleton?.scope) need(def.singleton.scope, 'singleton scope');
  if (def.singleton && (!def.calls.load || !def.calls.save))
    throw new Error(`${def.name}: a singleton needs load and save`);
  if (def.shape === 'log' && (def.calls.create || def.calls.update || def.calls.remove))
    throw new Error(`${def.name}: a log is append-only (no create, update or remove call)`);
  for (const [key, fd] of Object.entries(def.fields))
    if (fd.kind === 'roles') throw new Error(`${def.name}: ${key}: roles are a transition's input only`);
  if (def.booking) {
    need(def.booking.capacityField, 'booking capacity');
    need(def.booking.quantityField, 'booking quantity');
  }
  const labels: Record<string, string> = {};
  for (const [key, fd] of Object.entries(filterFields(def))) {
    labels[key] = fd.label;
    for (const [sk, sub] of Object.entries(fd.sub ?? {})) labels[sk] ??= sub.label;
    if (fd.filter === 'range') {
      labels[`${key}From`] = `${fd.label}（起）`;
      labels[`${key}To`] = `${fd.label}（止）`;
    }
  }
  for (const t of Object.values(def.transitions ?? {}))
    for (const [key, fd] of Object.entries(t.input ?? {})) labels[key] ??= fd.label;
  addRecordLabels(labels);
  return def;
}

// ---------------------------------------------------------------------------------------------
// What the server and the UI derive from a definition

/** 'GET pageList' → { method, name }. */
export function parseCall(call: string): { method: 'GET' | 'POST' | 'DELETE'; name: string } {
  const [method, name] = call.split(' ') as ['GET' | 'POST' | 'DELETE', string];
  return { method, name };
}

/** The fields a form (and the create and update calls) carries. */
export function formFields(def: RecordDef): [string, Field][] {
  return Object.entries(def.fields).filter(([, fd]) => fd.form !== false);
}

/** The fields of the xlsx template, in form order. */
export function importFields(def: RecordDef): [string, Field][] {
  return formFields(def).filter(([, fd]) => fd.importable !== false);
}

/**
 * With `statusByUpdate`: the transition of the table from status `from` to `to`, or why there is
 * none in words naming where the row may go (“待修复”不能直接改为“已归档”，可改为：修复中).
 */
export function transitionTo(
  def: RecordDef,
  from: number,
  to: number,
): { key: string; transition: Transition } | { problem: string } {
  const all = Object.entries(def.transitions ?? {});
  const hit = all.find(([, t]) => t.from.includes(from) && t.to === to);
  if (hit) return { key: hit[0], transition: hit[1] };
  const next = [...new Set(all.filter(([, t]) => t.from.includes(from)).map(([, t]) => t.to))];
  const word = (v: number) => `“${statusLabel(def, v)}”`;
  return {
    problem: next.length
      ? `${word(from)}不能直接改为${word(to)}，可改为：${next.map((v) => statusLabel(def, v)).join('、')}`
      : `${word(from)}是最终状态，不能再改为${word(to)}`,
  };
}

/**
 * The fields a list filters by: the record's own, and `createTime` when the record declares a
 * `createdFilter` (a range on the base column, in the same `<key>From` / `<key>To` words).
 */
export function filterFields(def: RecordDef): Fields {
  if (!def.createdFilter && !def.virtualFilters) return def.fields;
  return {
    ...def.fields,
    ...(def.createdFilter
      ? { createTime: f.datetime(def.createdFilter, { form: false, filter: 'range' }) }
      : {}),
    ...def.virtualFilters,
  };
}

/** The status options of a record's status field, or []. */
export function statusOptions(def: RecordDef): readonly StatusOption[] {
  return def.status ? (def.fields[def.status.field]!.options ?? []) : [];
}

/** The words of a status value. */
export function statusLabel(def: RecordDef, value: unknown): string {
  return statusOptions(def).find((o) => o.value === value)?.label ?? String(value ?? '');
}

/** The dictionaries a record's fields (and its lists' sub-fields) draw from. */
export function dictKeysOf(def: RecordDef): string[] {
  const all = Object.values(def.fields).flatMap((fd) => [fd, ...Object.values(fd.sub ?? {})]);
  return [...new Set(all.flatMap((fd) => (fd.dict ? [fd.dict] : [])))];
}

/**
 * Every value of a row a check reads, the sub-fields of its lists included: `at` is the field
 * key a problem is said at, `where` the row of a list (第 2 行：) or ''.
 */
export function valuesOf(
  def: RecordDef,
  row: Readonly<Record<string, unknown>>,
): { at: string; fd: Field; value: unknown; where: string }[] {
  const out: { at: string; fd: Field; value: unknown; where: string }[] = [];
  for (const [key, fd] of Object.entries(def.fields)) {
    if (!fd.sub) {
      out.push({ at: key, fd, value: row[key], where: '' });
      continue;
    }
    const rows = Array.isArray(row[key]) ? (row[key] as Record<string, unknown>[]) : [];
    for (const [i, r] of rows.entries())
      for (const [sk, sub] of Object.entries(fd.sub))
        out.push({ at: key, fd: sub, value: r?.[sk], where: `${fd.label}第 ${i + 1} 行：` });
  }
  return out;
}

/** Calls a record answers, as [call key, method, name]; transitions as `transition:<key>`. */
export function callsOf(def: RecordDef): { key: string; method: 'GET' | 'POST' | 'DELETE'; name: string }[] {
  const out = Object.entries(def.calls).flatMap(([key, call]) => (call ? [{ key, ...parseCall(call) }] : []));
  if (!def.statusByUpdate)
    for (const [key, t] of Object.entries(def.transitions ?? {}))
      out.push({ key: `transition:${key}`, ...parseCall(t.call ?? `POST ${key}`) });
  return out;
}

/**
 * The call and body that run a transition from a row the client holds: its own call, or with
 * `statusByUpdate` the record's update carrying the row's form values, the input and the status.
 */
export function transitionRequest(
  def: RecordDef,
  key: string,
  row: Readonly<Record<string, unknown>>,
  body: Record<string, unknown>,
): { call: string; body: Record<string, unknown> } {
  const t = def.transitions![key]!;
  if (!def.statusByUpdate || !def.status || !def.calls.update) return { call: t.call ?? `POST ${key}`, body };
  const form = Object.fromEntries(formFields(def).map(([k]) => [k, row[k]]));
  return { call: def.calls.update, body: { ...form, ...body, [def.status.field]: t.to } };
}

/** The message of a refused stale transition (records-design §2 B). */
export const STALE_STATUS = '状态已变化，请刷新';

/** A field's value as a person reads it (status words, yes/no); names and dictionaries come from the caller. */
export function plainValue(fd: Field, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (fd.kind === 'status') return fd.options?.find((o) => o.value === value)?.label ?? String(value);
  if (fd.kind === 'bool') return value ? '是' : '否';
  if (fd.kind === 'money') return Number(value).toFixed(2);
  if (Array.isArray(value)) return fd.kind === 'list' ? `${value.length} 行` : `${value.length} 个`;
  return String(value);
}

/**
 * A list's rows as one line of text (an export cell, a list column): each row's values joined
 * by spaces, rows by ；. `word` reads a value the way `plainValue` cannot (names, dictionaries).
 */
export function listText(
  fd: Field,
  rows: unknown,
  word: (sub: Field, value: unknown) => string = plainValue,
): string {
  if (!Array.isArray(rows) || !fd.sub) return '';
  const subs = Object.entries(fd.sub);
  return rows
    .map((r: Record<string, unknown>) =>
      subs
        .map(([k, sub]) => word(sub, r?.[k]))
        .filter(Boolean)
        .join(' '),
    )
    .join('；');
}
