import { defineRecord, f, type StatusOption } from '../define';
import { DEFAULT_HOURS_RULES, minutesBetween } from '../../rules/volunteer-hours';

/**
 * 志愿服务记录 (research/records-design.md §3.3, routes /volunteer/service-list for adults and
 * /volunteer/stu-service for students): the one source of volunteer hours.
 *
 * Rows arrive two ways: a confirmed session check-in writes one (source 场次签到), and a
 * volunteer administrator enters one by hand (活动服务, a reception shift). Either way the minutes
 * are derived from the times (never typed) and only 已确认 rows count toward a volunteer's totals
 * (server/modules/volunteer-service: totals, annual check). The volunteer is named by their
 * account (a user id): the adult and student volunteer records hold that account.
 *
 * Minutes, not decimal hours, are stored: exact integers on SQLite and PostgreSQL alike; the
 * UI shows 1.5 小时. A hand entry counts in the default unit (30 minutes, at most 8 hours a day);
 * check-ins count in the museum's configured unit (bsVolunteerV2Service).
 */

export const SERVICE_RECORD_STATES: readonly StatusOption[] = [
  { value: 0, label: '待确认', color: 'orange' },
  { value: 1, label: '已确认', color: 'green' },
  { value: 2, label: '已驳回', color: 'red' },
];
export const SERVICE_PENDING = 0;
export const SERVICE_CONFIRMED = 1;
export const SERVICE_REJECTED = 2;

export const VOLUNTEER_KINDS: readonly StatusOption[] = [
  { value: 1, label: '成人' },
  { value: 2, label: '学生' },
];

export const SERVICE_TYPES: readonly StatusOption[] = [
  { value: 1, label: '接待讲解' },
  { value: 2, label: '预约讲解' },
  { value: 3, label: '活动服务' },
  { value: 4, label: '展览场次讲解' },
  { value: 5, label: '其他' },
];
export const SERVICE_TYPE_SESSION = 4;

/** A hand entry's counted minutes: whole 30-minute units, at most 8 hours. */
export function manualMinutes(startTime: unknown, endTime: unknown): number {
  if (typeof startTime !== 'string' || typeof endTime !== 'string') return 0;
  const m = minutesBetween(startTime, endTime) ?? 0;
  const { unitMinutes, maxMinutes } = DEFAULT_HOURS_RULES;
  return Math.min(Math.floor(m / unitMinutes) * unitMinutes, maxMinutes);
}

export const serviceRecord = defineRecord({
  name: 'serviceRecord',
  title: '志愿服务记录',
  shape: 'pipeline',
  table: 'volunteer_service_record',
  base: '/v2/serviceRecord',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
    export: 'GET export',
  },
  fields: {
    volunteerId: f.user('志愿者', { required: true, list: true, filter: 'eq', width: 110 }),
    volunteerKind: f.status('志愿者类别', VOLUNTEER_KINDS, {
      required: true,
      list: true,
      filter: 'eq',
      width: 90,
    }),
    serviceType: f.status('服务类型', SERVICE_TYPES, {
      required: true,
      list: true,
      filter: 'eq',
      width: 110,
    }),
    serviceDate: f.date('服务日期', { required: true, list: true, filter: 'range', width: 110 }),
    startTime: f.time('开始时间', { required: true, list: true, width: 80 }),
    endTime: f.time('结束时间', { required: true, list: true, width: 80 }),
    serviceMinutes: f.int('服务时长（分钟）', {
      form: false,
      list: true,
      width: 110,
      help: '由起止时间计算，按 30 分钟计，每天最多 8 小时',
    }),
    content: f.text('服务内容', { required: true, max: 500, list: true, keyword: true, width: 200 }),
    location: f.text('服务地点', { max: 100, keyword: true }),
    audienceCount: f.int('服务人数', { max: 100_000 }),
    sourceTable: f.text('来源', { form: false, max: 50 }),
    sourceId: f.int('来源编号', { form: false }),
    status: f.status('状态', SERVICE_RECORD_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: SERVICE_PENDING,
      width: 90,
    }),
    confirmBy: f.user('确认人', { form: false }),
    confirmTime: f.datetime('确认时间', { form: false }),
    rejectReason: f.textarea('驳回原因', { form: false, max: 200 }),
  },
  status: { field: 'status' },
  transitions: {
    confirm: {
      label: '确认',
      from: [SERVICE_PENDING],
      to: SERVICE_CONFIRMED,
      set: (_row, _input, now) => ({ confirmTime: now }),
      effect: 'confirmed',
      confirm: '确认后这段时长计入该志愿者的服务总时长。',
    },
    reject: {
      label: '驳回',
      from: [SERVICE_PENDING],
      to: SERVICE_REJECTED,
      input: { reason: f.textarea('驳回原因', { required: true, max: 200 }) },
      set: (_row, input) => ({ rejectReason: input.reason }),
      danger: true,
    },
  },
  derive: (row) => ({ serviceMinutes: manualMinutes(row.startTime, row.endTime) }),
  check: (row) => {
    if (typeof row.startTime !== 'string' || typeof row.endTime !== 'string') return null;
    const m = minutesBetween(row.startTime, row.endTime);
    if (m === null) return { field: 'endTime', message: '结束时间须晚于开始时间' };
    if (m > DEFAULT_HOURS_RULES.maxMinutes)
      return { field: 'endTime', message: '一天的服务时长不能超过 8 小时（只计实际服务时间）' };
    if (m < DEFAULT_HOURS_RULES.unitMinutes)
      return { field: 'endTime', message: '服务时长不足 30 分钟（最小计时单位），无法计入' };
    return null;
  },
  canUpdate: (before) =>
    before.status === SERVICE_PENDING
      ? null
      : { field: 'content', message: '已确认或已驳回的服务记录不能修改' },
  canDelete: (row) =>
    row.status === SERVICE_CONFIRMED ? '已确认的服务记录不能删除，它已计入服务时长' : null,
  access: { read: 'volunteer.social.serviceList', write: 'volunteer.social.serviceList' },
  order: [
    ['serviceDate', 'desc'],
    ['startTime', 'desc'],
    ['id', 'desc'],
  ],
  importable: true,
  describe: (r) => `${String(r.serviceDate ?? '')} ${String(r.content ?? '')}`.trim(),
});
