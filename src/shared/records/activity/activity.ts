import { defineRecord, f, withField, type StatusOption } from '../define';
import { mobileProblem } from '../validators';
import { formatMuseumMinute } from '../../rules/museum-time';
import { SIGN_BOOKED, SIGN_PRESENT } from './rules';

/**
 * Social education activities (社会教育; issue 24; spec §2 /activity/*; README "Social education
 * activities (issue 24)"). The spec names no calls: these are ours, under /activity, in the
 * engine's words.
 *
 * - 活动类型 (`activityType`, catalog + sort): the kinds of activity a museum runs (讲座, 亲子活动,
 *   研学, 手工体验…). A type in use cannot be deleted, only disabled; a disabled type is not
 *   offered to new activities.
 * - 活动 (`activity`, catalog + publish, and a capacity row of the booking shape): dates, place,
 *   places (`total`, `used`), the sign-up window and 开放报名 (`open`): 发布 shows it to the public
 *   and opens sign-ups, 下架 hides it and closes them.
 * - 活动报名 (`activitySign`, booking): one sign-up of one or more people (a family), taken from
 *   the activity's places by the engine's conditional UPDATE (never oversold, even when two
 *   people race for the last places), given back when cancelled; 签到 and 缺席 on the day.
 * - 活动资料 (`activityRecord`): what a held activity left: the real number of participants, a
 *   summary, photos and files (the 活动资料 page), one per activity.
 */

export const ACTIVITY_GRANTS = {
  manage: 'activity.manage',
  type: 'activity.type',
  data: 'activity.dataManagement',
  statistic: 'activity.statistic',
} as const;

export const activityType = defineRecord({
  name: 'activityType',
  title: '活动类型',
  shape: 'catalog',
  table: 'activity_type',
  base: '/activity/activityType',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
    up: 'GET up',
    down: 'GET down',
  },
  fields: {
    name: f.text('类型名称', { required: true, max: 30, list: true, keyword: true }),
    description: f.textarea('说明', { max: 200, list: true }),
    // Left empty it stores 9999, so a new type goes last (records-design §1).
    sort: withField(
      f.int('排序', { min: 0, max: 9999, list: true, width: 70, help: '数字越小越靠前，不填排在最后' }),
      { empty: 9999 },
    ),
    status: f.status(
      '状态',
      [
        { value: 1, label: '启用', color: 'green' },
        { value: 0, label: '停用', color: 'gray' },
      ],
      { required: true, list: true, filter: 'eq', width: 70 },
    ),
  },
  unique: [{ fields: ['name'], message: '已有同名的活动类型' }],
  sortable: { field: 'sort', scope: [] },
  // Every page of the module picks a type; only 活动类型's holders write them.
  access: {
    read: [ACTIVITY_GRANTS.manage, ACTIVITY_GRANTS.type, ACTIVITY_GRANTS.data, ACTIVITY_GRANTS.statistic],
    write: ACTIVITY_GRANTS.type,
  },
  order: [
    ['sort', 'asc'],
    ['id', 'asc'],
  ],
  describe: (r) => String(r.name ?? ''),
});

/** 0 草稿 · 1 已发布 (报名中 / 进行中 / 已结束 follow from the times) · 2 已下架. */
export const ACTIVITY_STATES: readonly StatusOption[] = [
  { value: 0, label: '草稿', color: 'gray' },
  { value: 1, label: '已发布', color: 'green' },
  { value: 2, label: '已下架', color: 'orange' },
];

export const AUDIENCES = ['不限', '亲子家庭', '青少年', '成人', '老年人', '团体'] as const;

