import { describe, expect, it } from 'vitest';
import type {
  ApproverNode,
  BranchNode,
  ChainNode,
  Condition,
  CopyToNode,
  FormField,
  RouterNode,
  StarterNode,
  WorkflowDefinition,
} from './definition';
import { conditionProblems, definitionErrors, markErrors } from './validate';

const fields: FormField[] = [
  { id: 'amount', type: 'amount', label: '金额', required: true },
  { id: 'days', type: 'dateRange', label: '请假时长', required: true, unit: 1 },
  {
    id: 'kind',
    type: 'radio',
    label: '类型',
    required: true,
    options: [
      { key: 'a', value: '办公用品' },
      { key: 'b', value: '设备' },
    ],
  },
  { id: 'note', type: 'text', label: '备注', required: false },
];

const approver = (over: Partial<ApproverNode> = {}, childNode: ChainNode | null = null): ApproverNode => ({
  type: 1,
  nodeName: '审批人',
  settype: 1,
  examineMode: 1,
  directorLevel: 1,
  nodeUserList: [{ targetId: 1, type: 1, name: '张三' }],
  deptRoleList: [],
  childNode,
  ...over,
});
const branch = (p: number, conditionList: Condition[], childNode: ChainNode | null = null): BranchNode => ({
  type: 3,
  nodeName: `条件${p}`,
  priorityLevel: p,
  conditionList,
  childNode,
});
const router = (branches: BranchNode[], childNode: ChainNode | null = null): RouterNode => ({
  type: 4,
  nodeName: '路由',
  conditionNodes: branches,
  childNode,
});
const def = (childNode: ChainNode | null, directorMaxLevel = 3): WorkflowDefinition => ({
  fields,
  directorMaxLevel,
  flowPermission: [],
  nodeConfig: { type: 0, nodeName: '发起人', childNode },
});
const amountOver5000: Condition = {
  columnId: 'amount',
  showName: '金额',
  columnType: 4,
  optType: 1,
  zdy1: '5000',
};

