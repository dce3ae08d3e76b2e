import { defineRecord, f, type Field, type FieldProblem, type PeerRule, type StatusOption } from '../define';
import { idCardBirthDate, idCardProblem, mobileProblem, phoneProblem } from '../validators';

/**
 * Volunteers' people (records-design §3.1, §3.2, §3.4, §3.8; README "Volunteers"): applications,
 * adult and student volunteers, school groups and service groups. Calls under
 * /singleMuseum/v2/…, the spec's names and methods (office.md §7 "Volunteers (/v2)").
 *
 * The spec's one-call-two-outcomes calls (interviewResult pass/fail, block and lift) are
 * served by hand-written routes (server/modules/volunteer) that pick one of the engine
 * transitions below, so each outcome keeps its own guard, status log and stale-status refusal.
 */

export const APPLICATION_STATES: readonly StatusOption[] = [
  { value: 0, label: '待审核', color: 'orange' },
  { value: 1, label: '待面试', color: 'blue' },
  { value: 2, label: '面试通过', color: 'green' },
  { value: 3, label: '未通过', color: 'red' },
  { value: 4, label: '已撤回', color: 'gray' },
];
export const ADULT_STATES: readonly StatusOption[] = [
  { value: 1, label: '见习', color: 'blue' },
  { value: 2, label: '正式', color: 'green' },
  { value: 3, label: '已退出', color: 'gray' },
  { value: 9, label: '已停用', color: 'red' },
];
/**
 * No-shows (a recruit's 缺席, a session's 缺勤) after which the administrators are told to
 * consider 停用 and the adult list shows the volunteer under 建议停用. An offer, never a block.
 */
export const NO_SHOW_LIMIT = 3;

/** 可服务时间's choices (records-design §3.1 availableTimes), a multiple choice. */
export const AVAILABLE_TIMES = ['工作日上午', '工作日下午', '周末上午', '周末下午', '节假日'] as const;

export const KIND_OPTIONS: readonly StatusOption[] = [
  { value: 1, label: '社会(成人)' },
  { value: 2, label: '学生' },
];
const GENDERS: readonly StatusOption[] = [
  { value: 1, label: '男' },
  { value: 2, label: '女' },
];
/** records-design §1 idType. */
export const ID_TYPES: readonly StatusOption[] = [
  { value: 1, label: '居民身份证' },
  { value: 2, label: '护照' },
  { value: 3, label: '港澳居民来往内地通行证' },
  { value: 4, label: '台湾居民来往大陆通行证' },
  { value: 5, label: '港澳台居民居住证' },
  { value: 6, label: '外国人永久居留身份证' },
];
const OCCUPATIONS: readonly StatusOption[] = [
  { value: 1, label: '在职' },
  { value: 2, label: '退休' },
  { value: 3, label: '学生' },
  { value: 4, label: '其他' },
];

/** Han or Latin letters, spaces and the middle dot of minority and foreign names, 2–30 chars. */
const NAME_RE = /^[\p{Script=Han}A-Za-z·• .]{2,30}$/u;
const nameProblem = (v: string) => (NAME_RE.test(v) ? null : '须为 2–30 个汉字或字母（可含 ·）');

/** Whole years between a 'yyyy-MM-dd' birth date and today (museum day). */
export function ageOn(birthDate: string, today: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}
const todayStr = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

/** The person's fields every volunteer record shares (copied from the application on a pass). */
const person = (o: { idRequired: boolean }): Record<string, Field> => ({
  name: f.text('姓名', {
    required: true,
    max: 30,
    validate: nameProblem,
    list: true,
    keyword: true,
    width: 100,
  }),
  gender: f.status('性别', GENDERS, { required: true, list: true, filter: 'eq', width: 70 }),
  birthDate: f.date('出生日期', { required: true, filter: 'range' }),
  idType: f.status('证件类型', ID_TYPES, { required: o.idRequired, initial: 1 }),
  idNumber: f.text('证件号码', {
    required: o.idRequired,
    max: 30,
    list: true,
    keyword: true,
    mask: 'idNumber',
    width: 170,
  }),
});

/**
 * The ID number's checks across fields: a resident ID (idType 1) has GB 11643's check digit
 * and the birth date written in it; the phone-less guardian rule for minors.
 */
