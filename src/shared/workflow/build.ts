import type {
  ApproverNode,
  BranchNode,
  ChainNode,
  Condition,
  CopyToNode,
  DeptRole,
  FormField,
  RouterNode,
  Target,
  WorkflowDefinition,
} from './definition';

/**
 * Small builders for definitions written in code: the seeded templates and the engine's tests.
 * Each node is built without its `childNode`; `chain` links a list of them.
 */

export const person = (id: number, name = `用户${id}`): Target => ({ targetId: id, type: 1, name });
export const role = (id: number, name = `角色${id}`): Target => ({ targetId: id, type: 2, name });
export const dept = (id: number, name = `部门${id}`): Target => ({ targetId: id, type: 3, name });

export function approver(p: Partial<Omit<ApproverNode, 'type' | 'childNode'>> = {}): ApproverNode {
  return {
    type: 1,
    nodeName: '审批人',
    settype: 1,
    examineMode: 1,
    directorLevel: 1,
    nodeUserList: [],
    deptRoleList: [],
    ...p,
    childNode: null,
  };
}
export const superior = (
  directorLevel = 1,
  nodeName = directorLevel === 1 ? '直接主管' : `第${directorLevel}级主管`,
) => approver({ settype: 2, directorLevel, nodeName });
export const members = (ids: number[], examineMode: 1 | 2 = 1, nodeName = '审批人') =>
  approver({ settype: 1, nodeUserList: ids.map((id) => person(id)), examineMode, nodeName });
export const deptRoles = (pairs: DeptRole[], examineMode: 1 | 2 = 1, nodeName = '审批人') =>
  approver({ settype: 3, deptRoleList: pairs, examineMode, nodeName });

export function copyTo(ids: number[], notice: 0 | 1 = 1, nodeName = '抄送人'): CopyToNode {
  return { type: 2, nodeName, nodeUserList: ids.map((id) => person(id)), notice, childNode: null };
}

/** A branch with its conditions and the chain it runs; priorities are set by `router`. */
export function branch(conditionList: Condition[], ...nodes: ChainNode[]): BranchNode {
  return { type: 3, nodeName: '条件', priorityLevel: 0, conditionList, childNode: chain(...nodes) };
}
/** A router over branches in priority order (the last is the fallback, 其他条件). */
export function router(...branches: BranchNode[]): RouterNode {
  return {
    type: 4,
    nodeName: '路由',
    conditionNodes: branches.map((b, i) => ({
      ...b,
      priorityLevel: i + 1,
      nodeName: i === branches.length - 1 && b.conditionList.length === 0 ? '其他条件' : `条件${i + 1}`,
    })),
    childNode: null,
  };
}

/** Links nodes through `childNode` (a router's `childNode` is what follows its join). */
export function chain(...nodes: ChainNode[]): ChainNode | null {
  let next: ChainNode | null = null;
  for (let i = nodes.length - 1; i >= 0; i--) next = { ...nodes[i]!, childNode: next };
  return next;
}

export function definition(
  nodes: ChainNode[],
  p: { fields?: FormField[]; flowPermission?: Target[]; directorMaxLevel?: number } = {},
): WorkflowDefinition {
  return {
    fields: p.fields ?? [],
    directorMaxLevel: p.directorMaxLevel ?? 3,
    flowPermission: p.flowPermission ?? [],
    nodeConfig: { type: 0, nodeName: '发起人', childNode: chain(...nodes) },
  };
}

/** Numeric conditions on a form field: amount (columnType 4) or duration (3, unit 0 h / 1 d). */
export function amountIs(
  columnId: string,
  optType: Condition['optType'],
  zdy1: string,
  zdy2?: string,
): Condition {
  return { columnId, showName: '金额', columnType: 4, optType, zdy1, ...(zdy2 !== undefined && { zdy2 }) };
}
export function durationIs(
  columnId: string,
  optType: Condition['optType'],
  zdy1: string,
  unit: 0 | 1 = 1,
  zdy2?: string,
): Condition {
  return {
    columnId,
    showName: '时长',
    columnType: 3,
    optType,
    zdy1,
    unit,
    ...(zdy2 !== undefined && { zdy2 }),
  };
}
export function choiceIn(columnId: string, keys: string[]): Condition {
  return { columnId, showName: '类型', columnType: 2, downValArr: keys };
}
export function starterIn(targets: Target[]): Condition {
  return { columnId: '0', showName: '发起人', columnType: 1, nodeUserList: targets };
}
