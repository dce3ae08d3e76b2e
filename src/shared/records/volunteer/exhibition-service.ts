import { defineRecord, f, type StatusOption } from '../define';
import { minutesBetween } from '../../rules/volunteer-hours';

/**
 * 志愿服务展览 (research/records-design.md §3.7): the exhibitions volunteers explain, their
 * sessions, the explainers' qualification per hall, and the sessions' check-ins. Routes
 * /volunteer/exlain-index (讲解服务: exhibitions, sessions, check-in codes) and
 * /volunteer/hxhibition-explain (展厅讲解: qualification per hall); /volunteer/sign-in is the
 * check-ins' page.
 *
 * The engine serves lists, forms, details and the plain status changes. What needs other rows
 * (sessions generated from an exhibition's daily times, explainers set only when qualified and
 * not double-booked, the signed check-in code, check-in and check-out with the server's clock)
 * is server/modules/volunteer-service.
 *
 * A volunteer is named by their account (a user id), as in 志愿服务记录.
 */

const checkTimes = (row: Record<string, unknown>) =>
  typeof row.startTime === 'string' &&
  typeof row.endTime === 'string' &&
  minutesBetween(row.startTime, row.endTime) === null
    ? { field: 'endTime', message: '结束时间须晚于开始时间' }
    : null;

export const EXHIBITION_STATES: readonly StatusOption[] = [
  { value: 1, label: '启用', color: 'green' },
  { value: 0, label: '停用', color: 'gray' },
];

/** 志愿服务展览 (A). `qrVersion` is the hall code's version: bumping it revokes printed codes. */
export const volunteerExhibition = defineRecord({
  name: 'volunteerExhibition',
  title: '志愿服务展览',
  shape: 'catalog',
  table: 'volunteer_exhibition',
  base: '/v2/exhibition',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST add',
    update: 'POST edit',
    remove: 'GET delete',
    export: 'GET export',
  },
  fields: {
    name: f.text('展览名称', { required: true, max: 100, list: true, keyword: true, width: 200 }),
    hall: f.text('展厅', { required: true, max: 50, list: true, keyword: true, width: 120 }),
    startDate: f.date('开始日期', { required: true, list: true, width: 110 }),
    endDate: f.date('结束日期', { list: true, width: 110, help: '常设展览留空' }),
    explainMinutes: f.int('每场讲解时长（分钟）', { required: true, min: 10, max: 240 }),
    explainTimes: f.list(
      '每日讲解时间',
      { time: f.time('开始时间', { required: true }) },
      { required: true, max: 12, list: true },
    ),
    needQualification: f.bool('需讲解资格', {
      list: true,
      help: '开启后只有取得本展览讲解证书的志愿者可被安排',
    }),
    status: f.status('状态', EXHIBITION_STATES, {
      required: true,
      list: true,
      filter: 'eq',
      initial: 1,
      width: 80,
    }),
    intro: f.textarea('展览简介', { max: 2000 }),
    qrVersion: f.int('签到码版本', { form: false, initial: 1 }),
  },
  status: { field: 'status' },
  check: (row) =>
    typeof row.endDate === 'string' &&
    row.endDate &&
    typeof row.startDate === 'string' &&
    row.endDate < row.startDate
      ? { field: 'endDate', message: '结束日期不能早于开始日期' }
      : null,
  access: { read: 'volunteer.social.explainIndex', write: 'volunteer.social.explainIndex' },
  order: [
    ['startDate', 'desc'],
    ['id', 'desc'],
  ],
  describe: (r) => `${String(r.name ?? '')}（${String(r.hall ?? '')}）`,
});

export const SESSION_TYPES: readonly StatusOption[] = [
  { value: 1, label: '定时讲解' },
  { value: 2, label: '预约讲解' },
  { value: 3, label: '展厅值守' },
];

export const SESSION_STATES: readonly StatusOption[] = [
  { value: 0, label: '待安排', color: 'orange' },
  { value: 1, label: '已安排', color: 'blue' },
  { value: 2, label: '已完成', color: 'green' },
  { value: 3, label: '已取消', color: 'gray' },
];
export const SESSION_OPEN = 0;
export const SESSION_ASSIGNED = 1;
export const SESSION_DONE = 2;
export const SESSION_CANCELLED = 3;