describe('definitionErrors', () => {
  it('a good flow has none', () => {
    const flow = approver(
      {},
      router([branch(1, [amountOver5000], approver({ settype: 2, directorLevel: 3 })), branch(2, [])], {
        type: 2,
        nodeName: '抄送人',
        nodeUserList: [{ targetId: 2, type: 1, name: '李四' }],
        notice: 1,
        childNode: null,
      }),
    );
    expect(definitionErrors(def(flow))).toEqual([]);
  });

  it.each<[string, ChainNode | null, { path: (string | number)[]; nodeName: string; message: string }[]]>([
    ['an empty flow', null, [{ path: [], nodeName: '发起人', message: '流程中至少需要 1 个审批人' }]],
    [
      'only a copy-to, without recipients',
      { type: 2, nodeName: '抄送人', nodeUserList: [], notice: 1, childNode: null },
      [
        { path: [], nodeName: '发起人', message: '流程中至少需要 1 个审批人' },
        { path: ['child'], nodeName: '抄送人', message: '请选择抄送人' },
      ],
    ],
    [
      'named members without people',
      approver({ nodeUserList: [] }),
      [{ path: ['child'], nodeName: '审批人', message: '请选择审批人' }],
    ],
    [
      'named members that are only roles',
      approver({ nodeUserList: [{ targetId: 4, type: 2, name: '主任' }] }),
      [{ path: ['child'], nodeName: '审批人', message: '请选择审批人' }],
    ],
    [
      'department-role without pairs',
      approver({ settype: 3, nodeUserList: [] }),
      [{ path: ['child'], nodeName: '审批人', message: '请选择审批的部门和角色' }],
    ],
    [
      'a superior above directorMaxLevel',
      approver({ nodeName: '馆长', settype: 2, directorLevel: 4 }),
      [{ path: ['child'], nodeName: '馆长', message: '主管级别超出范围，最多为第3级主管' }],
    ],
    [
      'a non-last branch without conditions, nested in a branch',
      router(
        [branch(1, [amountOver5000], router([branch(1, []), branch(2, [])])), branch(2, [])],
        approver(),
      ),
      [{ path: ['child', 0, 'child', 0], nodeName: '条件1', message: '请设置条件' }],
    ],
    [
      'a last branch with conditions',
      router([branch(1, [amountOver5000]), branch(2, [amountOver5000])], approver()),
      [
        {
          path: ['child', 1],
          nodeName: '条件2',
          message: '最后一个分支是“其他条件”分支，不能设置条件；请新增条件分支',
        },
      ],
    ],
    [
      'a router with one branch',
      router([branch(1, [])], approver()),
      [{ path: ['child'], nodeName: '路由', message: '条件分支至少需要 2 个' }],
    ],
  ])('%s', (_, flow, errors) => {
    expect(definitionErrors(def(flow))).toEqual(errors);
  });

  it('a superior exactly at the maximum, the starter and a dept-role pair are fine', () => {
    for (const a of [
      approver({ settype: 2, directorLevel: 3 }),
      approver({ settype: 5, nodeUserList: [] }),
      approver({
        settype: 3,
        deptRoleList: [{ deptid: 1, deptName: '典藏部', roleid: 2, roleName: '保管员' }],
      }),
    ]) {
      expect(definitionErrors(def(a))).toEqual([]);
    }
  });

  it('lists condition problems under their branch, in tree order', () => {
    const flow = router(
      [
        branch(1, [
          { ...amountOver5000, zdy1: '' },
          { columnId: 'gone', showName: '面积', columnType: 4 },
        ]),
        branch(2, []),
      ],
      approver({ nodeUserList: [] }),
    );
    expect(definitionErrors(def(flow)).map((e) => [e.path.join('.'), e.message])).toEqual([
      ['child.0', '请填写“金额”的数值'],
      ['child.0', '条件“面积”对应的表单字段已删除，请删除此条件'],
      ['child.child', '请选择审批人'],
    ]);
  });
});

