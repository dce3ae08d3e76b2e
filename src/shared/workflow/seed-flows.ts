import {
  amountIs,
  approver,
  branch,
  copyTo,
  deptRoles,
  definition,
  durationIs,
  router,
  superior,
} from './build';
import type { ChainNode, DeptRole, FormField, Target, WorkflowDefinition } from './definition';

/**
 * Flows of the seeded templates the issue names, built over the museum's real ids at seed time.
 * The director (馆长) is a department-role pair so the flow follows whoever holds the post.
 */
export interface SeedOrg {
  director: DeptRole;
  /** People told when a request passes (e.g. the personnel or finance office); may be empty. */
  copyTo?: number[];
}

/** What the other museum templates need from the organisation. */
export interface MuseumOrg extends SeedOrg {
  /** The office head, who keeps the seals (用印). */
  sealKeeper: Target;
  /** The conservation department's conservators, who check an object before it moves. */
  conservators: DeptRole;
  /** Told when an object movement is approved (the collections department head). */
  collections: Target;
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
function choice(id: string, label: string, values: string[]): FormField {
  return {
    id,
    type: 'radio',
    label,
    required: true,
    options: values.map((value, i) => ({ key: String(i + 1), value })),
  };
}
/** A copy-to of named people, told when the request passes. */
const tell = (people: Target[]): ChainNode => ({ ...copyTo([], 1), nodeUserList: people });
const tellIds = (org: SeedOrg) => (org.copyTo?.length ? [copyTo(org.copyTo, 1)] : []);

/** 请假: the direct superior approves; more than 3 days also goes to the director. */
export const LEAVE_FIELDS: FormField[] = [
  {
    id: 'leaveType',
    type: 'radio',
    label: '请假类型',
    required: true,
    options: [
      { key: 'annual', value: '年假' },
      { key: 'personal', value: '事假' },
      { key: 'sick', value: '病假' },
      { key: 'other', value: '其他' },
    ],
  },
  { id: 'period', type: 'dateRange', label: '请假时间', required: true, unit: 1 },
  { id: 'reason', type: 'textarea', label: '请假事由', required: true },
];
export function leaveFlow(org: SeedOrg): WorkflowDefinition {
  return definition(
    [
      superior(1),
      router(branch([durationIs('period', 1, '3', 1)], deptRoles([org.director], 1, '馆长')), branch([])),
      ...(org.copyTo?.length ? [copyTo(org.copyTo, 1)] : []),
    ],
    { fields: LEAVE_FIELDS },
  );
}

/** 报销: the direct superior approves; over 5,000 元 the director approves too. */
export const EXPENSE_FIELDS: FormField[] = [
  { id: 'amount', type: 'amount', label: '报销金额（元）', required: true },
  { id: 'reason', type: 'textarea', label: '报销事由', required: true },
  { id: 'invoices', type: 'attachment', label: '票据', required: false },
];
export function expenseFlow(org: SeedOrg): WorkflowDefinition {
  return definition(
    [
      superior(1),
      router(branch([amountIs('amount', 1, '5000')], deptRoles([org.director], 1, '馆长')), branch([])),
      ...(org.copyTo?.length ? [copyTo(org.copyTo, 1)] : []),
    ],
    { fields: EXPENSE_FIELDS },
  );
}

/** 出差: the direct superior approves. */
export const TRAVEL_FIELDS: FormField[] = [
  text('destination', '出差地点'),
  { id: 'period', type: 'dateRange', label: '出差时间', required: true, unit: 1 },
  area('reason', '出差事由'),
  { id: 'budget', type: 'amount', label: '预算金额（元）', required: false },
];
export const travelFlow = (org: SeedOrg) =>
  definition([superior(1), ...tellIds(org)], { fields: TRAVEL_FIELDS });

/** 用印: the direct superior, then the office head who keeps the seals. */
export const SEAL_FIELDS: FormField[] = [
  choice('seal', '印章类型', ['公章', '合同专用章', '法人章']),
  { id: 'copies', type: 'number', label: '用印份数', required: true },
  area('purpose', '用印事由'),
  { id: 'file', type: 'attachment', label: '用印文件', required: true },
];
export const sealFlow = (org: MuseumOrg) =>
  definition(
    [
      superior(1),
      approver({ settype: 1, nodeUserList: [org.sealKeeper], nodeName: '办公室审批' }),
      ...tellIds(org),
    ],
    { fields: SEAL_FIELDS },
  );

/** 采购: the direct superior; over 5,000 元 the director too. */
export const PURCHASE_FIELDS: FormField[] = [
  area('items', '采购物品'),
  { id: 'amount', type: 'amount', label: '预计金额（元）', required: true },
  area('reason', '采购理由'),
  { id: 'quote', type: 'attachment', label: '报价单', required: false },
];
export const purchaseFlow = (org: SeedOrg) =>
  definition(
    [
      superior(1),
      router(branch([amountIs('amount', 1, '5000')], deptRoles([org.director], 1, '馆长')), branch([])),
      ...tellIds(org),
    ],
    { fields: PURCHASE_FIELDS },
  );

/** 文物出入库: the superior, then the conservators check the object; collections is told. */
const PLACES = ['文物库房', '展厅', '修复室', '馆外'];
export const MOVEMENT_FIELDS: FormField[] = [
  text('objectNo', '文物编号'),
  text('objectName', '文物名称', false),
  choice('from', '从', PLACES),
  choice('to', '到', PLACES),
  area('reason', '出入库事由'),
  { id: 'photos', type: 'image', label: '文物照片', required: true },
];
export const movementFlow = (org: MuseumOrg) =>
  definition([superior(1), deptRoles([org.conservators], 1, '文保部审批'), tell([org.collections])], {
    fields: MOVEMENT_FIELDS,
  });

/** The templates a museum starts with (seeded with the demo museum, published as version 1). */
export function museumTemplates(org: MuseumOrg) {
  return [
    { name: '请假', icon: 'calendar', group: '人事', definition: leaveFlow(org) },
    { name: '出差', icon: 'plane', group: '人事', definition: travelFlow(org) },
    { name: '报销', icon: 'receipt', group: '财务', definition: expenseFlow(org) },
    { name: '用印', icon: 'stamp', group: '行政', definition: sealFlow(org) },
    { name: '采购', icon: 'shopping-cart', group: '财务', definition: purchaseFlow(org) },
    { name: '文物出入库', icon: 'building-warehouse', group: '藏品', definition: movementFlow(org) },
  ];
}