function personCheck(row: Record<string, unknown>): FieldProblem | null {
  const id = typeof row.idNumber === 'string' ? row.idNumber : '';
  if (id && (row.idType ?? 1) === 1) {
    const p = idCardProblem(id);
    if (p) return { field: 'idNumber', message: `证件号码${p}` };
    const born = idCardBirthDate(id);
    if (born && row.birthDate && born !== row.birthDate)
      return { field: 'birthDate', message: `出生日期与身份证号不一致（身份证为 ${born}）` };
  }
  if (typeof row.birthDate === 'string' && row.birthDate > todayStr())
    return { field: 'birthDate', message: '出生日期不能晚于今天' };
  if (typeof row.birthDate === 'string' && ageOn(row.birthDate, todayStr()) < 18) {
    if (!row.guardianName) return { field: 'guardianName', message: '未满 18 岁须填写监护人' };
    if (!row.guardianPhone) return { field: 'guardianPhone', message: '未满 18 岁须填写监护人电话' };
  }
  return null;
}

/**
 * One open application per person (records-design §3.1): another 待审核 or 待面试 application
 * with the same ID number is refused at the field. (A person already on the roll is refused when
 * the interview passes, see server/modules/volunteer.)
 */
export const oneOpenApplication: PeerRule = {
  name: 'oneOpenApplication',
  peers: (row) => ({ idNumber: [row.idNumber], status: [0, 1] }),
  check: (row, peers) =>
    row.idNumber && peers.length
      ? { field: 'idNumber', message: '该证件号已有一份待审核或待面试的申请，请勿重复提交' }
      : null,
};

/** 服务组 (records-design §3.8): seeded with the posts of DB51/T 2990-2023 by migration 0027. */
export const volunteerGroup = defineRecord({
  name: 'volunteerGroup',
  title: '服务组',
  shape: 'catalog',
  table: 'volunteer_group',
  base: '/v2/bsVolunteerV2Group',
  calls: {
    list: 'GET list',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
  },
  fields: {
    name: f.text('服务组名称', { required: true, max: 30, list: true, keyword: true }),
    staffOwnerId: f.user('馆内负责人', { list: true }),
    description: f.textarea('说明', { max: 500 }),
    sort: f.int('排序', { min: 0, max: 99_999, initial: 9999, help: '数字小的排在前面' }),
    status: f.status(
      '状态',
      [
        { value: 1, label: '启用', color: 'green' },
        { value: 0, label: '停用', color: 'gray' },
      ],
      { required: true, list: true, filter: 'eq', initial: 1 },
    ),
  },
  access: { read: null, write: 'volunteer.social.adultVolunteer' },
  order: [
    ['sort', 'asc'],
    ['id', 'asc'],
  ],
  unique: [{ fields: ['name'], message: '已有同名的服务组' }],
  describe: (r) => String(r.name ?? ''),
});

