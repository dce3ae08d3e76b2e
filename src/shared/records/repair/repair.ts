import { defineRecord, f, type Row, type StatusOption } from '../define';

/**
 * Conservation and repair (issue 24; research/records-design.md §6, sources S18–S22; office.md
 * §2 Repair, §7 `bsRepairProject`, `bsRepairManagement`): 修复项目, the per-object 修复档案 and the
 * 标准规范 library. The engine serves their calls; the rules that read other rows (a project's
 * grade-1 objects, a record's project being under way) are src/server/modules/repair/.
 *
 * **Status through `update`.** The spec names no transition calls for repair, only `update`
 * (records-design §6.1). Both pipelines declare `statusByUpdate`: an `update` whose `status`
 * differs from the stored one is the transition of the table leading there, saved with the
 * form's values in one transaction, its guard judging the row as it will be. A status the table
 * does not lead to is refused in words naming where the row may go. The transitions keep keys
 * and labels for the status history and the UI's buttons.
 */

/** 0 立项申报 · 1 方案编制 · 2 待批复 · 3 实施中 · 4 待验收 · 5 已验收 · 6 已归档 · 9 已终止 (S19). */
export const PROJECT_STATES: readonly StatusOption[] = [
  { value: 0, label: '立项申报', color: 'gray' },
  { value: 1, label: '方案编制', color: 'blue' },
  { value: 2, label: '待批复', color: 'orange' },
  { value: 3, label: '实施中', color: 'cyan' },
  { value: 4, label: '待验收', color: 'orange' },
  { value: 5, label: '已验收', color: 'green' },
  { value: 6, label: '已归档', color: 'teal' },
  { value: 9, label: '已终止', color: 'red' },
];

export const PROJECT_TYPES: readonly StatusOption[] = [
  { value: 1, label: '保护修复' },
  { value: 2, label: '预防性保护' },
  { value: 3, label: '科技检测分析' },
];

export const FUND_SOURCES: readonly StatusOption[] = [
  { value: 0, label: '未填' },
  { value: 1, label: '国家文物保护专项资金' },
  { value: 2, label: '地方财政' },
  { value: 3, label: '自筹' },
];

export const ACCEPTANCE_RESULTS: readonly StatusOption[] = [
  { value: 0, label: '未验收' },
  { value: 1, label: '合格', color: 'green' },
  { value: 2, label: '不合格', color: 'red' },
];

/** 0 待修复 · 1 修复中 · 2 待评估 · 3 已归档 (records-design §6.2). */
export const RECORD_STATES: readonly StatusOption[] = [
  { value: 0, label: '待修复', color: 'gray' },
  { value: 1, label: '修复中', color: 'blue' },
  { value: 2, label: '待评估', color: 'orange' },
  { value: 3, label: '已归档', color: 'green' },
];

export const SEVERITIES: readonly StatusOption[] = [
  { value: 1, label: '轻微' },
  { value: 2, label: '中度' },
  { value: 3, label: '严重' },
];

/** The census level (relic_level) value of 一级 (S18): such objects need NCHA's consent (S19). */
export const GRADE_ONE = '1';
/** relic_preservation's 已修复, set when a record is archived. */
export const PRESERVATION_REPAIRED = '4';
/** Months after the actual end within which the report is filed with NCHA (S19). */
export const REPORT_MONTHS = 3;
/** Days before the filing deadline from which 报备临期 lists a project. */
export const DEADLINE_WARN_DAYS = 30;

const has = (v: unknown) =>
  v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/**
 * The last day a project's report may be filed: its actual end plus three calendar months
 * (S19), the month's last day when the day does not exist (11-30 + 3 → 02-28). '' without an end.
 */
