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

// ——— 公文 (official documents, issue 17 §4) ———
// Fields after GB/T 9704-2012 (党政机关公文格式) and the usual museum office practice: 发文 is a
// document the museum sends (drafted in a department, checked by its head and by the office,
// signed for issue by the leadership); 收文 one it receives (registered by the office, which
// proposes who handles it, then a leader instructs); 签报 an internal request for a leader's
// decision.

/** What the 公文 flows need: the office head (核稿, 拟办) and the leadership (签发, 批示). */
export interface GongwenOrg {
  /** 办公室's head: checks every outgoing draft and registers incoming documents. */
  office: DeptRole;
  /** 馆领导: signs outgoing documents for issue, instructs on incoming ones, decides 签报. */
  director: DeptRole;
}

const SECRECY = ['公开', '内部', '秘密', '机密'];
// 紧急程度 is not a form field: every request already carries one (普通 / 紧急 / 非常紧急, chosen
// under the form, shown in the lists and the detail), and two controls of one name would ask
// the same thing twice.

/** 发文: 文号 (checked, form.ts `docNo`), 标题, 密级, 主送, 抄送, 正文 and 附件. */
export const OUTGOING_FIELDS: FormField[] = [
  { ...text('docNo', '文号'), format: 'docNo', placeholder: '例如 馆办发〔2026〕12号' },
  text('title', '标题'),
  choice('secrecy', '密级', SECRECY),
  text('mainTo', '主送'),
  text('copyTo', '抄送', false),
  { id: 'body', type: 'attachment', label: '正文', required: true },
  { id: 'annex', type: 'attachment', label: '附件', required: false },
];
export const outgoingFlow = (org: GongwenOrg) =>
  definition(
    [
      { ...superior(1), nodeName: '部门负责人审核' },
      deptRoles([org.office], 1, '办公室核稿'),
      deptRoles([org.director], 1, '馆领导签发'),
    ],
    { fields: OUTGOING_FIELDS },
  );

/** 收文: 来文单位, 来文文号, 收文日期, 标题, 密级, 附件 (the scanned document). */
export const INCOMING_FIELDS: FormField[] = [
  text('fromUnit', '来文单位'),
  { ...text('fromDocNo', '来文文号', false), placeholder: '例如 文物发〔2026〕5号' },
  { id: 'receivedOn', type: 'date', label: '收文日期', required: true },
  text('title', '标题'),
  choice('secrecy', '密级', SECRECY),
  { id: 'files', type: 'attachment', label: '附件', required: true },
];
export const incomingFlow = (org: GongwenOrg) =>
  definition([deptRoles([org.office], 1, '办公室拟办'), deptRoles([org.director], 1, '馆领导批示')], {
    fields: INCOMING_FIELDS,
  });

/** 签报: 标题, 事由, 拟办意见, 附件; the department head, then the leadership decides. */
export const MEMO_FIELDS: FormField[] = [
  text('title', '标题'),
  area('matter', '事由'),
  area('proposal', '拟办意见'),
  { id: 'files', type: 'attachment', label: '附件', required: false },
];
export const memoFlow = (org: GongwenOrg) =>
  definition([{ ...superior(1), nodeName: '部门负责人审核' }, deptRoles([org.director], 1, '馆领导审批')], {
    fields: MEMO_FIELDS,
  });

/** The 公文 templates (category gongwen, group 公文). */
export function gongwenTemplates(org: GongwenOrg) {
  const t = (name: string, icon: string, def: WorkflowDefinition) => ({
    name,
    icon,
    group: '公文',
    category: 'gongwen' as const,
    definition: def,
  });
  return [
    t('发文', 'send', outgoingFlow(org)),
    t('收文', 'inbox', incomingFlow(org)),
    t('签报', 'file-text', memoFlow(org)),
  ];
}

/** The templates a museum starts with (seeded with the demo museum, published as version 1). */
export function museumTemplates(org: MuseumOrg & GongwenOrg) {
  const n = (name: string, icon: string, group: string, def: WorkflowDefinition) => ({
    name,
    icon,
    group,
    category: 'normal' as const,
    definition: def,
  });
  return [
    n('请假', 'calendar', '人事', leaveFlow(org)),
    n('出差', 'plane', '人事', travelFlow(org)),
    n('报销', 'receipt', '财务', expenseFlow(org)),
    n('用印', 'stamp', '行政', sealFlow(org)),
    n('采购', 'shopping-cart', '财务', purchaseFlow(org)),
    n('文物出入库', 'building-warehouse', '藏品', movementFlow(org)),
    ...gongwenTemplates(org),
  ];
}
