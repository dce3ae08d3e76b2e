import { z } from 'zod';
import {
  emailProblem,
  lineProblem,
  nameProblem,
  officePhoneProblem,
  phoneProblem,
} from '../rules/validators';
import { BoolFlag, Flag, Id, rule } from './fields';

/**
 * The staff directory (通讯录), `/singleMuseum/bs/bsAddressBook/*` (spec office.md §7 "Address
 * book"). Our design, documented in README "Staff directory":
 *
 * - A staff row is an enabled account (not the system account `admin`): its name, mobile and
 *   departments always come from 人员管理, so they are never stale. An admin may add an
 *   extension to it (position, office phone, e-mail, sort, remark, hidden); at most one per
 *   account, so a person is never listed twice.
 * - An external row (安保值班室, a partner's desk) exists only in the directory; the admin
 *   enters every field of it.
 */

export const ADDRESS_BOOK = {
  nameMax: 30,
  positionMax: 30,
  emailMax: 60,
  remarkMax: 200,
  sortMax: 9999,
  keywordMax: 30,
} as const;

/** One person or desk as the directory shows it. */
export const AddressBookEntry = z.object({
  /** The directory's own row: null for a staff row nobody has extended. */
  id: z.number().nullable(),
  /** The account of a staff row; null for an external row. */
  userId: z.number().nullable(),
  name: z.string(),
  /** The account's photo URL, or '' (external rows have none). */
  image: z.string(),
  deptIds: z.array(z.number()),
  deptNames: z.array(z.string()),
  position: z.string(),
  mobile: z.string(),
  officePhone: z.string(),
  email: z.string(),
  remark: z.string(),
  sort: z.number(),
  /** Kept out of the directory (admins still see it in 通讯录管理). */
  hidden: z.boolean(),
});
export type AddressBookEntry = z.infer<typeof AddressBookEntry>;

/** A department in tree order (parents first, by sort), with its depth and how many rows it holds. */
export const DirectoryDept = z.object({
  id: z.number(),
  name: z.string(),
  parentId: z.number().nullable(),
  depth: z.number(),
  /** Rows listed in it or in its sub-departments. */
  count: z.number(),
});
export type DirectoryDept = z.infer<typeof DirectoryDept>;

export const AddressBookList = z.object({
  list: z.array(AddressBookEntry),
  total: z.number(),
  departments: z.array(DirectoryDept),
});
export type AddressBookList = z.infer<typeof AddressBookList>;

export const AddressBookListQuery = z.object({
  keyword: z
    .string()
    .trim()
    .max(ADDRESS_BOOK.keywordMax, `搜索内容不能超过 ${ADDRESS_BOOK.keywordMax} 个字符`)
    .optional(),
  /** The department, with its sub-departments. */
  deptId: Id.optional(),
  /** 1: include hidden rows (通讯录管理 only). */
  includeHidden: Flag().optional(),
});
export type AddressBookListQuery = z.infer<typeof AddressBookListQuery>;

export const AddressBookDetailQuery = z
  .object({ id: Id.optional(), userId: Id.optional() })
  .refine(
    (q) => (q.id === undefined) !== (q.userId === undefined),
    '请指定一个通讯录条目（编号 id 或人员 userId，二选一）',
  );

const line = (what: string, max: number) =>
  z
    .string()
    .trim()
    .superRefine(rule((v) => lineProblem(v, what, max)))
    .default('');
const optional = (problem: (v: string) => string | null) =>
  z
    .string()
    .trim()
    .superRefine(rule((v) => (v === '' ? null : problem(v))))
    .default('');

/** Fields every row has; the name, mobile and department only external rows carry. */
const EntryFields = z.object({
  name: z.string().trim().max(100, `姓名不能超过 ${ADDRESS_BOOK.nameMax} 个字符`).default(''),
  deptId: Id.nullable().default(null),
  mobile: optional(phoneProblem),
  position: line('职务', ADDRESS_BOOK.positionMax),
  officePhone: optional(officePhoneProblem),
  email: optional(emailProblem),
  sort: z.coerce
    .number('排序须为 0–9999 的整数')
    .int('排序须为 0–9999 的整数')
    .min(0, '排序须为 0–9999 的整数')
    .max(ADDRESS_BOOK.sortMax, '排序须为 0–9999 的整数')
    .default(0),
  remark: z
    .string()
    .trim()
    .max(ADDRESS_BOOK.remarkMax, `备注不能超过 ${ADDRESS_BOOK.remarkMax} 个字符`)
    .default(''),
  hidden: BoolFlag().default(false),
});
type EntryFields = z.output<typeof EntryFields>;

/** Where a row's fields break the rule of its kind, or null. Forms and server say the same words. */
export function entryKindProblem(
  staff: boolean,
  v: Pick<EntryFields, 'name' | 'deptId' | 'mobile' | 'officePhone'>,
): { path: 'name' | 'mobile'; message: string } | null {
  if (staff) {
    return v.name || v.mobile || v.deptId !== null
      ? { path: 'name', message: '员工的姓名、手机号和部门来自人员管理，请在人员管理中修改' }
      : null;
  }
  const name = nameProblem(v.name);
  if (name) return { path: 'name', message: name };
  if (!v.mobile && !v.officePhone) return { path: 'mobile', message: '请至少填写手机号或办公电话' };
  return null;
}

function kindRefinement(v: EntryFields & { userId?: number | null }, ctx: z.RefinementCtx) {
  const problem = entryKindProblem(v.userId != null, v);
  if (problem) ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
}

/** save: `userId` extends that account's row; without it, a new external row. */
export const AddressBookSave = EntryFields.extend({ userId: Id.nullable().default(null) }).superRefine(
  kindRefinement,
);
export type AddressBookSave = z.input<typeof AddressBookSave>;
/** update: the kind is the stored row's (the service checks entryKindProblem against it). */
export const AddressBookUpdate = EntryFields.extend({ id: Id });
export type AddressBookUpdate = z.input<typeof AddressBookUpdate>;
export const AddressBookDelete = z.object({ id: Id });
