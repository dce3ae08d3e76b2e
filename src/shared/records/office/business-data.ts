import { defineRecord, f, type FieldProblem, type RecordDef, type StatusOption } from '../define';

/**
 * 业务数据, business data (research/records-design.md §8; spec office.md §7 "businessData personal,
 * dept and plan, each GET list, find, delete and POST save"; route /home/data-managemnt):
 *
 * - 个人业务数据: each member of staff's month (one row per person, year and month): indicator
 *   rows (讲解场次 12 场…), what was done and what comes next. Grant 业务数据 (oa.dataManagement);
 *   everyone reads and writes only their own rows.
 * - 部门业务数据: a department's month (one row per department, year and month): its indicators
 *   (观众接待人次, 社教活动场次…) and a summary. Grant 部门业务数据 (oa.dataDept), held by
 *   department heads, for the departments they belong to.
 * - 工作计划: a department's plan for a year, quarter or month, with items that carry a person,
 *   a deadline, a progress of 0–100 and a state; 提交 to the office, which 确认 or 退回 it.
 *   The month's department summary reads progress from here.
 * - 月结: the office (业务数据汇总, oa.dataSummary) closes a month once the figures are in; a
 *   closed month's personal and department rows can no longer be added, changed or deleted by
 *   anyone until the office reopens it, with a reason. Each close and reopen is in the month
 *   row's status history (who, when, why) and the system log.
 *
 * Holders of 业务数据汇总 (the office, the museum's leaders) read every person's and
 * department's rows. Values are whole numbers, never negative. `save` with an id changes the
 * row, without one adds it (the spec names one call for both).
 */

/** The office's grant: reads everything, closes and reopens months, confirms plans. */
export const DATA_SUMMARY = 'oa.dataSummary';
/** Department heads' grant: their departments' figures and plans. */
export const DATA_DEPT = 'oa.dataDept';
/** Everyone who reports a month of their own. */
export const DATA_PERSONAL = 'oa.dataManagement';

export const MONTH_STATES: readonly StatusOption[] = [
  { value: 0, label: '填报中', color: 'blue' },
  { value: 1, label: '已关账', color: 'gray' },
];

const year = () =>
  f.int('年份', { required: true, min: 2000, max: 2100, list: true, filter: 'eq', width: 80 });
const month = () => f.int('月份', { required: true, min: 1, max: 12, list: true, filter: 'eq', width: 70 });

/** A month's rows are frozen while its 月结 row says 已关账. */
const monthClosed: RecordDef['frozenBy'] = {
  record: 'businessMonth',
  match: { year: 'year', month: 'month' },
  field: 'status',
  values: [1],
  message: (r) =>
    `${String(r.year)} 年 ${String(r.month)} 月的业务数据已关账，不能再修改；如需更正请联系办公室重新开账`,
};

/** One indicator once per month: a second row of it is a mistake (which of the two counts?). */
export function repeatedIndicator(field: string, label: string, key: string) {
  return (row: Record<string, unknown>): FieldProblem | null => {
    const rows = Array.isArray(row[field]) ? (row[field] as Record<string, unknown>[]) : [];
    const seen = new Map<unknown, number>();
    for (const [i, r] of rows.entries()) {
      const first = seen.get(r[key]);
      if (first !== undefined)
        return { field, message: `${label}第 ${first + 1} 行和第 ${i + 1} 行是同一指标，请合并为一行` };
      seen.set(r[key], i);
    }
    return null;
  };
}

const monthTitle = (r: Record<string, unknown>) => `${String(r.year ?? '')} 年 ${String(r.month ?? '')} 月`;

export const businessMonth = defineRecord({
  name: 'businessMonth',
  title: '业务数据月结',
  shape: 'pipeline',
  table: 'business_month',
  base: '/businessData/month',
  calls: { list: 'GET list', detail: 'GET find', create: 'POST save' },
  fields: {
    year: year(),
    month: month(),
    // Chosen when the row is made (the office closes a month in one step, 关账 on a month without
    // a row yet); changed afterwards only by the transitions, which keep the history.
    status: f.status('状态', MONTH_STATES, { list: true, filter: 'eq', initial: 0, width: 90 }),
    remark: f.textarea('说明', { max: 200 }),
  },
  status: { field: 'status' },
  transitions: {
    close: {
      label: '关账',
      from: [0],
      to: 1,
      confirm: '关账后，各部门和个人不能再新增、修改或删除这个月的业务数据。确定关账吗？',
    },
    reopen: {
      label: '重新开账',
      from: [1],
      to: 0,
      input: { reason: f.text('重新开账原因', { required: true, max: 100 }) },
      danger: true,
    },
  },
  access: { read: null, write: DATA_SUMMARY },
  order: [
    ['year', 'desc'],
    ['month', 'desc'],
  ],
  unique: [{ fields: ['year', 'month'], message: '这个月已有月结记录，请在列表中关账或重新开账' }],
  describe: (r) => `${monthTitle(r)}月结`,
});

