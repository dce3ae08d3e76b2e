import { defineRecord, f, type StatusOption } from '../define';
import { PUBLISH_STATES, publishing } from '../office/wk-dynamic';

/**
 * Volunteer notices, recruits and sign-ups (records-design §3.5, §3.6; README "Volunteers").
 * Add and edit of notices and recruits are form-encoded (the engine reads either body).
 * The spec's `publishOrCancel` (one call, two outcomes) is a hand-written route that picks
 * 发布 or 下线 by the row's status (server/modules/volunteer).
 */

const PUBLISH = publishing();

/** 志愿者公告 (§3.5). */
export const volunteerNotice = defineRecord({
  name: 'volunteerNotice',
  title: '志愿者公告',
  shape: 'catalog',
  table: 'volunteer_notice',
  base: '/v2/bsVolunteerV2Notice',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST add',
    update: 'POST edit',
    remove: 'GET delete',
  },
  fields: {
    title: f.text('标题', { required: true, max: 100, list: true, keyword: true }),
    category: f.status(
      '类别',
      [
        { value: 1, label: '通知公告' },
        { value: 2, label: '培训通知' },
        { value: 3, label: '风采展示' },
      ],
      { required: true, list: true, filter: 'eq', width: 100 },
    ),
    cover: f.image('封面'),
    summary: f.textarea('摘要', { max: 200 }),
    content: f.rich('正文', { required: true }),
    audience: f.status(
      '可见范围',
      [
        { value: 1, label: '全部志愿者' },
        { value: 2, label: '社会志愿者' },
        { value: 3, label: '学生志愿者' },
        { value: 4, label: '指定服务组' },
      ],
      { required: true, list: true, initial: 1, width: 110 },
    ),
    groupId: f.ref('服务组', 'volunteerGroup', { by: 'name', help: '可见范围为“指定服务组”时必选' }),
    isTop: f.bool('置顶', { list: true, width: 70 }),
    status: f.status('状态', PUBLISH_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: 0,
      width: 90,
    }),
    publishTime: f.datetime('发布时间', { form: false, list: true, filter: 'range', width: 150 }),
  },
  check: (row) =>
    row.audience === 4 && !row.groupId
      ? { field: 'groupId', message: '可见范围为指定服务组时请选择服务组' }
      : null,
  status: { field: 'status' },
  transitions: {
    ...PUBLISH,
    publish: {
      ...PUBLISH.publish!,
      effect: 'notifyAudience',
      confirm: '发布后可见范围内的志愿者将收到通知，确定发布吗？',
    },
  },
  access: { read: 'volunteer.infoPublish', write: 'volunteer.infoPublish' },
  order: [
    ['isTop', 'desc'],
    ['publishTime', 'desc'],
    ['id', 'desc'],
  ],
  describe: (r) => String(r.title ?? ''),
});

export const RECRUIT_STATES: readonly StatusOption[] = [
  { value: 0, label: '草稿', color: 'gray' },
  { value: 1, label: '已发布', color: 'green' },
  { value: 2, label: '已结束', color: 'blue' },
  { value: 3, label: '已取消', color: 'red' },
];

const HOURS_RE = /^\d{1,2}(\.5)?$/;
/** Hours as entered (3, 2.5): more than 0, in half hours (records-design §3.3 hoursUnit 0.5). */
export function hoursProblem(v: string): string | null {
  return HOURS_RE.test(v) && Number(v) > 0 ? null : '须为大于 0 的小时数，最小单位 0.5（如 3 或 2.5）';
}

/**
 * 招募 (§3.6): also the capacity row of its sign-ups (`total` places, `used` taken, `open` while
 * published), so reserving a place is the engine's one conditional UPDATE.
 */
