import {
  COLUMN,
  EXAMINE,
  OPT,
  SETTYPE,
  UNIT,
  type AnyNode,
  type ApproverNode,
  type BranchNode,
  type Condition,
  type CopyToNode,
  type FormField,
  type Target,
} from './definition';
import { formatNumber, numberProblem } from './numbers';
import { WF_TEXT } from './text';

/**
 * The one-line texts on the designer's node cards (research/oa-workflow.md §2.5 display strings,
 * in our codes). A node that has nothing to show yields the same words as its publish error
 * (请选择审批人, 请选择抄送人, 请设置条件), so the card and the error list agree.
 */

const OPERATOR: Record<number, string> = {
  [OPT.gt]: '>',
  [OPT.gte]: '≥',
  [OPT.eq]: '=',
  [OPT.lt]: '<',
  [OPT.lte]: '≤',
};

const names = (list: readonly { name: string }[]): string => list.map((t) => t.name).join('、');

/** Who may start: 所有人 when the scope is empty, else the people and departments. */
export function starterSummary(flowPermission: readonly Target[]): string {
  return flowPermission.length ? names(flowPermission) : WF_TEXT.everyone;
}

/**
 * Named people: one person is their name; several read "N人会签：甲、乙" or "N人或签：甲、乙" (the mode
 * first, so a card cut short still says how they decide). Superior: 直接主管 / 第n级主管.
 * Department-role: 部门·角色 pairs. Starter: 发起人自己.
 */
export function approverSummary(node: ApproverNode): string {
  switch (node.settype) {
    case SETTYPE.members: {
      const people = node.nodeUserList.filter((t) => t.type === 1);
      if (people.length === 0) return WF_TEXT.approverNoMembers;
      if (people.length === 1) return people[0]!.name;
      const mode = node.examineMode === EXAMINE.all ? WF_TEXT.countersign : WF_TEXT.orSign;
      return `${mode(people.length)}：${names(people)}`;
    }
    case SETTYPE.superior:
      return node.directorLevel <= 1 ? WF_TEXT.directSuperior : WF_TEXT.nthSuperior(node.directorLevel);
    case SETTYPE.deptRole:
      return node.deptRoleList.length
        ? node.deptRoleList.map((p) => `${p.deptName}·${p.roleName}`).join('、')
        : WF_TEXT.approverNoDeptRole;
    case SETTYPE.starter:
      return WF_TEXT.starterSelf;
  }
}

/** Recipients and when they hear: "甲、乙（审批通过后通知）". */
export function copyToSummary(node: CopyToNode): string {
  if (node.nodeUserList.length === 0) return WF_TEXT.copyToNoRecipients;
  return `${names(node.nodeUserList)}（${node.notice === 0 ? WF_TEXT.noticeOnSubmit : WF_TEXT.noticeOnApproved}）`;
}

function unitOf(cond: Condition): string {
  if (cond.columnType === COLUMN.amount) return WF_TEXT.yuan;
  return cond.unit === UNIT.hours ? WF_TEXT.hours : WF_TEXT.days;
}

const filled = (v: string | undefined): v is string => !!v?.trim() && numberProblem(v) === null;

/**
 * One condition as a phrase, or null while it is incomplete (it then adds nothing, as in the
 * source designer): 金额 > 5000元, 请假时长 ≥ 3天, 3 ≤ 金额 ≤ 5元, 类型 属于 A 或 B,
 * 发起人属于 张三、典藏部. Choice keys show as their option labels from `fields` when known.
 */
export function conditionSummary(cond: Condition, fields: readonly FormField[] = []): string | null {
  const name = cond.showName;
  if (cond.columnType === COLUMN.person) {
    return cond.nodeUserList?.length
      ? `${name || '发起人'}${WF_TEXT.starterIn} ${names(cond.nodeUserList)}`
      : null;
  }
  if (cond.columnType === COLUMN.choice) {
    if (!cond.downValArr?.length) return null;
    const options = fields.find((f) => f.id === cond.columnId)?.options ?? [];
    const labels = cond.downValArr.map((k) => options.find((o) => o.key === k)?.value ?? k);
    return `${name} ${WF_TEXT.inChoices} ${labels.join(WF_TEXT.or)}`;
  }
  const unit = unitOf(cond);
  if (cond.optType === OPT.range) {
    if (!filled(cond.zdy1) || !filled(cond.zdy2)) return null;
    return `${formatNumber(cond.zdy1)} ≤ ${name} ≤ ${formatNumber(cond.zdy2)}${unit}`;
  }
  const op = cond.optType === undefined ? undefined : OPERATOR[cond.optType];
  if (!op || !filled(cond.zdy1)) return null;
  return `${name} ${op} ${formatNumber(cond.zdy1)}${unit}`;
}

/**
 * A branch: its complete conditions joined with 并且. The last branch without conditions is the
 * fallback, 其他条件进入此流程; any other branch with nothing complete reads 请设置条件.
 */
export function branchSummary(
  branch: BranchNode,
  isLast: boolean,
  fields: readonly FormField[] = [],
): string {
  if (isLast && branch.conditionList.length === 0) return WF_TEXT.otherwise;
  const parts = branch.conditionList.map((c) => conditionSummary(c, fields)).filter((s) => s !== null);
  return parts.length ? parts.join(WF_TEXT.and) : WF_TEXT.branchNoConditions;
}

/** The card text of any node (the starter's needs the scope: use starterSummary). */
export function nodeSummary(
  node: AnyNode,
  opts: { isLastBranch?: boolean; fields?: readonly FormField[] } = {},
): string {
  switch (node.type) {
    case 1:
      return approverSummary(node);
    case 2:
      return copyToSummary(node);
    case 3:
      return branchSummary(node, opts.isLastBranch ?? false, opts.fields);
    default:
      return '';
  }
}
