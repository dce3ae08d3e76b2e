import type {
  ApproverNode,
  BranchNode,
  ChainNode,
  Condition,
  CopyToNode,
  FormField,
  RouterNode,
  Target,
  WorkflowDefinition,
} from '../../../shared/workflow/definition';

/**
 * The demo museum's approval templates (issue 8): 请假, 出差, 报销, 用印, 采购 and 文物出入库,
 * with the flows a small museum runs. Written against the demo organisation (the director,
 * 办公室's head who keeps the seals, 文保部's conservators, 典藏部's head), so they are seeded with
 * the demo and published as version 1.
 */
export interface DemoOrg {
  user: (account: string) => { id: number; name: string };
  dept: (name: string) => number;
  role: (code: string) => { id: number; name: string };
}

const person = (p: { id: number; name: string }): Target => ({ targetId: p.id, type: 1, name: p.name });

function superior(level = 1, next: ChainNode | null = null): ApproverNode {
  return {
    type: 1,
    nodeName: level === 1 ? '直接主管' : `第${level}级主管`,
    settype: 2,
    examineMode: 1,
    directorLevel: level,
    nodeUserList: [],
    deptRoleList: [],
    childNode: next,
  };
}
function named(nodeName: string, people: Target[], next: ChainNode | null = null): ApproverNode {
  return {
    type: 1,
    nodeName,
    settype: 1,
    examineMode: 1,
    directorLevel: 1,
    nodeUserList: people,
    deptRoleList: [],
    childNode: next,
  };
}
function copyTo(people: Target[], next: ChainNode | null = null): CopyToNode {
  return { type: 2, nodeName: '抄送人', nodeUserList: people, notice: 1, childNode: next };
}
/** A router with one conditioned branch (its chain) and the fallback 其他条件 (straight on). */
function when(conditions: Condition[], then: ChainNode, next: ChainNode | null): RouterNode {
  const branch = (n: number, list: Condition[], child: ChainNode | null): BranchNode => ({
    type: 3,
    nodeName: `条件${n}`,
    priorityLevel: n,
    conditionList: list,
    childNode: child,
  });
  return {
    type: 4,
    nodeName: '路由',
    conditionNodes: [branch(1, conditions, then), branch(2, [], null)],
    childNode: next,
  };
}

const text = (id: string, label: string, required = true): FormField => ({
  id,
  type: 'text',
  label,
  required,
});
const area = (id: string, label: string, required = true): FormField => ({
  id,
  type: 'textarea',
  label,
  required,
});
const choice = (id: string, label: string, values: string[]): FormField => ({
  id,
  type: 'radio',
  label,
  required: true,
  options: values.map((v, i) => ({ key: String(i + 1), value: v })),
});
const days = (id: string, label: string): FormField => ({
  id,
  type: 'dateRange',
  label,
  required: true,
  unit: 1,
});
const amount = (id: string, label: string): FormField => ({ id, type: 'amount', label, required: true });

function definition(fields: FormField[], flow: ChainNode): WorkflowDefinition {
  return {
    fields,
    directorMaxLevel: 3,
    flowPermission: [],
    nodeConfig: { type: 0, nodeName: '发起人', childNode: flow },
  };
}

export function demoTemplates(org: DemoOrg) {
  const director = person(org.user('director'));
  const office = person(org.user('staff01'));
  const keeperHead = person(org.user('staff03'));
  const conservator = org.role('conservator');
  const overDays = (n: number): Condition => ({
    columnId: 'range',
    showName: '请假时长',
    columnType: 3,
    optType: 1,
    zdy1: String(n),
    unit: 1,
  });
  const over = (yuan: number): Condition => ({
    columnId: 'amount',
    showName: '金额',
    columnType: 4,
    optType: 1,
    zdy1: String(yuan),
  });

  return [
    {
      name: '请假',
      icon: 'calendar',
      group: '人事',
      definition: definition(
        [
          choice('leaveType', '请假类型', ['事假', '病假', '年假', '调休', '婚假', '产假']),
          days('range', '请假时间'),
          area('reason', '请假事由'),
          { id: 'proof', type: 'attachment', label: '证明材料', required: false },
        ],
        // More than 3 days also goes to the director.
        superior(1, when([overDays(3)], named('馆长审批', [director]), copyTo([office]))),
      ),
    },
    {
      name: '出差',
      icon: 'plane',
      group: '人事',
      definition: definition(
        [
          text('destination', '出差地点'),
          days('range', '出差时间'),
          area('reason', '出差事由'),
          amount('budget', '预算金额'),
        ],
        superior(1, copyTo([office])),
      ),
    },
    {
      name: '报销',
      icon: 'receipt',
      group: '财务',
      definition: definition(
        [
          choice('kind', '报销类别', ['差旅费', '办公用品', '接待费', '其他']),
          amount('amount', '报销金额'),
          area('detail', '费用明细'),
          { id: 'invoices', type: 'image', label: '发票照片', required: false },
        ],
        // Over 5,000 元 adds the director.
        superior(1, when([over(5000)], named('馆长审批', [director]), copyTo([office]))),
      ),
    },
    {
      name: '用印',
      icon: 'stamp',
      group: '行政',
      definition: definition(
        [
          choice('seal', '印章类型', ['公章', '合同专用章', '法人章']),
          { id: 'copies', type: 'number', label: '用印份数', required: true },
          area('purpose', '用印事由'),
          { id: 'file', type: 'attachment', label: '用印文件', required: true },
        ],
        // The office head keeps the seals.
        superior(1, named('办公室审批', [office])),
      ),
    },
    {
      name: '采购',
      icon: 'shopping-cart',
      group: '财务',
      definition: definition(
        [
          area('items', '采购物品'),
          amount('amount', '预计金额'),
          area('reason', '采购理由'),
          { id: 'quote', type: 'attachment', label: '报价单', required: false },
        ],
        superior(1, when([over(5000)], named('馆长审批', [director]), copyTo([office]))),
      ),
    },
    {
      name: '文物出入库',
      icon: 'building-warehouse',
      group: '藏品',
      definition: definition(
        [
          text('objectNo', '文物编号'),
          text('objectName', '文物名称', false),
          choice('from', '从', ['文物库房', '展厅', '修复室', '馆外']),
          choice('to', '到', ['文物库房', '展厅', '修复室', '馆外']),
          area('reason', '出入库事由'),
          { id: 'photos', type: 'image', label: '文物照片', required: true },
        ],
        // The conservation department checks the object's condition; the keeper head is told.
        superior(1, {
          type: 1,
          nodeName: '文保部审批',
          settype: 3,
          examineMode: 1,
          directorLevel: 1,
          nodeUserList: [],
          deptRoleList: [
            {
              deptid: org.dept('文保部'),
              deptName: '文保部',
              roleid: conservator.id,
              roleName: conservator.name,
            },
          ],
          childNode: copyTo([keeperHead]),
        }),
      ),
    },
  ];
}