export const recruit = defineRecord({
  name: 'recruit',
  title: '志愿者招募',
  shape: 'pipeline',
  table: 'volunteer_recruit',
  base: '/v2/bsVolunteerV2Recruit',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST add',
    update: 'POST edit',
    remove: 'GET delete',
  },
  fields: {
    title: f.text('标题', { required: true, max: 100, list: true, keyword: true }),
    cover: f.image('封面'),
    type: f.status(
      '招募类型',
      [
        { value: 1, label: '志愿者招新' },
        { value: 2, label: '活动/服务招募' },
      ],
      { required: true, list: true, filter: 'eq', width: 120 },
    ),
    groupId: f.ref('服务岗位', 'volunteerGroup', { by: 'name', required: true, list: true, filter: 'eq' }),
    targetType: f.status(
      '面向',
      [
        { value: 1, label: '成人' },
        { value: 2, label: '学生' },
        { value: 3, label: '不限' },
      ],
      { required: true, list: true, initial: 1, width: 70 },
    ),
    content: f.rich('招募详情', { required: true }),
    requirements: f.textarea('报名条件', { max: 500 }),
    location: f.text('地点', { max: 100 }),
    activityStart: f.datetime('服务开始', { list: true, filter: 'range', width: 150 }),
    activityEnd: f.datetime('服务结束'),
    signupStart: f.datetime('报名开始', { required: true }),
    signupEnd: f.datetime('报名截止', { required: true, list: true, width: 150 }),
    total: f.int('招募人数', { required: true, min: 1, max: 999, list: true, width: 90 }),
    used: f.int('已报名', { form: false, list: true, initial: 0, width: 80 }),
    open: f.bool('接受报名', { form: false }),
    hoursPerPerson: f.text('计入时长（小时）', {
      max: 4,
      validate: hoursProblem,
    }),
    needReview: f.bool('报名需审核', { list: true, width: 100 }),
    show: f.bool('小程序展示'),
    showExternal: f.bool('官网展示'),
    status: f.status('状态', RECRUIT_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: 0,
      width: 80,
    }),
    publishTime: f.datetime('发布时间', { form: false }),
  },
  check: (r) => {
    const n = (k: string) => (typeof r[k] === 'number' ? (r[k] as number) : null);
    if (n('signupStart') !== null && n('signupEnd') !== null && n('signupEnd')! <= n('signupStart')!)
      return { field: 'signupEnd', message: '报名截止须晚于报名开始' };
    if (r.type === 2) {
      if (!r.location) return { field: 'location', message: '活动/服务招募须填写地点' };
      if (n('activityStart') === null)
        return { field: 'activityStart', message: '活动/服务招募须填写服务开始时间' };
      if (n('activityEnd') === null)
        return { field: 'activityEnd', message: '活动/服务招募须填写服务结束时间' };
      if (!r.hoursPerPerson) return { field: 'hoursPerPerson', message: '活动/服务招募须填写计入时长' };
    }
    if (n('activityStart') !== null && n('activityEnd') !== null && n('activityEnd')! <= n('activityStart')!)
      return { field: 'activityEnd', message: '服务结束须晚于服务开始' };
    if (n('activityStart') !== null && n('signupEnd') !== null && n('signupEnd')! > n('activityStart')!)
      return { field: 'signupEnd', message: '报名截止不能晚于服务开始' };
    return null;
  },
  status: { field: 'status' },
  transitions: {
    publish: {
      label: '发布',
      from: [0],
      to: 1,
      set: (_r, _i, now) => ({ open: true, publishTime: now }),
      confirm: '发布后志愿者即可在报名时间内报名，确定发布吗？',
    },
    finish: { label: '结束招募', from: [1], to: 2, set: () => ({ open: false }) },
    cancel: {
      label: '取消招募',
      from: [0, 1],
      to: 3,
      input: { reason: f.textarea('取消原因', { required: true, max: 200 }) },
      set: () => ({ open: false }),
      danger: true,
    },
  },
  // The mini-program's 志愿者招募 page (applet.volunteer.recruit) reads the recruits it shows;
  // 招募管理 alone writes them (README "Mini-program pages").
  access: { read: ['volunteer.recruit', 'applet.volunteer.recruit'], write: 'volunteer.recruit' },
  order: [['id', 'desc']],
  describe: (r) => String(r.title ?? ''),
});