/** 志愿者申请表 (records-design §3.1). Routes register-list (type 1), stu-register-list (type 2), application-review. */
export const volunteerApplication = defineRecord({
  name: 'volunteerApplication',
  title: '志愿者申请',
  shape: 'pipeline',
  table: 'volunteer_application',
  base: '/v2/bsVolunteerV2ApplicationForm',
  calls: { list: 'GET pageList', detail: 'GET detail', create: 'POST save' },
  fields: {
    type: f.status('类型', KIND_OPTIONS, { required: true, list: true, filter: 'eq', width: 100 }),
    ...person({ idRequired: true }),
    phone: f.text('手机', {
      required: true,
      max: 11,
      validate: mobileProblem,
      list: true,
      keyword: true,
      mask: 'phone',
      width: 130,
    }),
    politicalStatus: f.text('政治面貌', { max: 20 }),
    education: f.text('学历', { max: 20 }),
    workUnit: f.text('工作单位/学校', { max: 100 }),
    occupation: f.status('职业状态', OCCUPATIONS, {}),
    address: f.text('通讯地址', { max: 200 }),
    emergencyName: f.text('紧急联系人', { max: 30 }),
    emergencyPhone: f.text('紧急联系人电话', { max: 30, validate: phoneProblem }),
    guardianName: f.text('监护人', { max: 30 }),
    guardianPhone: f.text('监护人电话', { max: 30, validate: phoneProblem }),
    grade: f.text('年级', { max: 20 }),
    className: f.text('班级', { max: 20 }),
    // Several groups (records-design §3.1); the applet's older one `groupId` still reads as one group.
    groupIds: f.refs('意向服务组', 'volunteerGroup', {
      by: 'name',
      required: true,
      list: true,
      filter: 'contains',
      active: { field: 'status', value: 1 },
      alias: 'groupId',
      max: 10,
      width: 160,
    }),
    availableTimes: f.text('可服务时间', {
      required: true,
      max: 100,
      choices: AVAILABLE_TIMES,
      help: '可多选',
    }),
    specialties: f.text('特长', { max: 200, help: '外语、手语、摄影等' }),
    experience: f.textarea('服务经历', { max: 1000 }),
    status: f.status('状态', APPLICATION_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: 0,
      width: 90,
    }),
    interviewTime: f.datetime('面试时间', { form: false, list: true, filter: 'range', width: 150 }),
    interviewPlace: f.text('面试地点', { form: false, max: 100 }),
    interviewer: f.user('面试官', { form: false }),
    interviewScore: f.int('面试成绩', { form: false, max: 100 }),
    interviewComment: f.textarea('面试意见', { form: false, max: 500 }),
    volunteerId: f.int('对应志愿者', { form: false }),
  },
  check: (row) => {
    if (row.type === 2 && !row.workUnit) return { field: 'workUnit', message: '学生须填写学校' };
    if (row.type === 1) {
      if (typeof row.birthDate === 'string') {
        const age = ageOn(row.birthDate, todayStr());
        if (age < 18 || age > 65)
          return { field: 'birthDate', message: `社会志愿者年龄须在 18–65 岁之间（现为 ${age} 岁）` };
      }
      if (!row.emergencyName) return { field: 'emergencyName', message: '请填写紧急联系人' };
      if (!row.emergencyPhone) return { field: 'emergencyPhone', message: '请填写紧急联系人电话' };
    }
    return personCheck(row);
  },
  rules: [oneOpenApplication],
  status: { field: 'status' },
  transitions: {
    sendInterview: {
      label: '安排面试',
      call: 'GET sendInterview',
      from: [0, 1],
      to: 1,
      input: {
        interviewTime: f.datetime('面试时间', { required: true }),
        interviewPlace: f.text('面试地点', { required: true, max: 100 }),
        interviewer: f.user('面试官'),
      },
      guard: (_row, input) =>
        typeof input.interviewTime === 'number' && input.interviewTime <= Date.now()
          ? '面试时间须晚于现在'
          : null,
      set: (_row, input) => ({
        interviewTime: input.interviewTime,
        interviewPlace: input.interviewPlace,
        interviewer: input.interviewer ?? null,
      }),
      effect: 'interviewNotice',
    },
    interviewPass: {
      label: '面试通过',
      from: [1],
      to: 2,
      input: {
        interviewScore: f.int('面试成绩', { required: true, max: 100 }),
        comment: f.textarea('面试意见', { max: 500 }),
      },
      set: (_row, input) => ({ interviewScore: input.interviewScore, interviewComment: input.comment ?? '' }),
      effect: 'createVolunteer',
      confirm: '通过后将建立志愿者档案（社会志愿者为见习并编号），确定吗？',
    },
    interviewFail: {
      label: '不通过',
      from: [0, 1],
      to: 3,
      input: {
        interviewScore: f.int('面试成绩', { max: 100 }),
        comment: f.textarea('不通过原因', { required: true, max: 500 }),
      },
      set: (_row, input) => ({
        interviewScore: input.interviewScore ?? null,
        interviewComment: input.comment,
      }),
      effect: 'resultNotice',
      danger: true,
    },
  },
  createdFilter: '提交时间',
  access: { read: 'volunteer.applicationReview', write: 'volunteer.applicationReview' },
  order: [['id', 'desc']],
  describe: (r) => `${String(r.name ?? '')} 的志愿者申请`,
});

