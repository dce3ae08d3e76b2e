/**
 * The Chinese words of the workflow designer's pure rules (tree edits, publish validation, node
 * summaries). They live in shared, not in app/lib/i18n, because the server's publish check
 * answers with the very same words the designer shows on its error marks.
 */

/** A node's name when the person leaves it blank (spec §5 "falls back to its default name"). */
export const DEFAULT_NAME = {
  starter: '发起人',
  approver: '审批人',
  copyTo: '抄送人',
  router: '路由',
  /** Branches are named by their priority: 条件1, 条件2, ... */
  branch: (priority: number) => `条件${priority}`,
} as const;

/** Branch names the designer gave itself; these follow the priority when branches move. */
export const DEFAULT_BRANCH_NAME_RE = /^条件\d+$/;

export const WF_TEXT = {
  membersDropped: (max: number) => `最多只能选择${max}人，已为您保留前${max}人`,
  chooseRole: '请选择角色',
  chooseDept: '请选择部门',
  tooManyBranches: (max: number) => `最多只能添加 ${max} 个条件分支`,
  noSuchNode: '找不到要修改的节点，请刷新后重试',
  wrongNode: '此节点不支持该操作',

  // Publish validation (validate.ts); also the error marks on node cards.
  approverNoMembers: '请选择审批人',
  approverNoDeptRole: '请选择审批的部门和角色',
  superiorTooHigh: (max: number) => `主管级别超出范围，最多为第${max}级主管`,
  copyToNoRecipients: '请选择抄送人',
  branchNoConditions: '请设置条件',
  lastBranchHasConditions: '最后一个分支是“其他条件”分支，不能设置条件；请新增条件分支',
  routerFewBranches: '条件分支至少需要 2 个',
  flowEmpty: '流程中至少需要 1 个审批人',
  condFieldGone: (name: string) => `条件“${name}”对应的表单字段已删除，请删除此条件`,
  condFieldType: (name: string) => `条件“${name}”与表单字段的类型不符，请删除后重新添加`,
  condNoOperator: (name: string) => `请选择“${name}”的比较方式`,
  condNoValue: (name: string) => `请填写“${name}”的数值`,
  condRangeBoth: (name: string) => `请填写“${name}”范围的两端`,
  condRangeOrder: (name: string) => `“${name}”范围的下限不能大于上限`,
  condBadNumber: (name: string, problem: string) => `“${name}”：${problem}`,
  condNoUnit: (name: string) => `请选择“${name}”的单位（小时或天）`,
  condNoChoice: (name: string) => `请选择“${name}”的选项`,
  condChoiceGone: (name: string) => `“${name}”中有选项已从表单删除，请重新选择`,
  condNoPerson: '请选择发起人范围',

  // Node card summaries (summary.ts).
  everyone: '所有人',
  starterSelf: '发起人自己',
  directSuperior: '直接主管',
  nthSuperior: (n: number) => `第${n}级主管`,
  countersign: (n: number) => `${n}人会签`,
  orSign: (n: number) => `${n}人或签`,
  noticeOnSubmit: '提交时通知',
  noticeOnApproved: '审批通过后通知',
  otherwise: '其他条件进入此流程',
  and: ' 并且 ',
  or: ' 或 ',
  starterIn: '属于',
  inChoices: '属于',
  yuan: '元',
  hours: '小时',
  days: '天',
} as const;
