import {
  COLUMN,
  FIELD_TYPES,
  OPT,
  STARTER_COLUMN,
  UNIT,
  type Condition,
  type FieldType,
  type FormField,
  type WorkflowDefinition,
} from '../../shared/workflow/definition';
import { DEFAULT_NAME } from '../../shared/workflow/text';

/**
 * Pure helpers of 审批设置 (the template editor and the designer) that the shared workflow rules
 * do not already give: the condition-field catalogue, new form fields with stable ids, new
 * conditions, and a fresh definition. The tree edits, error marks and summaries are NOT here:
 * they are src/shared/workflow (tree.ts, validate.ts, summary.ts), called as they are.
 */

/** One row of the condition catalogue (what POST /workflowConfig/condition answers per template). */
export interface ConditionField {
  columnId: string;
  showName: string;
  columnType: 1 | 2 | 3 | 4;
  /** Choice fields: the options a branch may match. */
  options?: { key: string; value: string }[];
  /** Duration fields: the unit the form computes the duration in. */
  unit?: 0 | 1;
}

/** The branch condition on who starts (columnId 0), always offered. */
export const STARTER_CONDITION: ConditionField = {
  columnId: STARTER_COLUMN,
  showName: '发起人',
  columnType: COLUMN.person,
};

/**
 * The condition fields of a form, derived in the browser (the same mapping as validate.ts'
 * FITS): radio/checkbox are choices, dateRange a duration, amount an amount; the starter first.
 * Used when the server's catalogue call is not there, and to fill in options it leaves out.
 */
export function conditionFieldsFromForm(fields: readonly FormField[]): ConditionField[] {
  const out: ConditionField[] = [STARTER_CONDITION];
  for (const f of fields) {
    if (f.type === 'radio' || f.type === 'checkbox') {
      out.push({ columnId: f.id, showName: f.label, columnType: COLUMN.choice, options: f.options ?? [] });
    } else if (f.type === 'dateRange') {
      out.push({ columnId: f.id, showName: f.label, columnType: COLUMN.duration, unit: f.unit ?? UNIT.days });
    } else if (f.type === 'amount') {
      out.push({ columnId: f.id, showName: f.label, columnType: COLUMN.amount });
    }
  }
  return out;
}

/**
 * Reads the server's catalogue leniently (columnId as number or text; options from the research
 * doc's `fixedDownBoxValue` JSON or from the form), keeping only the fields the current form still
 * has, so a stale catalogue never offers a deleted field. Null when the answer is not a list.
 */
export function parseConditionFields(raw: unknown, form: readonly FormField[]): ConditionField[] | null {
  const list = Array.isArray(raw)
    ? raw
    : raw && typeof raw === 'object' && Array.isArray((raw as { list?: unknown }).list)
      ? (raw as { list: unknown[] }).list
      : null;
  if (!list) return null;
  const local = new Map(conditionFieldsFromForm(form).map((c) => [c.columnId, c]));
  const out: ConditionField[] = [];
  for (const row of list) {
    if (!row || typeof row !== 'object') continue;
    const r = row as Record<string, unknown>;
    const columnId = String(r.columnId ?? '');
    const known = local.get(columnId);
    const type = Number(r.columnType);
    if (!known || known.columnType !== type) continue;
    out.push({
      ...known,
      showName: typeof r.showName === 'string' && r.showName ? r.showName : known.showName,
    });
  }
  if (!out.some((c) => c.columnId === STARTER_COLUMN)) out.unshift(STARTER_CONDITION);
  return out;
}

/** A new condition on `field`: numeric ones start at 大于 with the field's unit, others empty. */
export function newCondition(field: ConditionField): Condition {
  const base = { columnId: field.columnId, showName: field.showName, columnType: field.columnType };
  switch (field.columnType) {
    case COLUMN.person:
      return { ...base, nodeUserList: [] };
    case COLUMN.choice:
      return { ...base, downValArr: [] };
    case COLUMN.duration:
      return { ...base, optType: OPT.gt, zdy1: '', unit: field.unit ?? UNIT.days };
    case COLUMN.amount:
      return { ...base, optType: OPT.gt, zdy1: '' };
  }
}

/** Field id stems by type: ids are letters, digits and _, start with a letter (definition.ts). */
const STEM: Record<FieldType, string> = Object.fromEntries(FIELD_TYPES.map((t) => [t, t])) as Record<
  FieldType,
  string
>;

/**
 * An id for a new form field, unique in the form and never reused while the field lives: the id
 * is what conditions and stored requests refer to, so the editor never lets a person change it
 * (renaming changes only the label).
 */
export function newFieldId(type: FieldType, existing: readonly { id: string }[]): string {
  const taken = new Set(existing.map((f) => f.id));
  for (let n = 1; ; n++) {
    const id = `${STEM[type]}${n}`;
    if (!taken.has(id)) return id;
  }
}

/** A new field of `type` with a default label; choices start with two options. */
export function newField(type: FieldType, existing: readonly FormField[], label: string): FormField {
  const id = newFieldId(type, existing);
  const field: FormField = { id, type, label, required: false };
  if (type === 'radio' || type === 'checkbox') {
    field.options = [
      { key: '1', value: '选项1' },
      { key: '2', value: '选项2' },
    ];
  }
  if (type === 'dateRange') field.unit = UNIT.days;
  return field;
}

/** The next option key of a choice field (keys stay put when options are renamed or removed). */
export function nextOptionKey(options: readonly { key: string }[]): string {
  const nums = options.map((o) => Number(o.key)).filter((n) => Number.isInteger(n));
  return String(Math.max(0, ...nums) + 1);
}

/** `list` with item i moved one place by `dir`; the same array when it cannot move. */
export function moveItem<T>(list: readonly T[], i: number, dir: -1 | 1): readonly T[] {
  const j = i + dir;
  if (i < 0 || i >= list.length || j < 0 || j >= list.length) return list;
  const out = list.slice();
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** Field-level problems the schema would refuse on save, in Chinese, with the field's label. */
export function formProblems(fields: readonly FormField[]): string[] {
  const out: string[] = [];
  const labels = new Set<string>();
  fields.forEach((f, i) => {
    const name = f.label.trim() || `第${i + 1}个字段`;
    if (!f.label.trim()) out.push(`${name}：请填写字段名称`);
    else if (f.label.trim().length > 30) out.push(`${name}：字段名称最多 30 个字`);
    else if (labels.has(f.label.trim())) out.push(`${name}：字段名称重复`);
    labels.add(f.label.trim());
    if (f.type === 'radio' || f.type === 'checkbox') {
      if (!f.options?.length) out.push(`${name}：请至少添加一个选项`);
      else if (f.options.some((o) => !o.value.trim())) out.push(`${name}：选项不能为空`);
      else if (new Set(f.options.map((o) => o.value.trim())).size < f.options.length)
        out.push(`${name}：选项重复`);
    }
  });
  return out;
}

/** A new template's definition: a starter alone, everyone may start, superiors up to level 4. */
export function emptyDefinition(): WorkflowDefinition {
  return {
    fields: [],
    directorMaxLevel: 4,
    flowPermission: [],
    nodeConfig: { type: 0, nodeName: DEFAULT_NAME.starter, childNode: null },
  };
}