export const activity = defineRecord({
  name: 'activity',
  title: '社教活动',
  shape: 'catalog',
  table: 'activity',
  base: '/activity/activity',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
    export: 'GET export',
  },
  fields: {
    title: f.text('活动名称', { required: true, max: 100, list: true, keyword: true, width: 200 }),
    typeId: f.ref('活动类型', 'activityType', {
      by: 'name',
      required: true,
      list: true,
      filter: 'eq',
      width: 100,
      active: { field: 'status', value: 1 },
    }),
    cover: f.image('封面', { max: 5, help: '只能上传图片，最多 5 张，第一张用作封面' }),
    place: f.text('活动地点', { required: true, max: 100, list: true, keyword: true, width: 140 }),
    startTime: f.datetime('开始时间', { required: true, list: true, filter: 'range', width: 140 }),
    endTime: f.datetime('结束时间', { required: true, list: true, width: 140 }),
    signupStart: f.datetime('报名开始', { help: '不填则发布后即可报名' }),
    signupEnd: f.datetime('报名截止', { help: '不填则活动开始时截止' }),
    total: f.int('名额', { required: true, min: 1, max: 5000, list: true, width: 70 }),
    used: f.int('已报名', { form: false, list: true, initial: 0, width: 70 }),
    maxPersons: f.int('每次报名最多人数', {
      min: 1,
      max: 20,
      help: '一次报名可带的人数（如亲子家庭），不填为 5 人',
    }),
    audience: f.text('面向对象', { max: 50, choices: AUDIENCES, list: true, width: 100 }),
    organizer: f.user('负责人', { list: true, filter: 'eq', width: 90 }),
    contactPhone: f.text('咨询电话', { max: 30 }),
    summary: f.textarea('活动简介', { max: 300 }),
    content: f.rich('活动详情'),
    // The capacity row's switch (records-design §2 C, S8's 开放): 发布 turns it on, 下架 off; the
    // form may open sign-ups before publishing (staff take school groups' sign-ups by phone).
    open: f.bool('开放报名', { list: true, width: 80, help: '发布时自动开放，下架时自动关闭' }),
    status: f.status('状态', ACTIVITY_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: 0,
      width: 80,
    }),
    publishTime: f.datetime('发布时间', { form: false }),
  },
  status: { field: 'status' },
  transitions: {
    publish: {
      label: '发布',
      from: [0, 2],
      to: 1,
      set: (_row, _input, now) => ({ publishTime: now, open: true }),
      confirm: '发布后即可按报名时间接受报名，确定发布吗？',
    },
    takeDown: {
      label: '下架',
      from: [1],
      to: 2,
      set: () => ({ open: false }),
      confirm: '下架后不再接受新的报名，已有报名保留。确定下架吗？',
      danger: true,
    },
  },
  check: (row) => {
    const start = row.startTime as number | undefined;
    const end = row.endTime as number | undefined;
    const sStart = row.signupStart as number | undefined;
    const sEnd = row.signupEnd as number | undefined;
    if (start && end && end <= start) return { field: 'endTime', message: '结束时间须晚于开始时间' };
    if (sStart && sEnd && sEnd <= sStart) return { field: 'signupEnd', message: '报名截止须晚于报名开始' };
    if (sEnd && end && sEnd > end) return { field: 'signupEnd', message: '报名截止不能晚于活动结束时间' };
    if (sStart && start && sStart >= start)
      return { field: 'signupStart', message: '报名开始须早于活动开始时间' };
    return null;
  },
  canUpdate: (before, after) =>
    typeof after.total === 'number' && after.total < Number(before.used ?? 0)
      ? { field: 'total', message: `名额不能少于已报名的 ${String(before.used)} 人` }
      : null,
  access: {
    read: [ACTIVITY_GRANTS.manage, ACTIVITY_GRANTS.data, ACTIVITY_GRANTS.statistic],
    write: ACTIVITY_GRANTS.manage,
  },
  order: [
    ['startTime', 'desc'],
    ['id', 'desc'],
  ],
  describe: (r) => String(r.title ?? ''),
});

/** 0 已报名 · 1 已签到 · 2 缺席 · 3 已取消 (places given back). */
export const SIGN_STATES: readonly StatusOption[] = [
  { value: 0, label: '已报名', color: 'blue' },
  { value: 1, label: '已签到', color: 'green' },
  { value: 2, label: '缺席', color: 'red' },
  { value: 3, label: '已取消', color: 'gray' },
];