export const businessDataPersonal = defineRecord({
  name: 'businessDataPersonal',
  title: '个人业务数据',
  shape: 'catalog',
  table: 'business_data_personal',
  base: '/businessData/personal',
  calls: {
    list: 'GET list',
    detail: 'GET find',
    create: 'POST save',
    update: 'POST save',
    remove: 'GET delete',
  },
  fields: {
    userId: f.user('填报人', { form: false, list: true, filter: 'eq', width: 100 }),
    year: year(),
    month: month(),
    items: f.list(
      '业务指标',
      {
        indicator: f.dict('指标', 'personal_indicator', { required: true }),
        value: f.int('数值', { required: true, min: 0, max: 100_000_000 }),
        unit: f.text('单位', { max: 10, placeholder: '场、篇、人次' }),
      },
      { max: 30, list: true, help: '每个指标填一行，数值为整数' },
    ),
    workSummary: f.textarea('本月工作总结', { max: 2000 }),
    nextPlan: f.textarea('下月工作计划', { max: 2000 }),
  },
  access: {
    read: DATA_PERSONAL,
    write: DATA_PERSONAL,
    owner: { field: 'userId', all: DATA_SUMMARY },
  },
  order: [
    ['year', 'desc'],
    ['month', 'desc'],
    ['id', 'desc'],
  ],
  unique: [
    { fields: ['userId', 'year', 'month'], message: '这个月的个人业务数据已经填写过，请在列表中修改' },
  ],
  check: repeatedIndicator('items', '业务指标', 'indicator'),
  frozenBy: monthClosed,
  describe: (r) => `${monthTitle(r)}个人业务数据`,
});

export const businessDataDept = defineRecord({
  name: 'businessDataDept',
  title: '部门业务数据',
  shape: 'catalog',
  table: 'business_data_dept',
  base: '/businessData/dept',
  calls: {
    list: 'GET list',
    detail: 'GET find',
    create: 'POST save',
    update: 'POST save',
    remove: 'GET delete',
  },
  fields: {
    deptId: f.dept('部门', { required: true, list: true, filter: 'eq', width: 140 }),
    year: year(),
    month: month(),
    indicators: f.list(
      '业务指标',
      {
        indicator: f.dict('指标', 'dept_indicator', { required: true }),
        value: f.int('数值', { required: true, min: 0, max: 100_000_000 }),
      },
      { max: 30, list: true, help: '每个指标填一行，数值为整数' },
    ),
    summary: f.textarea('工作小结', { max: 2000 }),
  },
  access: {
    read: DATA_DEPT,
    write: DATA_DEPT,
    owner: { field: 'deptId', all: DATA_SUMMARY },
  },
  order: [
    ['year', 'desc'],
    ['month', 'desc'],
    ['id', 'desc'],
  ],
  unique: [
    { fields: ['deptId', 'year', 'month'], message: '该部门这个月的业务数据已经填写过，请在列表中修改' },
  ],
  check: repeatedIndicator('indicators', '业务指标', 'indicator'),
  frozenBy: monthClosed,
  describe: (r) => `${monthTitle(r)}部门业务数据`,
});

export const PLAN_PERIODS: readonly StatusOption[] = [
  { value: 1, label: '年度' },
  { value: 2, label: '季度' },
  { value: 3, label: '月度' },
];

export const PLAN_ITEM_STATES: readonly StatusOption[] = [
  { value: 1, label: '未开始', color: 'gray' },
  { value: 2, label: '进行中', color: 'blue' },
  { value: 3, label: '已完成', color: 'green' },
  { value: 4, label: '延期', color: 'orange' },
];

export const PLAN_STATES: readonly StatusOption[] = [
  { value: 0, label: '草稿', color: 'gray' },
  { value: 1, label: '已提交', color: 'blue' },
  { value: 2, label: '已确认', color: 'green' },
];

