import { amountIs, branch, copyTo, deptRoles, definition, durationIs, router, superior } from './build';
import type { DeptRole, FormField, WorkflowDefinition } from './definition';

/**
 * Flows of the seeded templates the issue names, built over the museum's real ids at seed time.
 * The director (馆长) is a department-role pair so the flow follows whoever holds the post.
 */
export interface SeedOrg {
  director: DeptRole;
  /** People told when a request passes (e.g. the personnel or finance office); may be empty. */
  copyTo?: number[];
}

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