export function reportDeadline(actualEndDate: unknown): string {
  if (typeof actualEndDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(actualEndDate)) return '';
  const [y, m, d] = actualEndDate.split('-').map(Number) as [number, number, number];
  const months = y * 12 + (m - 1) + REPORT_MONTHS;
  const ny = Math.floor(months / 12);
  const nm = (months % 12) + 1;
  const last = new Date(Date.UTC(ny, nm, 0)).getUTCDate();
  return `${ny}-${String(nm).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** Why a project may not start work (实施): the plan, and NCHA's approval for grade-1 objects. */
export function startProblem(row: Readonly<Record<string, unknown>>): string | null {
  if (!has(row.planName) || !has(row.planOrg))
    return '请先填写修复方案名称和方案编制单位（方案编制完成后才能开始实施）';
  if (row.hasGrade1) {
    if (Number(row.status) !== 2)
      return '含一级文物的项目须先报国家文物局批复（状态改为“待批复”），批复后再开始实施';
    if (!has(row.approvalDocNo) || !has(row.approvalDate))
      return '含一级文物的项目须填写国家文物局批复文号和批复日期后才能开始实施';
  }
  return null;
}

/** Why a project may not be archived: the report, its filing date and the three-month deadline. */
export function archiveProblem(row: Readonly<Record<string, unknown>>): string | null {
  if (!has(row.reportFileId)) return '请先上传修复报告后再归档';
  if (!has(row.filedDate)) return '请填写修复报告的报备日期后再归档';
  if (!has(row.actualEndDate)) return '请填写实际完成日期后再归档';
  const deadline = reportDeadline(row.actualEndDate);
  if (String(row.filedDate) > deadline && !has(row.lateReason))
    return `报备日期晚于报备期限 ${deadline}（实际完成后 ${REPORT_MONTHS} 个月），请填写逾期报备说明`;
  return null;
}

export const bsRepairProject = defineRecord({
  name: 'bsRepairProject',
  title: '修复项目',
  shape: 'pipeline',
  table: 'bs_repair_project',
  base: '/repair/bsRepairProject',
  calls: {
    list: 'GET list',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
    export: 'POST export',
  },
  fields: {
    projectNo: f.text('项目编号', { required: true, max: 30, list: true, keyword: true, width: 120 }),
    name: f.text('项目名称', { required: true, max: 100, list: true, keyword: true }),
    projectType: f.status('项目类型', PROJECT_TYPES, {
      required: true,
      list: true,
      filter: 'eq',
      width: 100,
    }),
    hasGrade1: f.bool('含一级文物', {
      list: true,
      filter: 'eq',
      width: 90,
      help: '含一级文物的项目须报国家文物局批复后实施；项目下登记一级文物前须勾选',
    }),
    approvalDocNo: f.text('批复文号', { max: 50, placeholder: '文物博函〔2022〕784号' }),
    approvalDate: f.date('批复日期'),
    planName: f.text('修复方案', { max: 100, help: '方案编制阶段起必填' }),
    planOrg: f.text('方案编制单位', { max: 100 }),
    planFileId: f.file('方案文件', { types: ['pdf', 'doc', 'docx'], maxBytes: 50 * 1024 * 1024 }),
    undertaker: f.text('承担单位', { required: true, max: 100, list: true, filter: 'eq' }),
    licenceNo: f.text('修复资质证书号', { required: true, max: 50 }),
    principalId: f.user('项目负责人', { required: true, list: true, filter: 'eq', width: 90 }),
    budget: f.money('经费(元)'),
    fundSource: f.status('经费来源', FUND_SOURCES),
    startDate: f.date('开始日期', { required: true, list: true, filter: 'range', width: 110 }),
    plannedEndDate: f.date('计划完成日期', { required: true, width: 110 }),
    actualEndDate: f.date('实际完成日期', { list: true, width: 110 }),
    acceptanceDate: f.date('验收日期'),
    acceptanceResult: f.status('验收结论', ACCEPTANCE_RESULTS),
    reportFileId: f.file('修复报告', { types: ['pdf', 'doc', 'docx'], maxBytes: 100 * 1024 * 1024 }),
    filedDate: f.date('报备日期', { help: `实际完成后 ${REPORT_MONTHS} 个月内报国家文物局备案` }),
    lateReason: f.textarea('逾期报备说明', { max: 500 }),
    reportDeadline: f.date('报备期限', { form: false, list: true, width: 110 }),
    terminateReason: f.textarea('终止原因', { form: false, max: 500 }),
    status: f.status('状态', PROJECT_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: 0,
      width: 90,
    }),
  },
  virtualFilters: {
    deadlineNear: f.bool('报备临期', { filter: 'eq' }),
    year: f.int('年度', { min: 1949, max: 2200, filter: 'eq' }),
  },
  derive: (row) => ({ reportDeadline: reportDeadline(row.actualEndDate) }),
  check: (row) => {
    if (has(row.plannedEndDate) && has(row.startDate) && String(row.plannedEndDate) < String(row.startDate))
      return { field: 'plannedEndDate', message: '计划完成日期不能早于开始日期' };
    if (has(row.actualEndDate) && has(row.startDate) && String(row.actualEndDate) < String(row.startDate))
      return { field: 'actualEndDate', message: '实际完成日期不能早于开始日期' };
    if (has(row.filedDate) && has(row.actualEndDate) && String(row.filedDate) < String(row.actualEndDate))
      return { field: 'filedDate', message: '报备日期不能早于实际完成日期' };
    if (has(row.approvalDate) && !has(row.approvalDocNo))
      return { field: 'approvalDocNo', message: '填写了批复日期时请同时填写批复文号' };
    return null;
  },
  access: { read: 'repair.manage', write: 'repair.manage' },
  status: { field: 'status' },
  statusByUpdate: true,
  transitions: {
    plan: { label: '进入方案编制', from: [0], to: 1 },
    submit: {
      label: '报请批复',
      from: [1],
      to: 2,
      guard: (row) =>
        !row.hasGrade1
          ? '不含一级文物的项目无需报国家文物局批复，可直接开始实施'
          : !has(row.planName) || !has(row.planOrg)
            ? '请先填写修复方案名称和方案编制单位后再报请批复'
            : null,
    },
    start: { label: '开始实施', from: [1, 2], to: 3, guard: (row) => startProblem(row) },
    finish: {
      label: '提交验收',
      from: [3],
      to: 4,
      guard: (row) => (has(row.actualEndDate) ? null : '请填写实际完成日期后再提交验收'),
      effect: 'allObjectsDone',
    },
    accept: {
      label: '验收通过',
      from: [4],
      to: 5,
      guard: (row) =>
        !has(row.acceptanceDate)
          ? '请填写验收日期'
          : Number(row.acceptanceResult) !== 1
            ? '验收结论须为“合格”才能通过验收；不合格请退回实施'
            : null,
    },
    reject: {
      label: '验收不合格，退回实施',
      from: [4],
      to: 3,
      guard: (row) => (Number(row.acceptanceResult) === 2 ? null : '退回实施时请将验收结论选为“不合格”'),
    },
    archive: { label: '归档', from: [5], to: 6, guard: (row) => archiveProblem(row) },
    terminate: {
      label: '终止项目',
      from: [0, 1, 2, 3, 4],
      to: 9,
      input: { reason: f.textarea('终止原因', { required: true, max: 500 }) },
      // Through `update` the input is optional in the schema: the guard asks for it.
      guard: (_row, input) => (has(input.reason) ? null : '终止项目请填写终止原因'),
      set: (_row, input) => ({ terminateReason: input.reason }),
      danger: true,
    },
  },
  canUpdate: (before) =>
    [6, 9].includes(Number(before.status))
      ? { field: 'status', message: `项目${Number(before.status) === 6 ? '已归档' : '已终止'}，不能再修改` }
      : null,
  canDelete: (row) =>
    [0, 1, 2, 9].includes(Number(row.status)) ? null : '项目已开始实施，不能删除；如需停止请终止项目',
  unique: [{ fields: ['projectNo'], message: '项目编号已存在，请换一个' }],
  order: [['id', 'desc']],
  describe: (r) => `${String(r.projectNo ?? '')} ${String(r.name ?? '')}`.trim(),
});

/** Why a record may not start repair: custody hand-over, the object's state before treatment. */
export function recordStartProblem(row: Readonly<Record<string, unknown>>): string | null {
  if (!has(row.takeOutDate) || !has(row.keeperId))
    return '请先填写出库日期和库房交接人（文物出库交接）后再开始修复';
  if (!has(row.beforePhotoIds)) return '请先上传至少一张修复前照片';
  return null;
}

/** Why a record may not go to evaluation: the treatment steps and the photos after. */
export function recordFinishProblem(row: Readonly<Record<string, unknown>>): string | null {
  if (!has(row.steps)) return '请至少填写一条修复过程后再完成修复';
  if (!has(row.afterPhotoIds)) return '请至少上传一张修复后照片后再完成修复';
  return null;
}

/** Why a record may not be archived: the evaluation and the object back in the storeroom. */
export function recordArchiveProblem(row: Readonly<Record<string, unknown>>): string | null {
  if (!has(row.evaluation)) return '请填写效果评估后再归档';
  if (!has(row.returnDate)) return '请填写归库日期（文物归库交接）后再归档';
  return null;
}

export const bsRepairManagement = defineRecord({
  name: 'bsRepairManagement',
  title: '修复档案',
  shape: 'pipeline',
  table: 'bs_repair_management',
  base: '/repair/bsRepairManagement',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST add',
    update: 'POST update',
    remove: 'GET delete',
    export: 'POST export',
  },
  fields: {
    projectId: f.ref('所属项目', 'bsRepairProject', { by: 'name', required: true, list: true, filter: 'eq' }),
    archiveNo: f.text('档案编号', { required: true, max: 30, list: true, keyword: true, width: 120 }),
    relicName: f.text('文物名称', { required: true, max: 100, list: true, keyword: true }),
    registerNo: f.text('总登记号', { required: true, max: 50, list: true, keyword: true, width: 110 }),
    category: f.dict('文物类别', 'relic_category', { required: true, list: true, filter: 'eq', width: 90 }),
    level: f.dict('文物级别', 'relic_level', { required: true, list: true, filter: 'eq', width: 80 }),
    era: f.text('年代', { required: true, max: 50 }),
    material: f.dict('质地', 'relic_texture', { required: true }),
    dimensions: f.text('尺寸', { max: 100, placeholder: '高 25.3 cm，口径 18 cm' }),
    weight: f.text('质量', { max: 30, placeholder: '1.25 kg' }),
    completeness: f.dict('完残程度', 'relic_completeness', { required: true }),
    preservation: f.dict('保存状态', 'relic_preservation', {
      required: true,
      help: '归档时自动改为“已修复”',
    }),
    diseases: f.list(
      '病害',
      {
        type: f.text('病害类型', { required: true, max: 30, placeholder: '矿化、残缺、裂隙…' }),
        part: f.text('部位', { max: 50 }),
        severity: f.status('程度', SEVERITIES, { required: true }),
        extent: f.text('范围', { max: 50, placeholder: '约 3×2 cm' }),
        description: f.text('描述', { max: 200 }),
      },
      { required: true, max: 30 },
    ),
    analyses: f.list(
      '检测分析',
      {
        method: f.text('分析方法', { required: true, max: 50, placeholder: 'X 射线荧光（XRF）' }),
        instrument: f.text('仪器', { max: 50 }),
        sampleSpot: f.text('取样部位', { max: 50 }),
        result: f.text('结果', { required: true, max: 200 }),
      },
      { max: 30 },
    ),
    beforePhotoIds: f.image('修复前照片', { required: true, max: 20 }),
    steps: f.list(
      '修复过程',
      {
        date: f.date('日期', { required: true }),
        step: f.text('步骤', { required: true, max: 30, placeholder: '清洗、脱盐、除锈、加固、粘接、补配…' }),
        materials: f.text('材料', { max: 100 }),
        ratio: f.text('配比', { max: 50 }),
        tools: f.text('工具', { max: 100 }),
        description: f.text('说明', { max: 200 }),
      },
      { max: 50 },
    ),
    afterPhotoIds: f.image('修复后照片', { max: 20, help: '完成修复前至少一张' }),
    restorerIds: f.users('修复人员', { required: true, max: 10, list: true, filter: 'contains' }),
    takeOutDate: f.date('出库日期', { list: true, filter: 'range', width: 110, help: '开始修复前必填' }),
    keeperId: f.user('库房交接人', { help: '文物出库、归库时与修复人员交接的库房保管员' }),
    returnDate: f.date('归库日期', { list: true, width: 110, help: '归档前必填' }),
    evaluation: f.textarea('效果评估', { max: 2000, help: '归档前必填' }),
    careAdvice: f.textarea('保存建议', {
      max: 500,
      placeholder: '温度 20±2 ℃，相对湿度 40%–50%，避光，每年复查',
    }),
    reworkReason: f.textarea('退回原因', { form: false, max: 200 }),
    status: f.status('状态', RECORD_STATES, { form: false, list: true, filter: 'eq', initial: 0, width: 80 }),
  },
  check: (row) => {
    if (has(row.returnDate) && !has(row.takeOutDate))
      return { field: 'takeOutDate', message: '填写归库日期前请先填写出库日期' };
    if (has(row.returnDate) && String(row.returnDate) < String(row.takeOutDate))
      return { field: 'returnDate', message: '归库日期不能早于出库日期' };
    if (has(row.takeOutDate) && !has(row.keeperId))
      return { field: 'keeperId', message: '填写出库日期时请选择库房交接人' };
    return null;
  },
  access: {
    read: ['repair.cultural', 'repair.manage'],
    write: 'repair.fill',
    // Grade-1 objects' archives: their writers only ([ours], records-design §6.1).
    readerSees: { field: 'level', values: ['2', '3', '4', '5'] },
  },
  status: { field: 'status' },
  statusByUpdate: true,
  transitions: {
    start: {
      label: '开始修复',
      from: [0],
      to: 1,
      guard: (row) => recordStartProblem(row),
      effect: 'projectUnderWay',
    },
    finish: { label: '完成修复', from: [1], to: 2, guard: (row) => recordFinishProblem(row) },
    // 归档 first: the row's one stage button at 待评估 (退回修复 sits in 更多).
    archive: {
      label: '归档',
      from: [2],
      to: 3,
      guard: (row) => recordArchiveProblem(row),
      set: () => ({ preservation: PRESERVATION_REPAIRED }),
    },
    rework: {
      label: '退回修复',
      from: [2],
      to: 1,
      input: { reason: f.textarea('退回原因', { required: true, max: 200 }) },
      guard: (_row, input) => (has(input.reason) ? null : '退回修复请填写退回原因'),
      set: (_row, input) => ({ reworkReason: input.reason }),
      danger: true,
    },
  },
  canUpdate: (before) =>
    Number(before.status) === 3 ? { field: 'status', message: '档案已归档，不能再修改' } : null,
  canDelete: (row) => (Number(row.status) === 0 ? null : '已开始修复的档案不能删除（修复档案须完整保存）'),
  unique: [{ fields: ['archiveNo'], message: '档案编号已存在，请换一个' }],
  order: [['id', 'desc']],
  describe: (r: Readonly<Record<string, unknown>> | Row) =>
    `${String(r.archiveNo ?? '')} ${String(r.relicName ?? '')}`.trim(),
});

export const STANDARD_LEVELS: readonly StatusOption[] = [
  { value: 1, label: '国家标准' },
  { value: 2, label: '行业标准（WW）' },
  { value: 3, label: '地方标准（DB）' },
  { value: 4, label: '团体标准' },
  { value: 5, label: '规范性文件' },
];

export const STANDARD_STATES: readonly StatusOption[] = [
  { value: 1, label: '现行', color: 'green' },
  { value: 2, label: '废止', color: 'gray' },
  { value: 3, label: '被代替', color: 'orange' },
];

/** 标准规范 (A; standards-query reads, standards-management writes; calls ours). */
export const bsRepairStandard = defineRecord({
  name: 'bsRepairStandard',
  title: '标准规范',
  shape: 'catalog',
  table: 'bs_repair_standard',
  base: '/repair/bsRepairStandard',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST add',
    update: 'POST update',
    remove: 'GET delete',
    export: 'POST export',
  },
  fields: {
    code: f.text('标准编号', { required: true, max: 50, list: true, keyword: true, width: 150 }),
    name: f.text('标准名称', { required: true, max: 200, list: true, keyword: true }),
    level: f.status('标准级别', STANDARD_LEVELS, { required: true, list: true, filter: 'eq', width: 110 }),
    materialCategory: f.dict('适用文物类别', 'relic_category', { list: true, filter: 'eq', width: 110 }),
    publishOrg: f.text('发布单位', { max: 100 }),
    publishDate: f.date('发布日期', { list: true, width: 110 }),
    implementDate: f.date('实施日期', { width: 110 }),
    state: f.status('状态', STANDARD_STATES, {
      required: true,
      list: true,
      filter: 'eq',
      initial: 1,
      width: 80,
    }),
    replacedBy: f.text('代替标准', { max: 50, help: '状态为“被代替”时必填' }),
    fileId: f.file('标准文本', { types: ['pdf'], maxBytes: 50 * 1024 * 1024 }),
    keywords: f.text('关键词', { max: 200, keyword: true }),
    summary: f.textarea('摘要', { max: 2000 }),
  },
  check: (row) => {
    if (Number(row.state) === 3 && !has(row.replacedBy))
      return { field: 'replacedBy', message: '状态为“被代替”时请填写代替它的标准编号' };
    if (has(row.implementDate) && has(row.publishDate) && String(row.implementDate) < String(row.publishDate))
      return { field: 'implementDate', message: '实施日期不能早于发布日期' };
    return null;
  },
  access: {
    read: ['repair.standardsQuery', 'repair.standardsManagement'],
    write: 'repair.standardsManagement',
  },
  unique: [{ fields: ['code'], message: '标准编号已存在' }],
  importable: true,
  order: [
    ['level', 'asc'],
    ['code', 'asc'],
  ],
  describe: (r) => `${String(r.code ?? '')} ${String(r.name ?? '')}`.trim(),
});

export const REPAIR_RECORDS = [bsRepairProject, bsRepairManagement, bsRepairStandard] as const;