/** 社会志愿者 (records-design §3.2): rows come from a passed interview, never typed in. */
export const adultVolunteer = defineRecord({
  name: 'adultVolunteer',
  title: '社会志愿者',
  shape: 'pipeline',
  table: 'volunteer_adult',
  base: '/v2/bsVolunteerV2Adult',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    update: 'POST update',
    remove: 'GET deleteAdult',
    export: 'GET export',
  },
  fields: {
    volunteerNo: f.text('志愿者编号', { form: false, max: 20, list: true, keyword: true, width: 110 }),
    ...person({ idRequired: true }),
    phone: f.text('手机', {
      required: true,
      max: 11,
      validate: mobileProblem,
      list: true,
      keyword: true,
      mask: 'phone',
      width: 130,
    }),
    groupId: f.ref('服务组', 'volunteerGroup', { by: 'name', required: true, list: true, filter: 'eq' }),
    workUnit: f.text('工作单位', { max: 100 }),
    address: f.text('通讯地址', { max: 200 }),
    emergencyName: f.text('紧急联系人', { required: true, max: 30 }),
    emergencyPhone: f.text('紧急联系人电话', { required: true, max: 30, validate: phoneProblem }),
    guardianName: f.text('监护人', { max: 30 }),
    guardianPhone: f.text('监护人电话', { max: 30, validate: phoneProblem }),
    specialties: f.text('特长', { max: 200 }),
    appointable: f.bool('可预约讲解', { list: true, filter: 'eq' }),
    userId: f.user('登录账号', { form: false }),
    joinDate: f.date('见习开始', { form: false, list: true, filter: 'range', width: 110 }),
    regularDate: f.date('转正日期', { form: false }),
    status: f.status('状态', ADULT_STATES, { form: false, list: true, filter: 'eq', initial: 1, width: 80 }),
    prevStatus: f.int('停用前状态', { form: false }),
    blockReason: f.text('停用原因', { form: false, max: 200 }),
    exitReason: f.text('退出原因', { form: false, max: 200 }),
    regularReason: f.text('破格转正原因', { form: false, max: 200 }),
    // 缺席次数 ≥ 3 is the list's 建议停用 tab (noShowCountFrom=3): an offer, never a block.
    noShowCount: f.int('缺席次数', { form: false, initial: 0, list: true, filter: 'range', width: 90 }),
    applicationId: f.int('来源申请', { form: false }),
  },
  check: personCheck,
  status: { field: 'status' },
  transitions: {
    becomeRegularWorker: {
      label: '转正',
      call: 'GET becomeRegularWorker',
      from: [1],
      to: 2,
      input: {
        reason: f.textarea('破格转正原因', {
          max: 200,
          help: '见习时长或月数未达标时必填；达标时可不填',
        }),
      },
      effect: 'regular',
    },
    block: {
      label: '停用',
      // The spec's GET block (with lift) is hand-written and dispatches here.
      call: 'POST blockVolunteer',
      from: [1, 2],
      to: 9,
      input: { reason: f.textarea('停用原因', { required: true, max: 200 }) },
      set: (row, input) => ({ prevStatus: row.status, blockReason: input.reason }),
      danger: true,
    },
    liftTrainee: {
      label: '解除停用',
      from: [9],
      to: 1,
      guard: (row) => (row.prevStatus === 2 ? '该志愿者停用前为正式志愿者，请用解除停用（恢复正式）' : null),
    },
    liftRegular: {
      label: '解除停用（恢复正式）',
      from: [9],
      to: 2,
      guard: (row) => (row.prevStatus === 2 ? null : '该志愿者停用前为见习志愿者，请用解除停用'),
    },
    exit: {
      label: '退出',
      from: [1, 2],
      to: 3,
      input: { reason: f.textarea('退出原因', { required: true, max: 200 }) },
      set: (_row, input) => ({ exitReason: input.reason }),
      danger: true,
    },
  },
  // Hours are derived from service records, never a column: volunteer service answers these.
  virtualFilters: {
    yearHours: f.int('本年度服务时长（小时）', { filter: 'range', max: 10_000 }),
    belowMinimum: f.bool('本年度未达标', { filter: 'eq' }),
  },
  access: { read: 'volunteer.social.adultVolunteer', write: 'volunteer.social.adultVolunteer' },
  order: [['id', 'desc']],
  unique: [{ fields: ['volunteerNo'], message: '志愿者编号已被使用' }],
  describe: (r) => `${String(r.name ?? '')}（${String(r.volunteerNo ?? '')}）`,
});

