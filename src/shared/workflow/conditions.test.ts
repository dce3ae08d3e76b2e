import { describe, expect, it } from 'vitest';
import { amountIs, branch, choiceIn, dept, durationIs, person, role, router, starterIn } from './build';
import {
  chooseBranch,
  evaluateCondition,
  toHundredths,
  type ConditionContext,
  type FormValues,
} from './conditions';
import type { Condition, FormField } from './definition';
import { fakeOrg } from './testing';

const fields: FormField[] = [
  { id: 'amount', type: 'amount', label: '金额', required: true },
  { id: 'days', type: 'dateRange', label: '请假时间', required: true, unit: 1 },
  { id: 'hours', type: 'dateRange', label: '加班时间', required: true, unit: 0 },
  { id: 'kind', type: 'checkbox', label: '类型', required: false },
];
const ctx = (form: FormValues, starterId = 1): ConditionContext => ({
  form,
  starterId,
  org: fakeOrg(),
  fields,
});
const holds = (c: Condition, form: FormValues, starterId = 1) => evaluateCondition(c, ctx(form, starterId));
const span = (duration: unknown) => ({ start: '2026-03-02', end: '2026-03-05', duration });

describe('toHundredths', () => {
  it.each([
    [5000, 500000],
    ['5000', 500000],
    ['5000.00', 500000],
    ['5000.01', 500001],
    [5000.01, 500001],
    [0.1 + 0.2, 30],
    ['0.3', 30],
    ['-1.5', -150],
    [' 12.3 ', 1230],
    ['1.005', 101],
  ])('%j is %i hundredths', (v, want) => expect(toHundredths(v)).toBe(want));
  it.each([['abc'], [''], ['1e3'], ['1.'], [NaN], [Infinity], [null], [undefined], [{}], [[1]]])(
    '%j is not a number',
    (v) => expect(toHundredths(v)).toBeNull(),
  );
});

describe('amount conditions, in 元 at 2 decimals', () => {
  it.each<[string, Condition, unknown, boolean]>([
    ['5000 > 5000', amountIs('amount', 1, '5000'), 5000, false],
    ['5000.00 > 5000', amountIs('amount', 1, '5000'), '5000.00', false],
    ['5000.01 > 5000', amountIs('amount', 1, '5000'), 5000.01, true],
    ['5000 >= 5000.00', amountIs('amount', 2, '5000.00'), 5000, true],
    ['4999.99 >= 5000', amountIs('amount', 2, '5000'), 4999.99, false],
    ['5000.00 = 5000', amountIs('amount', 3, '5000'), '5000.00', true],
    ['5000.01 = 5000', amountIs('amount', 3, '5000'), 5000.01, false],
    ['0.1+0.2 = 0.3', amountIs('amount', 3, '0.3'), 0.1 + 0.2, true],
    ['4999.99 < 5000', amountIs('amount', 4, '5000'), 4999.99, true],
    ['5000 < 5000', amountIs('amount', 4, '5000'), 5000, false],
    ['5000 <= 5000', amountIs('amount', 5, '5000'), 5000, true],
    ['5000.01 <= 5000', amountIs('amount', 5, '5000'), 5000.01, false],
    ['range: lower end 1000 included', amountIs('amount', 6, '1000', '5000'), 1000, true],
    ['range: upper end 5000 included', amountIs('amount', 6, '1000', '5000'), '5000.00', true],
    ['range: 999.99 just below', amountIs('amount', 6, '1000', '5000'), 999.99, false],
    ['range: 5000.01 just above', amountIs('amount', 6, '1000', '5000'), 5000.01, false],
    ['range: inside', amountIs('amount', 6, '1000', '5000'), 3000, true],
  ])('%s → %s', (_name, c, amount, want) => expect(holds(c, { amount })).toBe(want));

  it.each<[string, Condition, FormValues]>([
    ['field missing', amountIs('amount', 2, '0'), {}],
    ['field null', amountIs('amount', 2, '0'), { amount: null }],
    ['field empty', amountIs('amount', 2, '0'), { amount: '' }],
    ['field not a number', amountIs('amount', 2, '0'), { amount: '五千' }],
    ['condition without operator', { ...amountIs('amount', 2, '0'), optType: undefined }, { amount: 1 }],
    ['condition bound not a number', amountIs('amount', 2, 'x'), { amount: 1 }],
    ['range without upper bound', amountIs('amount', 6, '0'), { amount: 1 }],
  ])('false when %s', (_name, c, form) => expect(holds(c, form)).toBe(false));
});

