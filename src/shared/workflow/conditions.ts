import {
  COLUMN,
  OPT,
  STARTER_COLUMN,
  UNIT,
  type BranchNode,
  type Condition,
  type FormField,
} from './definition';
import { userMatchesTargets, type OrgView } from './org';

/** A request's form values by field id (definition.ts describes each field type's value). */
export type FormValues = Record<string, unknown>;

/** Everything a condition may read. `fields` gives the duration fields' own unit. */
export interface ConditionContext {
  form: FormValues;
  starterId: number;
  org: OrgView;
  fields: readonly FormField[];
}

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

/**
 * A decimal as an integer count of hundredths (fen for amounts), so 5000, '5000.00' and 5000.001
 * compare without float traps. Strings are read digit by digit (exact); numbers are rounded to
 * 2 decimals, the precision the spec gives amounts and the designer's number inputs. Null when the
 * value is not a finite decimal.
 */
export function toHundredths(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.round(value * 100) : null;
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (!DECIMAL.test(s)) return null;
  const negative = s.startsWith('-');
  const [whole = '0', frac = ''] = s.replace(/^[+-]/, '').split('.');
  // Round half up on the third decimal, like Math.round does for numbers.
  const cents =
    Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2)) + (Number(frac[2] ?? 0) >= 5 ? 1 : 0);
  return negative ? -cents : cents;
}

function compare(value: number, cond: Condition, scale: number): boolean {
  const a = toHundredths(cond.zdy1);
  if (a === null) return false;
  const lo = a * scale;
  switch (cond.optType) {
    case OPT.gt:
      return value > lo;
    case OPT.gte:
      return value >= lo;
    case OPT.eq:
      return value === lo;
    case OPT.lt:
      return value < lo;
    case OPT.lte:
      return value <= lo;
    case OPT.range: {
      const b = toHundredths(cond.zdy2);
      // Both ends included (zdy1 ≤ value ≤ zdy2), the decision.
      return b !== null && lo <= value && value <= b * scale;
    }
    default:
      return false;
  }
}

/** Hours per day when a duration in days meets a condition in hours (or the other way round). */
export const HOURS_PER_DAY = 24;

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/**
 * Whether one condition holds. A condition on a form field that is missing or empty is false
 * (so its branch can only be reached as the fallback), and so is a condition the definition left
 * half-filled (no operator, a bound that is not a number): an unfinished branch never catches
 * requests by accident.
 */
export function evaluateCondition(cond: Condition, ctx: ConditionContext): boolean {
  const { form, starterId, org } = ctx;
  if (cond.columnType === COLUMN.person) {
    const targets = cond.nodeUserList ?? [];
    if (cond.columnId === STARTER_COLUMN) return userMatchesTargets(starterId, targets, org);
    // A person field of the form: true when any person picked there matches.
    const v = form[cond.columnId];
    if (isEmpty(v)) return false;
    const ids = (Array.isArray(v) ? v : [v]).filter((x): x is number => typeof x === 'number');
    return ids.some((id) => userMatchesTargets(id, targets, org));
  }
  const v = form[cond.columnId];
  if (isEmpty(v)) return false;
  if (cond.columnType === COLUMN.choice) {
    const chosen = (Array.isArray(v) ? v : [v]).map(String);
    const wanted = new Set(cond.downValArr ?? []);
    return chosen.some((k) => wanted.has(k));
  }
  if (cond.columnType === COLUMN.amount) {
    const fen = toHundredths(v);
    return fen !== null && compare(fen, cond, 1);
  }
  // Duration: the form's dateRange carries `duration` in the field's own unit; both sides are
  // brought to hundredths of an hour (a day is 24 hours) before comparing.
  const raw = typeof v === 'object' && !Array.isArray(v) ? (v as { duration?: unknown }).duration : v;
  const value = toHundredths(raw);
  if (value === null) return false;
  const field = ctx.fields.find((f) => f.id === cond.columnId);
  const fieldScale = (field?.unit ?? UNIT.days) === UNIT.days ? HOURS_PER_DAY : 1;
  const condScale = (cond.unit ?? UNIT.days) === UNIT.days ? HOURS_PER_DAY : 1;
  return compare(value * fieldScale, cond, condScale);
}

/**
 * The branch a router takes: branches in `priorityLevel` order; the first non-last one whose
 * conditions all hold; otherwise the last one (其他条件), whatever its own conditions say. A
 * non-last branch without conditions never matches (the designer flags it as an error; taking it
 * would send every request down an unfinished branch).
 */
export function chooseBranch(
  branches: readonly BranchNode[],
  ctx: ConditionContext,
): { branch: BranchNode; index: number } {
  const sorted = sortBranches(branches);
  for (let i = 0; i < sorted.length - 1; i++) {
    const b = sorted[i]!;
    if (b.conditionList.length > 0 && b.conditionList.every((c) => evaluateCondition(c, ctx))) {
      return { branch: b, index: i };
    }
  }
  if (sorted.length === 0) throw new Error('router without branches');
  return { branch: sorted[sorted.length - 1]!, index: sorted.length - 1 };
}

/** Branches by priority; equal priorities keep their array order (Array.prototype.sort is stable). */
export function sortBranches(branches: readonly BranchNode[]): BranchNode[] {
  return [...branches].sort((a, b) => a.priorityLevel - b.priorityLevel);
}