/** 场次 (ExhibitionDetail, C): one session of an exhibition on one day. */
export const exhibitionSession = defineRecord({
  name: 'exhibitionSession',
  title: '讲解场次',
  shape: 'pipeline',
  table: 'volunteer_session',
  base: '/v2/exhibitionDetail',
  calls: {
    list: 'GET list',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
    export: 'GET export',
  },
  fields: {
    exhibitionId: f.ref('展览', 'volunteerExhibition', {
      by: 'name',
      required: true,
      list: true,
      filter: 'eq',
      width: 180,
    }),
    serviceDate: f.date('日期', { required: true, list: true, filter: 'range', width: 110 }),
    startTime: f.time('开始时间', { required: true, list: true, width: 80 }),
    endTime: f.time('结束时间', { required: true, list: true, width: 80 }),
    type: f.status('场次类型', SESSION_TYPES, { required: true, list: true, filter: 'eq', width: 90 }),
    quota: f.int('需要人数', { required: true, min: 1, max: 20, list: true, width: 80 }),
    recruitOpen: f.bool('开放认领', { list: true, width: 80 }),
    explainerIds: f.users('讲解员', { form: false, max: 20, list: true, filter: 'contains', width: 160 }),
    teamOrderId: f.int('关联团队预约', { form: false }),
    status: f.status('状态', SESSION_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: SESSION_OPEN,
      width: 80,
    }),
    cancelReason: f.textarea('取消原因', { form: false, max: 200 }),
  },
  status: { field: 'status' },
  transitions: {
    finish: { label: '完成', from: [SESSION_ASSIGNED], to: SESSION_DONE },
    cancel: {
      label: '取消场次',
      from: [SESSION_OPEN, SESSION_ASSIGNED],
      to: SESSION_CANCELLED,
      input: {
        reason: f.textarea('取消原因', { required: true, max: 200, help: '已安排的讲解员会收到通知' }),
      },
      set: (_row, input) => ({ cancelReason: input.reason }),
      effect: 'cancelled',
      danger: true,
      confirm: '取消后，志愿者在此场次的签到将被拒绝（已离线签到的会在同步时看到原因）。',
    },
  },
  unique: [
    { fields: ['exhibitionId', 'serviceDate', 'startTime'], message: '该展览这一天的这个时间已有场次' },
  ],
  check: checkTimes,
  canUpdate: (before) =>
    before.status === SESSION_OPEN
      ? null
      : { field: 'serviceDate', message: '已安排、完成或取消的场次不能修改，请取消后重新添加' },
  canDelete: (row) => (row.status === SESSION_OPEN ? null : '已安排讲解员的场次不能删除，请改为取消场次'),
  access: { read: 'volunteer.social.explainIndex', write: 'volunteer.social.explainIndex' },
  order: [
    ['serviceDate', 'asc'],
    ['startTime', 'asc'],
    ['id', 'asc'],
  ],
  describe: (r) => `${String(r.serviceDate ?? '')} ${String(r.startTime ?? '')} 场次`,
});

export const QUALIFICATION_STATES: readonly StatusOption[] = [
  { value: 0, label: '待审核', color: 'orange' },
  { value: 1, label: '考核通过', color: 'blue' },
  { value: 2, label: '未通过', color: 'red' },
  { value: 3, label: '已发证', color: 'green' },
];
export const QUALIFICATION_ISSUED = 3;

/** Why a trial cannot be judged yet: it needs its time, its score and two examiners (S12). */
function trialMissing(row: Record<string, unknown>): string | null {
  if (!row.trialTime) return '请先填写试讲时间';
  if (row.trialScore === null || row.trialScore === undefined) return '请先填写试讲成绩';
  if (!Array.isArray(row.examinerIds) || row.examinerIds.length < 2) return '考核须有至少 2 名考官';
  return null;
}

/** 讲解资格 (ApplyExhibition, B): a volunteer's qualification to explain one exhibition's hall. */
export const explainerQualification = defineRecord({
  name: 'explainerQualification',
  title: '讲解资格',
  shape: 'pipeline',
  table: 'volunteer_qualification',
  base: '/v2/applyExhibition',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
    export: 'GET export',
  },
  fields: {
    exhibitionId: f.ref('展览', 'volunteerExhibition', {
      by: 'name',
      required: true,
      list: true,
      filter: 'eq',
      width: 180,
    }),
    volunteerId: f.user('志愿者', { required: true, list: true, filter: 'eq', width: 110 }),
    trialTime: f.datetime('试讲时间', { list: true, width: 140 }),
    trialScore: f.int('试讲成绩', { max: 100, list: true, width: 80 }),
    examinerIds: f.users('考官', { max: 10, list: true, width: 140, help: '至少 2 名' }),
    comment: f.textarea('考核意见', { max: 500 }),
    certNo: f.text('证书编号', { form: false, max: 50, list: true, keyword: true, width: 120 }),
    issueDate: f.date('发证日期', { form: false, list: true, width: 110 }),
    status: f.status('状态', QUALIFICATION_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: 0,
      width: 90,
    }),
  },
  status: { field: 'status' },
  transitions: {
    pass: {
      label: '考核通过',
      call: 'GET pass',
      from: [0],
      to: 1,
      guard: (row) => trialMissing(row),
    },
    notPass: {
      label: '未通过',
      call: 'GET notPass',
      from: [0],
      to: 2,
      input: { reason: f.textarea('考核意见', { required: true, max: 500 }) },
      guard: (row) => trialMissing(row),
      set: (_row, input) => ({ comment: input.reason }),
      danger: true,
    },
    issue: {
      label: '发证',
      call: 'GET issue',
      from: [1],
      to: QUALIFICATION_ISSUED,
      input: { certNo: f.text('证书编号', { required: true, max: 50 }) },
      // The effect sets the number once it has checked no other certificate holds it.
      effect: 'issueCert',
    },
  },
  unique: [{ fields: ['exhibitionId', 'volunteerId'], message: '该志愿者已有本展览的讲解资格申请' }],
  canUpdate: (before) =>
    before.status === 0 ? null : { field: 'trialScore', message: '已考核的申请不能修改' },
  access: { read: 'volunteer.social.exhibitionExplain', write: 'volunteer.social.exhibitionExplain' },
  order: [['id', 'desc']],
  describe: () => '讲解资格申请',
});

