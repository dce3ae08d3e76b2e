import { z } from 'zod';
import { Id, oneOrMany } from '../api/fields';
import { issueText, labelledIssue } from '../api/messages';
import {
  blank,
  f,
  filterFields,
  formFields,
  linkSchemas,
  type Field,
  type FieldKind,
  type RecordDef,
  type Transition,
} from './define';

/**
 * What the server and the forms validate a record's calls with: the schemas derived from a
 * definition (define.ts). Kept apart from the definitions so that a page which only shows
 * records does not load zod (issue 25); importing this file links zod into define.ts, which
 * builds each field's own schema on its first read.
 */
linkSchemas({ z, oneOrMany, labelledIssue, issueText });

/** The create call's body: every form field, each with its own rules and words. */
export function createSchema(def: RecordDef): z.ZodObject {
  return z.object(Object.fromEntries(formFields(def).map(([k, fd]) => [k, fd.schema])));
}

/**
 * The update call's body: the row's id and every form field (a form sends the whole record);
 * with `statusByUpdate`, also the status asked for (optional) and every transition's input.
 */
export function updateSchema(def: RecordDef): z.ZodObject {
  const base = createSchema(def).extend({ id: Id });
  if (!def.statusByUpdate || !def.status) return base;
  const inputs = Object.values(def.transitions ?? {}).flatMap((t) => Object.entries(t.input ?? {}));
  return base.extend({
    ...Object.fromEntries(inputs.map(([k, fd]) => [k, fd.schema.optional()])),
    [def.status.field]: def.fields[def.status.field]!.schema.optional(),
  });
}

export const IdQuery = z.object({ id: Id });

/** Sort directions of a list call. */
const Order = z.enum(['asc', 'desc'], { error: () => '排序方向只能是 asc 或 desc' });

/**
 * The list call's query: page, keyword, one parameter per filter (a range is `<key>From` and
 * `<key>To`), and an optional order by a list column.
 */
export function listSchema(def: RecordDef): z.ZodObject {
  const shape: Record<string, z.ZodType> = {
    currentPage: z.coerce.number('页码必须是数字').int('页码必须是整数').min(1, '页码不能小于 1').default(1),
    pageCount: z.coerce
      .number('每页条数必须是数字')
      .int('每页条数必须是整数')
      .min(1, '每页条数不能小于 1')
      .max(200, '每页条数不能大于 200')
      .default(20),
  };
  const columns = Object.entries(def.fields)
    .filter(([, fd]) => fd.list)
    .map(([k]) => k);
  if (columns.length)
    shape.orderBy = z
      .enum(['id', 'createTime', ...columns] as [string, ...string[]], {
        error: () => `排序字段不正确，可选：${columns.join('、')}`,
      })
      .optional();
  shape.order = Order.optional();
  if (Object.values(def.fields).some((fd) => fd.keyword))
    shape.keyword = z.string().trim().max(50, '关键词不能超过 50 个字符').optional();
  for (const [key, fd] of Object.entries(filterFields(def))) {
    if (!fd.filter) continue;
    // A list filters by one of its values ("has this person / group").
    const one =
      fd.kind === 'users'
        ? f.user(fd.label).schema
        : fd.kind === 'refs'
          ? f.ref(fd.label, fd.ref!.record, { by: fd.ref!.by }).schema
          : fd.schema;
    if (fd.filter === 'range') {
      shape[`${key}From`] = rangeEnd(fd, `${fd.label}（起）`);
      shape[`${key}To`] = rangeEnd(fd, `${fd.label}（止）`);
    } else shape[key] = z.preprocess((v) => (blank(v) ? undefined : v), unwrap(one).optional());
  }
  return z.object(shape);
}

/** One end of a range filter, its messages naming that end (值班日期（起）须为有效日期…). */
function rangeEnd(fd: Field, label: string): z.ZodType {
  const builders: Partial<Record<FieldKind, (l: string) => Field>> = {
    date: (l) => f.date(l),
    datetime: (l) => f.datetime(l),
    int: (l) => f.int(l),
    money: (l) => f.money(l),
    time: (l) => f.time(l),
  };
  const make = builders[fd.kind];
  if (!make) throw new Error(`a range filter needs a date, time or number field, not ${fd.kind}`);
  return make(label).schema;
}

/** A field schema without its "empty means absent" wrapper, so a filter can make it optional. */
function unwrap(s: z.ZodType): z.ZodType {
  const def = (s as unknown as { _zod: { def: { type: string; out?: z.ZodType; innerType?: z.ZodType } } })
    ._zod.def;
  if (def.type === 'pipe' && def.out) {
    const out = def.out as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } };
    return out._zod.def.type === 'optional' ? out._zod.def.innerType! : def.out;
  }
  return s;
}

/** The transition call's body: the id and the transition's own input. */
export function transitionSchema(t: Transition): z.ZodObject {
  return z.object({
    id: Id,
    ...Object.fromEntries(Object.entries(t.input ?? {}).map(([k, fd]) => [k, fd.schema])),
  });
}