describe('conditionProblems', () => {
  const c = (over: Partial<Condition>): Condition => ({ ...amountOver5000, ...over });
  it.each<[string, Condition, string[]]>([
    ['amount > 5000', amountOver5000, []],
    ['amount without a value', c({ zdy1: ' ' }), ['请填写“金额”的数值']],
    ['amount without an operator', c({ optType: undefined }), ['请选择“金额”的比较方式']],
    ['amount with 3 decimals', c({ zdy1: '1.005' }), ['“金额”：最多保留 2 位小数']],
    ['amount not a number', c({ zdy1: '五千' }), ['“金额”：请输入数字（可带正负号和小数点）']],
    ['range with both ends', c({ optType: 6, zdy1: '3', zdy2: '5' }), []],
    ['range with equal ends', c({ optType: 6, zdy1: '5', zdy2: '5.00' }), []],
    ['range with one end', c({ optType: 6, zdy1: '3', zdy2: '' }), ['请填写“金额”范围的两端']],
    ['range reversed', c({ optType: 6, zdy1: '10', zdy2: '9.5' }), ['“金额”范围的下限不能大于上限']],
    ['range with negatives', c({ optType: 6, zdy1: '-10', zdy2: '-9.5' }), []],
    [
      'duration without unit or value',
      { columnId: 'days', showName: '请假时长', columnType: 3, optType: 2 },
      ['请选择“请假时长”的单位（小时或天）', '请填写“请假时长”的数值'],
    ],
    [
      'duration ≥ 3 days',
      { columnId: 'days', showName: '请假时长', columnType: 3, optType: 2, zdy1: '3', unit: 1 },
      [],
    ],
    [
      'choice of known options',
      { columnId: 'kind', showName: '类型', columnType: 2, downValArr: ['a', 'b'] },
      [],
    ],
    [
      'choice without options',
      { columnId: 'kind', showName: '类型', columnType: 2, downValArr: [] },
      ['请选择“类型”的选项'],
    ],
    [
      'choice of a deleted option',
      { columnId: 'kind', showName: '类型', columnType: 2, downValArr: ['a', 'z'] },
      ['“类型”中有选项已从表单删除，请重新选择'],
    ],
    [
      'person with people',
      {
        columnId: '0',
        showName: '发起人',
        columnType: 1,
        nodeUserList: [{ targetId: 1, type: 3, name: '典藏部' }],
      },
      [],
    ],
    [
      'person without people',
      { columnId: '0', showName: '发起人', columnType: 1, nodeUserList: [] },
      ['请选择发起人范围'],
    ],
    [
      'person on a form field',
      { columnId: 'note', showName: '备注', columnType: 1, nodeUserList: [] },
      ['条件“备注”与表单字段的类型不符，请删除后重新添加'],
    ],
    ['amount on the starter', c({ columnId: '0' }), ['条件“金额”与表单字段的类型不符，请删除后重新添加']],
    [
      'amount on a text field',
      c({ columnId: 'note', showName: '' }),
      ['条件“备注”与表单字段的类型不符，请删除后重新添加'],
    ],
    ['amount on a date range', c({ columnId: 'days' }), ['条件“金额”与表单字段的类型不符，请删除后重新添加']],
    [
      'duration on an amount',
      { columnId: 'amount', showName: '时长', columnType: 3, optType: 1, zdy1: '1', unit: 0 },
      ['条件“时长”与表单字段的类型不符，请删除后重新添加'],
    ],
    [
      'choice on a text field',
      { columnId: 'note', showName: '备注', columnType: 2, downValArr: ['a'] },
      ['条件“备注”与表单字段的类型不符，请删除后重新添加'],
    ],
    [
      'a field that is gone',
      c({ columnId: 'budget', showName: '预算' }),
      ['条件“预算”对应的表单字段已删除，请删除此条件'],
    ],
  ])('%s', (_, cond, problems) => {
    expect(conditionProblems(cond, fields)).toEqual(problems);
  });
  it('without fields only the values are checked', () => {
    expect(conditionProblems({ ...amountOver5000, columnId: 'budget' })).toEqual([]);
    expect(conditionProblems({ columnId: 'x', showName: '类型', columnType: 2, downValArr: ['zz'] })).toEqual(
      [],
    );
  });
});

describe('markErrors', () => {
  const tree = (): StarterNode =>
    def(
      approver(
        { nodeUserList: [], error: false },
        router(
          [
            branch(1, [], approver({ settype: 2, directorLevel: 5, error: true })),
            branch(2, [amountOver5000]),
            { ...branch(3, []), error: true },
          ],
          { type: 2, nodeName: '抄送人', nodeUserList: [], notice: 0, childNode: null },
        ),
      ),
    ).nodeConfig;

  it('marks exactly the nodes definitionErrors names', () => {
    const t = markErrors(tree(), { fields, directorMaxLevel: 3 });
    const a = t.childNode as ApproverNode;
    const r = a.childNode as RouterNode;
    expect(a.error).toBe(true);
    expect(r.conditionNodes.map((b) => b.error)).toEqual([true, false, false]);
    expect((r.conditionNodes[0]!.childNode as ApproverNode).error).toBe(true);
    expect((r.childNode as CopyToNode).error).toBe(true);
    const named = definitionErrors({ ...def(null), nodeConfig: t }).map((e) => e.path.join('.'));
    expect(named).toEqual(['child', 'child.child.0', 'child.child.0.child', 'child.child.child']);
  });
  it('without directorMaxLevel the level is not judged, and the input is untouched', () => {
    const input = tree();
    const before = structuredClone(input);
    const t = markErrors(input);
    const r = (t.childNode as ApproverNode).childNode as RouterNode;
    expect((r.conditionNodes[0]!.childNode as ApproverNode).error).toBe(false);
    expect(input).toEqual(before);
  });
});