describe('duration conditions, converted to the condition unit (1 day = 24 hours)', () => {
  it.each<[string, Condition, FormValues, boolean]>([
    ['3 days > 3 days', durationIs('days', 1, '3', 1), { days: span(3) }, false],
    ['3.5 days > 3 days', durationIs('days', 1, '3', 1), { days: span(3.5) }, true],
    ['3 days >= 3 days', durationIs('days', 2, '3', 1), { days: span(3) }, true],
    ['2 days = 48 hours', durationIs('days', 3, '48', 0), { days: span(2) }, true],
    ['1 day < 25 hours', durationIs('days', 4, '25', 0), { days: span(1) }, true],
    ['24 hours <= 1 day', durationIs('hours', 5, '1', 1), { hours: span(24) }, true],
    ['25 hours <= 1 day', durationIs('hours', 5, '1', 1), { hours: span(25) }, false],
    ['12 hours = 0.5 days', durationIs('hours', 3, '0.5', 1), { hours: span(12) }, true],
    ['range 1..3 days: 1 included', durationIs('days', 6, '1', 1, '3'), { days: span(1) }, true],
    ['range 1..3 days: 3 included', durationIs('days', 6, '1', 1, '3'), { days: span(3) }, true],
    ['range 1..3 days: 3.01 outside', durationIs('days', 6, '1', 1, '3'), { days: span(3.01) }, false],
    ['range 1..3 days: 0.99 outside', durationIs('days', 6, '1', 1, '3'), { days: span(0.99) }, false],
    ['a bare number is read as the duration', durationIs('days', 1, '3', 1), { days: 4 }, true],
    ['missing duration', durationIs('days', 2, '0', 1), { days: { start: '2026-03-02' } }, false],
    ['missing field', durationIs('days', 2, '0', 1), {}, false],
  ])('%s → %s', (_name, c, form, want) => expect(holds(c, form)).toBe(want));
});

describe('multi-choice conditions', () => {
  it.each<[string, unknown, string[], boolean]>([
    ['one key listed', 'sick', ['sick', 'annual'], true],
    ['one key not listed', 'personal', ['sick', 'annual'], false],
    ['several keys, one listed', ['personal', 'annual'], ['sick', 'annual'], true],
    ['several keys, none listed', ['personal', 'other'], ['sick', 'annual'], false],
    ['no keys chosen', [], ['sick'], false],
    ['missing', undefined, ['sick'], false],
    ['nothing to match', 'sick', [], false],
  ])('%s → %s', (_name, kind, keys, want) => expect(holds(choiceIn('kind', keys), { kind })).toBe(want));
});

describe('person conditions on the starter (columnId 0)', () => {
  it.each<[string, ReturnType<typeof person>[], number, boolean]>([
    ['listed person', [person(1)], 1, true],
    ['another person', [person(2)], 1, false],
    ['own department', [dept(11)], 1, true],
    ['parent department counts (sub-department member)', [dept(10)], 1, true],
    ['the top department counts', [dept(1)], 4, true],
    ['a sibling department does not', [dept(20)], 1, false],
    ['a held role', [role(7)], 2, true],
    ['a role not held', [role(8)], 2, false],
    ['any of several', [person(9), dept(20), role(8)], 3, true],
    ['nobody listed', [], 1, false],
  ])('%s → %s', (_name, targets, starter, want) => expect(holds(starterIn(targets), {}, starter)).toBe(want));

  it('a person field of the form matches the people picked there', () => {
    const c: Condition = { columnId: 'who', showName: '同行人', columnType: 1, nodeUserList: [dept(20)] };
    expect(holds(c, { who: [1, 4] })).toBe(true);
    expect(holds(c, { who: 1 })).toBe(false);
    expect(holds(c, {})).toBe(false);
  });
});

describe('chooseBranch', () => {
  const big = branch([amountIs('amount', 1, '5000')]);
  const mid = branch([amountIs('amount', 1, '1000')]);
  const other = branch([]);
  const pick = (b: ReturnType<typeof router>, form: FormValues, starter = 1) =>
    chooseBranch(b.conditionNodes, ctx(form, starter)).index;

  it('takes the first matching branch by priority, not by array order', () => {
    const r = router(big, mid, other);
    expect(pick(r, { amount: 6000 })).toBe(0);
    expect(pick(r, { amount: 2000 })).toBe(1);
    // Same branches stored out of order: priorities decide.
    const shuffled = {
      ...r,
      conditionNodes: [r.conditionNodes[2]!, r.conditionNodes[1]!, r.conditionNodes[0]!],
    };
    expect(pick(shuffled, { amount: 6000 })).toBe(0);
    expect(chooseBranch(shuffled.conditionNodes, ctx({ amount: 6000 })).branch).toBe(r.conditionNodes[0]);
  });
  it('falls back to the last branch when nothing matches or the data is missing', () => {
    const r = router(big, mid, other);
    expect(pick(r, { amount: 10 })).toBe(2);
    expect(pick(r, {})).toBe(2);
  });
  it('needs all conditions of a branch (并且)', () => {
    const both = branch([amountIs('amount', 1, '1000'), starterIn([dept(20)])]);
    const r = router(both, other);
    expect(pick(r, { amount: 2000 }, 4)).toBe(0);
    expect(pick(r, { amount: 2000 }, 1)).toBe(1);
    expect(pick(r, { amount: 500 }, 4)).toBe(1);
  });
  it('the last branch is the fallback even when its own conditions hold or fail', () => {
    expect(pick(router(big, mid), { amount: 2000 })).toBe(1);
    expect(pick(router(big, mid), { amount: 10 })).toBe(1);
  });
  it('an unfinished non-last branch without conditions never catches requests', () => {
    expect(pick(router(branch([]), big, other), { amount: 6000 })).toBe(1);
    expect(pick(router(branch([]), big, other), { amount: 1 })).toBe(2);
  });
});