export const SIGN_STATES: readonly StatusOption[] = [
  { value: 0, label: '待审核', color: 'orange' },
  { value: 1, label: '已录用', color: 'green' },
  { value: 2, label: '未录用', color: 'red' },
  { value: 3, label: '已到岗', color: 'blue' },
  { value: 4, label: '缺席', color: 'red' },
  { value: 5, label: '时长已确认', color: 'green' },
  { value: 6, label: '已取消', color: 'gray' },
];
/** States that hold a place of the recruit's quota. */
export const SIGN_RELEASED = [2, 6] as const;

/**
 * 报名 (§3.6 RecruitUser): made only by the sign-up call (server/modules/volunteer), which checks
 * the window and the volunteer and reserves the place in the same transaction. The spec's
 * pass … serviceApproved calls act on it, under the recruit's base.
 */
export const recruitSign = defineRecord({
  name: 'recruitSign',
  title: '招募报名',
  shape: 'booking',
  table: 'volunteer_recruit_sign',
  base: '/v2/bsVolunteerV2Recruit',
  calls: { list: 'GET signList', detail: 'GET signDetail' },
  fields: {
    recruitId: f.ref('招募', 'recruit', { by: 'title', required: true, list: true, filter: 'eq' }),
    volunteerId: f.ref('志愿者', 'adultVolunteer', { by: 'volunteerNo', required: true }),
    name: f.text('姓名', { required: true, max: 30, list: true, keyword: true, width: 100 }),
    phone: f.text('手机', { max: 11, list: true, keyword: true, mask: 'phone', width: 130 }),
    places: f.int('名额', { form: false, initial: 1, min: 1, max: 1 }),
    signupTime: f.datetime('报名时间', { form: false, list: true, filter: 'range', width: 150 }),
    status: f.status('状态', SIGN_STATES, { form: false, list: true, filter: 'eq', initial: 0, width: 100 }),
    reviewComment: f.text('审核意见', { form: false, max: 200 }),
    presentTime: f.datetime('到岗时间', { form: false }),
    hours: f.text('确认时长（小时）', { form: false, max: 4 }),
  },
  status: { field: 'status' },
  transitions: {
    pass: { label: '录用', call: 'GET pass', from: [0], to: 1, effect: 'signResult' },
    notPass: {
      label: '不录用',
      call: 'GET notPass',
      from: [0],
      to: 2,
      input: { comment: f.text('不录用原因', { required: true, max: 200 }) },
      set: (_r, i) => ({ reviewComment: i.comment }),
      effect: 'signResult',
      danger: true,
    },
    bePresent: {
      label: '到岗',
      call: 'GET bePresent',
      from: [1],
      to: 3,
      set: (_r, _i, now) => ({ presentTime: now }),
    },
    notPresent: { label: '缺席', call: 'GET notPresent', from: [1], to: 4, effect: 'noShow', danger: true },
    serviceApproved: {
      label: '确认时长',
      call: 'GET serviceApproved',
      from: [3],
      to: 5,
      input: {
        // Checked by the effect (hoursProblem), after the status check, so a stale call says so first.
        hours: f.text('服务时长（小时）', { max: 4, help: '不填则按招募的计入时长' }),
      },
      effect: 'approveHours',
    },
  },
  booking: {
    capacityTable: 'volunteer_recruit',
    capacityField: 'recruitId',
    quantityField: 'places',
    releasedAt: [...SIGN_RELEASED],
  },
  access: { read: 'volunteer.sign', write: 'volunteer.sign' },
  order: [['id', 'desc']],
  unique: [{ fields: ['recruitId', 'volunteerId'], message: '该志愿者已报名此招募' }],
  describe: (r) => `${String(r.name ?? '')} 的报名`,
});