export const activitySign = defineRecord({
  name: 'activitySign',
  title: '活动报名',
  shape: 'booking',
  table: 'activity_sign',
  base: '/activity/activitySign',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST save',
    export: 'GET export',
  },
  fields: {
    activityId: f.ref('活动', 'activity', {
      by: 'title',
      required: true,
      list: true,
      filter: 'eq',
      width: 180,
    }),
    name: f.text('报名人', { required: true, max: 30, list: true, keyword: true, width: 90 }),
    phone: f.text('手机号', {
      required: true,
      max: 11,
      validate: mobileProblem,
      list: true,
      keyword: true,
      mask: 'phone',
      width: 120,
    }),
    persons: f.int('人数', { required: true, min: 1, max: 20, list: true, width: 60 }),
    remark: f.textarea('备注', { max: 200, placeholder: '如孩子年龄、需要的协助' }),
    status: f.status('状态', SIGN_STATES, { form: false, list: true, filter: 'eq', initial: 0, width: 80 }),
    checkInTime: f.datetime('签到时间', { form: false, list: true, width: 140 }),
    cancelReason: f.textarea('取消原因', { form: false, max: 200 }),
  },
  status: { field: 'status' },
  transitions: {
    // Each of the three reads the activity's times in its effect (server/modules/activity).
    checkIn: {
      label: '签到',
      from: [0, 2],
      to: 1,
      set: (_row, _input, now) => ({ checkInTime: now }),
      effect: 'checkInWindow',
    },
    notPresent: { label: '缺席', from: [0], to: 2, danger: true, effect: 'absentWindow' },
    cancel: {
      label: '取消报名',
      from: [0],
      to: 3,
      input: { reason: f.textarea('取消原因', { required: true, max: 200 }) },
      set: (_row, input) => ({ cancelReason: input.reason }),
      danger: true,
      confirm: '取消后名额退回该活动。',
      effect: 'cancelWindow',
    },
  },
  rules: [
    {
      // One live sign-up per phone and activity: a second would take places twice.
      name: 'onePerPhone',
      peers: (row) => ({
        activityId: [row.activityId],
        phone: [row.phone],
        status: [SIGN_BOOKED, SIGN_PRESENT],
      }),
      check: (_row, peers) =>
        peers.length ? { field: 'phone', message: '该手机号已报名本活动，不能重复报名' } : null,
    },
  ],
  booking: {
    capacityTable: 'activity',
    capacityField: 'activityId',
    quantityField: 'persons',
    releasedAt: [3],
  },
  access: { read: [ACTIVITY_GRANTS.manage, ACTIVITY_GRANTS.data], write: ACTIVITY_GRANTS.manage },
  order: [['id', 'desc']],
  describe: (r) => `${String(r.name ?? '')} 报名 ${String(r.persons ?? '')} 人`,
});

export const activityRecord = defineRecord({
  name: 'activityRecord',
  title: '活动资料',
  shape: 'catalog',
  table: 'activity_record',
  base: '/activity/activityRecord',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
    export: 'GET export',
  },
  fields: {
    activityId: f.ref('活动', 'activity', {
      by: 'title',
      required: true,
      list: true,
      filter: 'eq',
      width: 200,
    }),
    heldDate: f.date('举办日期', { required: true, list: true, filter: 'range', width: 110 }),
    participants: f.int('实际参与人数', {
      required: true,
      min: 0,
      max: 100000,
      list: true,
      width: 100,
      help: '含现场参与、未报名的观众；统计以此为准',
    }),
    summary: f.textarea('活动总结', { max: 2000, keyword: true }),
    photos: f.image('活动照片', { max: 30 }),
    files: f.file('附件', {
      max: 10,
      maxBytes: 500 * 1024 * 1024,
      help: '方案、课件、签到表等，单个不超过 500 MB',
    }),
  },
  unique: [{ fields: ['activityId'], message: '该活动已有活动资料，请编辑原有记录' }],
  access: {
    read: [ACTIVITY_GRANTS.data, ACTIVITY_GRANTS.manage, ACTIVITY_GRANTS.statistic],
    write: ACTIVITY_GRANTS.data,
  },
  order: [
    ['heldDate', 'desc'],
    ['id', 'desc'],
  ],
  describe: (r) => `活动资料 ${String(r.heldDate ?? '')}`,
});

/** A moment for messages. */
export const minuteText = (ms: unknown) => (typeof ms === 'number' ? formatMuseumMinute(ms) : '');

export const ACTIVITY_RECORDS = [activityType, activity, activitySign, activityRecord] as const;