export const CHECKIN_STATES: readonly StatusOption[] = [
  { value: 0, label: '待签到', color: 'gray' },
  { value: 1, label: '已签到', color: 'blue' },
  { value: 2, label: '已签退', color: 'teal' },
  { value: 3, label: '缺勤', color: 'red' },
  { value: 4, label: '已确认', color: 'green' },
];
export const CHECKIN_WAITING = 0;
export const CHECKIN_IN = 1;
export const CHECKIN_OUT = 2;
export const CHECKIN_ABSENT = 3;
export const CHECKIN_CONFIRMED = 4;

export const CHECKIN_ROLES: readonly StatusOption[] = [
  { value: 1, label: '讲解' },
  { value: 2, label: '协助' },
];
export const CHECKIN_SOURCES: readonly StatusOption[] = [
  { value: 1, label: '扫码' },
  { value: 2, label: '管理员代签' },
  { value: 3, label: '补签' },
];

/**
 * 场次签到 (ExhibitionDetailUser, B): one volunteer on one session. Rows are made when explainers
 * are set; check-in and check-out are the server's (volunteer-service `check`, `checkTime`). A
 * check-out writes the 志愿服务记录 (待确认, or 已确认 when the settings confirm automatically);
 * confirming that record moves this row to 已确认, so hours are confirmed in one place.
 */
export const sessionCheckIn = defineRecord({
  name: 'sessionCheckIn',
  title: '场次签到',
  shape: 'pipeline',
  table: 'volunteer_check_in',
  base: '/v2/exhibitionDetailUser',
  calls: { list: 'GET checkList', detail: 'GET detail', export: 'GET export' },
  fields: {
    detailId: f.ref('场次', 'exhibitionSession', {
      by: 'serviceDate',
      required: true,
      list: true,
      filter: 'eq',
      width: 110,
    }),
    volunteerId: f.user('志愿者', { required: true, list: true, filter: 'eq', width: 110 }),
    role: f.status('角色', CHECKIN_ROLES, { required: true, list: true, width: 70 }),
    checkInTime: f.datetime('签到时间', { form: false, list: true, width: 140 }),
    checkOutTime: f.datetime('签退时间', { form: false, list: true, width: 140 }),
    source: f.status('签到方式', CHECKIN_SOURCES, { form: false, list: true, width: 100 }),
    serviceMinutes: f.int('服务时长（分钟）', { form: false, list: true, width: 110 }),
    deviceInTime: f.datetime('手机签到时间', { form: false, seconds: true }),
    deviceOutTime: f.datetime('手机签退时间', { form: false, seconds: true }),
    clockSkewMs: f.int('手机时钟偏差（毫秒）', { form: false, min: -2_147_483_648 }),
    flags: f.text('复核提示', { form: false, max: 300, list: true, width: 160 }),
    remark: f.textarea('补签原因', { form: false, max: 200 }),
    status: f.status('状态', CHECKIN_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: CHECKIN_WAITING,
      width: 80,
    }),
  },
  status: { field: 'status' },
  transitions: {
    absent: {
      label: '标记缺勤',
      from: [CHECKIN_WAITING],
      to: CHECKIN_ABSENT,
      access: 'volunteer.signIn',
      danger: true,
    },
  },
  access: { read: 'volunteer.signIn', write: 'volunteer.signIn' },
  order: [
    ['detailId', 'desc'],
    ['id', 'asc'],
  ],
  describe: () => '场次签到',
});
