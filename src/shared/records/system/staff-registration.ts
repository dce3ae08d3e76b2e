import { defineRecord, f, type StatusOption } from '../define';
import { mobileProblem } from '../validators';

/**
 * 人员审核 (/staff/person/pending): registrations made on the public page /register (README
 * "Self-registration and pending staff"; calls of the page itself in shared/api/registration.ts).
 *
 * A pipeline: 0 待审核 → 1 已通过 (通过, choosing the roles: the effect `createAccount` makes the
 * account — the phone as its login, enabled, in the chosen department, with the password the
 * person registered with — in the same transaction) or → 2 已拒绝 (拒绝, with a reason the
 * person reads when they try to sign in). Both are engine transitions: a stale one answers
 * 状态已变化，请刷新, each writes bsStatusLog, the detail's timeline.
 *
 * Rows are made only by the public call (no create, update or delete call): a registration is
 * what the newcomer said, kept as they said it. The stored password hash is a column of the
 * table, never a field, so no answer carries it.
 *
 * Calls (ours; the spec shows only the page): /singleMuseum/sysUserPending/pageList, detail,
 * approve, refuse, and count (the side menu's badge).
 */

export const REGISTRATION_STATES: readonly StatusOption[] = [
  { value: 0, label: '待审核', color: 'orange' },
  { value: 1, label: '已通过', color: 'green' },
  { value: 2, label: '已拒绝', color: 'red' },
];
export const REGISTRATION_PENDING = 0;
export const REGISTRATION_APPROVED = 1;
export const REGISTRATION_REFUSED = 2;

export const staffRegistration = defineRecord({
  name: 'staffRegistration',
  title: '注册申请',
  shape: 'pipeline',
  table: 'staff_registration',
  base: '/sysUserPending',
  calls: { list: 'GET pageList', detail: 'GET detail' },
  fields: {
    userName: f.text('姓名', { required: true, max: 30, list: true, keyword: true, width: 110 }),
    phone: f.text('手机号', {
      required: true,
      max: 11,
      validate: mobileProblem,
      list: true,
      keyword: true,
      mask: 'phone',
      width: 130,
    }),
    deptId: f.dept('部门', { required: true, list: true, filter: 'eq', width: 150 }),
    remark: f.textarea('申请说明', { max: 200 }),
    applyTime: f.datetime('申请时间', { form: false, list: true, filter: 'range', width: 150 }),
    status: f.status('状态', REGISTRATION_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: REGISTRATION_PENDING,
      width: 90,
    }),
    applyIp: f.text('注册地址', { form: false, max: 64 }),
    userId: f.user('开通的账号', { form: false }),
    grantedRoles: f.text('授予角色', { form: false, max: 300 }),
    refuseReason: f.textarea('拒绝理由', { form: false, max: 200 }),
  },
  status: { field: 'status' },
  transitions: {
    approve: {
      label: '通过',
      from: [REGISTRATION_PENDING],
      to: REGISTRATION_APPROVED,
      input: {
        roleIds: f.roles('授予角色', {
          required: true,
          help: '通过后即开通账号：以手机号登录，密码为其注册时设置的密码',
        }),
      },
      effect: 'createAccount',
      confirm: '请选择要授予的角色。通过后将开通账号，对方即可用手机号和注册时设置的密码登录。',
    },
    refuse: {
      label: '拒绝',
      from: [REGISTRATION_PENDING],
      to: REGISTRATION_REFUSED,
      input: { reason: f.textarea('拒绝理由', { required: true, max: 200, help: '对方登录时会看到此理由' }) },
      set: (_row, input) => ({ refuseReason: input.reason }),
      effect: 'refused',
      danger: true,
    },
  },
  access: { read: 'system.personPending', write: 'system.personPending' },
  order: [
    ['applyTime', 'desc'],
    ['id', 'desc'],
  ],
  describe: (r) => `${String(r.userName ?? '')} 的注册申请`,
});