/**
 * A plan's own rules: the period number fits the period (a quarter 1–4, a month 1–12, none for
 * a year), and each item's state fits its progress (已完成 is 100 %, 未开始 is 0 %, and 100 % is
 * 已完成), so a department's summary can trust either.
 */
export function planProblem(row: Record<string, unknown>): FieldProblem | null {
  const n = row.periodNo;
  const has = typeof n === 'number';
  if (row.period === 1 && has) return { field: 'periodNo', message: '年度计划不填季度或月份' };
  if (row.period === 2 && (!has || n < 1 || n > 4))
    return { field: 'periodNo', message: '季度计划请填写第几季度（1–4）' };
  if (row.period === 3 && !has) return { field: 'periodNo', message: '月度计划请填写月份（1–12）' };
  const items = Array.isArray(row.items) ? (row.items as Record<string, unknown>[]) : [];
  for (const [i, it] of items.entries()) {
    const at = `计划事项第 ${i + 1} 行：`;
    if (it.state === 3 && it.progress !== 100)
      return { field: 'items', message: `${at}状态为已完成时进度应为 100%` };
    if (it.progress === 100 && it.state !== 3)
      return { field: 'items', message: `${at}进度为 100% 时状态应为已完成` };
    if (it.state === 1 && it.progress !== 0)
      return { field: 'items', message: `${at}未开始的事项进度应为 0%` };
  }
  return null;
}

/** The progress of a plan: its items' mean progress (whole %), and how many are in each state. */
export function planProgress(items: readonly Record<string, unknown>[]) {
  const byState: Record<number, number> = { 1: 0, 2: 0, 3: 0, 4: 0 };
  let sum = 0;
  for (const it of items) {
    sum += Number(it.progress ?? 0);
    byState[Number(it.state)] = (byState[Number(it.state)] ?? 0) + 1;
  }
  return { items: items.length, progress: items.length ? Math.round(sum / items.length) : 0, byState };
}

export const businessDataPlan = defineRecord({
  name: 'businessDataPlan',
  title: '工作计划',
  shape: 'pipeline',
  table: 'business_data_plan',
  base: '/businessData/plan',
  calls: {
    list: 'GET list',
    detail: 'GET find',
    create: 'POST save',
    update: 'POST save',
    remove: 'GET delete',
  },
  fields: {
    deptId: f.dept('部门', { required: true, list: true, filter: 'eq', width: 140 }),
    title: f.text('计划名称', { required: true, max: 100, list: true, keyword: true }),
    year: year(),
    period: f.status('计划周期', PLAN_PERIODS, { required: true, list: true, filter: 'eq', width: 90 }),
    periodNo: f.int('季度/月份', {
      min: 1,
      max: 12,
      list: true,
      width: 90,
      help: '季度计划填 1–4，月度计划填 1–12，年度计划不填',
    }),
    items: f.list(
      '计划事项',
      {
        content: f.text('事项', { required: true, max: 200 }),
        ownerId: f.user('负责人'),
        deadline: f.date('完成期限'),
        progress: f.int('进度（%）', { required: true, min: 0, max: 100 }),
        state: f.status('事项状态', PLAN_ITEM_STATES, { required: true }),
      },
      { required: true, max: 50 },
    ),
    status: f.status('状态', PLAN_STATES, { form: false, list: true, filter: 'eq', initial: 0, width: 90 }),
  },
  status: { field: 'status' },
  transitions: {
    submit: { label: '提交', from: [0], to: 1, confirm: '提交后办公室将审阅这份计划，确定提交吗？' },
    confirm: { label: '确认', from: [1], to: 2, access: DATA_SUMMARY },
    sendBack: {
      label: '退回',
      from: [1],
      to: 0,
      access: DATA_SUMMARY,
      input: { reason: f.text('退回原因', { required: true, max: 100 }) },
      danger: true,
    },
  },
  access: {
    read: DATA_DEPT,
    write: DATA_DEPT,
    owner: { field: 'deptId', all: DATA_SUMMARY },
  },
  order: [
    ['year', 'desc'],
    ['period', 'asc'],
    ['periodNo', 'asc'],
    ['id', 'desc'],
  ],
  check: planProblem,
  describe: (r) => String(r.title ?? ''),
});
