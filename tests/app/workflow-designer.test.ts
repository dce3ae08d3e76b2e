import { describe, expect, it } from 'vitest';
import { WorkflowDefinition, type FormField } from '../../src/shared/workflow/definition';
import { definitionErrors } from '../../src/shared/workflow/validate';
import {
  STARTER_CONDITION,
  conditionFieldsFromForm,
  emptyDefinition,
  formProblems,
  moveItem,
  newCondition,
  newField,
  newFieldId,
  nextOptionKey,
  parseConditionFields,
} from '../../src/app/lib/workflow-designer';

/** The template editor's own pure helpers (app/lib/workflow-designer.ts). */

const FORM: FormField[] = [
  { id: 'amount', type: 'amount', label: '报销金额', required: true },
  { id: 'reason', type: 'textarea', label: '事由', required: true },
  { id: 'period', type: 'dateRange', label: '请假时间', required: true, unit: 0 },
  {
    id: 'kind',
    type: 'radio',
    label: '类型',
    required: true,
    options: [
      { key: '1', value: '年假' },
      { key: '2', value: '事假' },
    ],
  },
  { id: 'files', type: 'attachment', label: '附件', required: false },
];

describe('conditionFieldsFromForm', () => {
  it('offers the starter, then choices, durations and amounts in form order, and nothing else', () => {
    expect(conditionFieldsFromForm(FORM)).toEqual([
      STARTER_CONDITION,
      { columnId: 'amount', showName: '报销金额', columnType: 4 },
      { columnId: 'period', showName: '请假时间', columnType: 3, unit: 0 },
      { columnId: 'kind', showName: '类型', columnType: 2, options: FORM[3]!.options },
    ]);
  });
  it('an empty form still offers the starter condition', () => {
    expect(conditionFieldsFromForm([])).toEqual([STARTER_CONDITION]);
  });
});

describe('parseConditionFields', () => {
  it('reads the server list, keeping only fields the form still has with the same kind', () => {
    const raw = [
      { columnId: 0, showName: '发起人', columnType: 1 },
      { columnId: 'amount', showName: '金额（元）', columnType: 4 },
      { columnId: 'gone', showName: '已删除', columnType: 4 },
      { columnId: 'kind', showName: '类型', columnType: 3 },
      null,
    ];
    expect(parseConditionFields(raw, FORM)).toEqual([
      STARTER_CONDITION,
      { columnId: 'amount', showName: '金额（元）', columnType: 4 },
    ]);
  });
  it('accepts {list}, adds the starter when missing, and refuses what is not a list', () => {
    expect(parseConditionFields({ list: [] }, FORM)).toEqual([STARTER_CONDITION]);
    expect(parseConditionFields({ foo: 1 }, FORM)).toBeNull();
    expect(parseConditionFields('x', FORM)).toBeNull();
  });
});

describe('newCondition', () => {
  it('numeric conditions start at 大于 with the field unit; others start empty (and are not yet valid)', () => {
    const [starter, amount, period, kind] = conditionFieldsFromForm(FORM);
    expect(newCondition(amount!)).toEqual({
      columnId: 'amount',
      showName: '报销金额',
      columnType: 4,
      optType: 1,
      zdy1: '',
    });
    expect(newCondition(period!)).toMatchObject({ columnType: 3, optType: 1, unit: 0, zdy1: '' });
    expect(newCondition(kind!)).toMatchObject({ columnType: 2, downValArr: [] });
    expect(newCondition(starter!)).toMatchObject({ columnId: '0', columnType: 1, nodeUserList: [] });
  });
});

describe('form fields', () => {
  it('ids are unique per type, never reuse a living id, and pass the schema pattern', () => {
    expect(newFieldId('amount', [])).toBe('amount1');
    expect(newFieldId('amount', [{ id: 'amount1' }, { id: 'amount2' }])).toBe('amount3');
    expect(newFieldId('amount', [{ id: 'amount2' }])).toBe('amount1');
    const f = newField('checkbox', FORM, '多选');
    expect(f).toMatchObject({ id: 'checkbox1', type: 'checkbox', label: '多选', required: false });
    expect(f.options).toHaveLength(2);
    expect(newField('dateRange', FORM, '时间').unit).toBe(1);
    expect(/^[a-zA-Z][a-zA-Z0-9_]{0,39}$/.test(newFieldId('dateRange', FORM))).toBe(true);
  });
  it('option keys continue after the highest, so a removed option key is never reused for another', () => {
    expect(nextOptionKey([{ key: '1' }, { key: '3' }])).toBe('4');
    expect(nextOptionKey([])).toBe('1');
    expect(nextOptionKey([{ key: 'annual' }])).toBe('1');
  });
  it('moveItem swaps neighbours and leaves the ends alone', () => {
    const list = ['a', 'b', 'c'];
    expect(moveItem(list, 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(list, 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(list, 0, -1)).toBe(list);
    expect(moveItem(list, 2, 1)).toBe(list);
  });
  it('formProblems names blank and repeated labels and bad choices', () => {
    expect(formProblems(FORM)).toEqual([]);
    const bad: FormField[] = [
      { id: 'a', type: 'text', label: ' ', required: false },
      { id: 'b', type: 'text', label: '名称', required: false },
      { id: 'c', type: 'text', label: '名称', required: false },
      { id: 'd', type: 'radio', label: '单选', required: false, options: [] },
      { id: 'e', type: 'checkbox', label: '多选', required: false, options: [{ key: '1', value: '' }] },
      {
        id: 'f',
        type: 'radio',
        label: '重复',
        required: false,
        options: [
          { key: '1', value: 'A' },
          { key: '2', value: 'A' },
        ],
      },
    ];
    expect(formProblems(bad)).toEqual([
      '第1个字段：请填写字段名称',
      '名称：字段名称重复',
      '单选：请至少添加一个选项',
      '多选：选项不能为空',
      '重复：选项重复',
    ]);
  });
});

describe('emptyDefinition', () => {
  it('passes the schema but cannot be published until it has an approver', () => {
    const def = emptyDefinition();
    expect(WorkflowDefinition.safeParse(def).success).toBe(true);
    expect(definitionErrors(def).map((e) => e.message)).toEqual(['流程中至少需要 1 个审批人']);
  });
});
