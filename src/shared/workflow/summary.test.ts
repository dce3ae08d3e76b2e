import { describe, expect, it } from 'vitest';
import type { ApproverNode, BranchNode, Condition, CopyToNode, FormField, Target } from './definition';
import {
  approverSummary,
  branchSummary,
  conditionSummary,
  copyToSummary,
  nodeSummary,
  starterSummary,
} from './summary';
import { approver } from './build';

const p = (id: number, name: string): Target => ({ targetId: id, type: 1, name });
const fields: FormField[] = [
  {
    id: 'kind',
    type: 'checkbox',
    label: '类型',
    required: false,
    options: [
      { key: 'a', value: '办公用品' },
      { key: 'b', value: '设备' },
    ],
  },
];

describe('approverSummary', () => {
  it.each<[string, Partial<ApproverNode>, string]>([
    ['nobody yet', {}, '请选择审批人'],
    ['one person', { nodeUserList: [p(1, '张三')] }, '张三'],
    ['several, any one', { nodeUserList: [p(1, '张三'), p(2, '李四')] }, '2人或签：张三、李四'],
    [
      'several, all',
      { examineMode: 2, nodeUserList: [p(1, '张三'), p(2, '李四'), p(3, '王五')] },
      '3人会签：张三、李四、王五',
    ],
    ['direct superior', { settype: 2 }, '直接主管'],
    ['third superior', { settype: 2, directorLevel: 3 }, '第3级主管'],
    ['dept-role, none', { settype: 3 }, '请选择审批的部门和角色'],
    [
      'dept-role pairs',
      {
        settype: 3,
        deptRoleList: [
          { deptid: 1, deptName: '典藏部', roleid: 2, roleName: '保管员' },
          { deptid: 3, deptName: '陈列部', roleid: 4, roleName: '主任' },
        ],
      },
      '典藏部·保管员、陈列部·主任',
    ],
    ['the starter', { settype: 5 }, '发起人自己'],
  ])('%s', (_, over, text) => {
    expect(approverSummary(approver(over))).toBe(text);
    expect(nodeSummary(approver(over))).toBe(text);
  });
});

describe('copyToSummary and starterSummary', () => {
  const copy = (list: Target[], notice: 0 | 1): CopyToNode => ({
    type: 2,
    nodeName: '抄送人',
    nodeUserList: list,
    notice,
    childNode: null,
  });
  it.each<[Target[], 0 | 1, string]>([
    [[], 1, '请选择抄送人'],
    [[p(1, '张三')], 1, '张三（审批通过后通知）'],
    [[p(1, '张三'), { targetId: 5, type: 3, name: '典藏部' }], 0, '张三、典藏部（提交时通知）'],
  ])('%j notice %i', (list, notice, text) => {
    expect(copyToSummary(copy(list, notice))).toBe(text);
  });
  it('the starter scope', () => {
    expect(starterSummary([])).toBe('所有人');
    expect(starterSummary([p(1, '张三'), { targetId: 5, type: 3, name: '典藏部' }])).toBe('张三、典藏部');
  });
});

describe('conditionSummary', () => {
  const amount = (over: Partial<Condition>): Condition => ({
    columnId: 'amount',
    showName: '金额',
    columnType: 4,
    ...over,
  });
  it.each<[string, Condition, string | null]>([
    ['>', amount({ optType: 1, zdy1: '5000' }), '金额 > 5000元'],
    [
      '≥ days',
      { columnId: 'd', showName: '请假时长', columnType: 3, optType: 2, zdy1: '3', unit: 1 },
      '请假时长 ≥ 3天',
    ],
    [
      '< hours',
      { columnId: 'd', showName: '加班时长', columnType: 3, optType: 4, zdy1: '4.5', unit: 0 },
      '加班时长 < 4.5小时',
    ],
    ['=', amount({ optType: 3, zdy1: '100.50' }), '金额 = 100.5元'],
    ['≤', amount({ optType: 5, zdy1: '+0.05' }), '金额 ≤ 0.05元'],
    ['range', amount({ optType: 6, zdy1: '3', zdy2: '5.00' }), '3 ≤ 金额 ≤ 5元'],
    ['range, one end', amount({ optType: 6, zdy1: '3' }), null],
    ['no operator', amount({ zdy1: '3' }), null],
    ['no value', amount({ optType: 1, zdy1: '' }), null],
    ['bad value', amount({ optType: 1, zdy1: 'abc' }), null],
    [
      'choice by label',
      { columnId: 'kind', showName: '类型', columnType: 2, downValArr: ['a', 'b'] },
      '类型 属于 办公用品 或 设备',
    ],
    [
      'choice of a deleted option shows its key',
      { columnId: 'kind', showName: '类型', columnType: 2, downValArr: ['z'] },
      '类型 属于 z',
    ],
    ['choice, none', { columnId: 'kind', showName: '类型', columnType: 2, downValArr: [] }, null],
    [
      'starter',
      {
        columnId: '0',
        showName: '发起人',
        columnType: 1,
        nodeUserList: [p(1, '张三'), { targetId: 5, type: 3, name: '典藏部' }],
      },
      '发起人属于 张三、典藏部',
    ],
    ['starter, none', { columnId: '0', showName: '发起人', columnType: 1 }, null],
  ])('%s', (_, cond, text) => {
    expect(conditionSummary(cond, fields)).toBe(text);
  });
});

describe('branchSummary', () => {
  const b = (conditionList: Condition[]): BranchNode => ({
    type: 3,
    nodeName: '条件1',
    priorityLevel: 1,
    conditionList,
    childNode: null,
  });
  const big: Condition = { columnId: 'amount', showName: '金额', columnType: 4, optType: 1, zdy1: '5000' };
  const kind: Condition = { columnId: 'kind', showName: '类型', columnType: 2, downValArr: ['b'] };
  it.each<[string, Condition[], boolean, string]>([
    ['conditions joined with 并且', [big, kind], false, '金额 > 5000元 并且 类型 属于 设备'],
    ['incomplete conditions are left out', [big, { ...kind, downValArr: [] }], false, '金额 > 5000元'],
    ['nothing complete', [{ ...big, zdy1: '' }], false, '请设置条件'],
    ['no conditions, not last', [], false, '请设置条件'],
    ['no conditions, last: the fallback', [], true, '其他条件进入此流程'],
    ['the last one with conditions shows them', [big], true, '金额 > 5000元'],
  ])('%s', (_, list, isLast, text) => {
    expect(branchSummary(b(list), isLast, fields)).toBe(text);
    expect(nodeSummary(b(list), { isLastBranch: isLast, fields })).toBe(text);
  });
});