export const STUDENT_STATES: readonly StatusOption[] = [
  { value: 1, label: '在册', color: 'green' },
  { value: 2, label: '已退出', color: 'gray' },
  { value: 9, label: '已停用', color: 'red' },
];

/** 学校团体 (records-design §3.4): filled in on the mini-program, read-only here. */
export const schoolGroup = defineRecord({
  name: 'schoolGroup',
  title: '学校团体',
  shape: 'catalog',
  table: 'volunteer_school_group',
  base: '/v2/bsVolunteerV2Schoolgroup',
  calls: { list: 'GET pageList', detail: 'GET detail' },
  fields: {
    schoolName: f.text('学校名称', { required: true, max: 100, list: true, keyword: true }),
    schoolType: f.status(
      '学校类型',
      [
        { value: 1, label: '小学' },
        { value: 2, label: '初中' },
        { value: 3, label: '高中' },
        { value: 4, label: '中职' },
        { value: 5, label: '高校' },
      ],
      { required: true, list: true, filter: 'eq' },
    ),
    contactTeacher: f.text('联系老师', { required: true, max: 30, list: true, keyword: true }),
    teacherPhone: f.text('老师电话', {
      required: true,
      max: 30,
      validate: phoneProblem,
      list: true,
      mask: 'phone',
    }),
    address: f.text('地址', { max: 200 }),
    studentCount: f.int('学生人数', { max: 10_000, list: true }),
    grades: f.text('年级', { max: 50 }),
    remark: f.textarea('备注', { max: 500 }),
    status: f.status(
      '状态',
      [
        { value: 1, label: '有效', color: 'green' },
        { value: 0, label: '停用', color: 'gray' },
      ],
      { list: true, filter: 'eq', initial: 1 },
    ),
  },
  access: { read: 'volunteer.student.schoolGroup', write: 'volunteer.student.schoolGroup' },
  order: [['id', 'desc']],
  describe: (r) => String(r.schoolName ?? ''),
});

/** 学生志愿者 and 小小讲解员 (records-design §3.4): one record, `category` 1 or 2. */
export const studentVolunteer = defineRecord({
  name: 'studentVolunteer',
  title: '学生志愿者',
  shape: 'catalog',
  table: 'volunteer_student',
  base: '/v2/bsVolunteerV2Student',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
    export: 'POST export',
  },
  fields: {
    studentNo: f.text('学生编号', { required: true, max: 20, list: true, keyword: true, width: 110 }),
    category: f.status(
      '类别',
      [
        { value: 1, label: '学生志愿者' },
        { value: 2, label: '小小讲解员' },
      ],
      { required: true, list: true, filter: 'eq', initial: 1 },
    ),
    ...person({ idRequired: false }),
    school: f.text('学校', { required: true, max: 100, list: true, keyword: true }),
    grade: f.text('年级', { max: 20, list: true }),
    className: f.text('班级', { max: 20 }),
    schoolGroupId: f.ref('学校团体', 'schoolGroup', { by: 'schoolName', filter: 'eq' }),
    guardianName: f.text('监护人', { max: 30 }),
    guardianPhone: f.text('监护人电话', { max: 30, validate: phoneProblem, mask: 'phone' }),
    phone: f.text('手机', { max: 11, validate: mobileProblem, mask: 'phone' }),
    groupId: f.ref('服务组', 'volunteerGroup', { by: 'name', filter: 'eq' }),
    status: f.status('状态', STUDENT_STATES, { required: true, list: true, filter: 'eq', initial: 1 }),
    remark: f.textarea('备注', { max: 500 }),
  },
  check: personCheck,
  access: { read: 'volunteer.student.stuVolunteer', write: 'volunteer.student.stuVolunteer' },
  order: [['id', 'desc']],
  unique: [{ fields: ['studentNo'], message: '学生编号已被使用' }],
  describe: (r) => `${String(r.name ?? '')}（${String(r.school ?? '')}）`,
});
