import { defineRecord, f, type StatusOption } from '../define';
import { DEFAULT_HOURS_RULES, type HoursRules } from '../../rules/volunteer-hours';

/**
 * 服务设置 bsVolunteerV2Service (research/records-design.md §3.8; D, `info`/`save`, one row per
 * type 1 成人 / 2 学生). Route /volunteer/stu-service-setting edits type 2; the adult row is read
 * the same way (its page, 预约设置, is the adult volunteers' module). Every number may be left
 * empty: the default in brackets applies (S9, S10, S12), read by `settingsOf`. The thresholds are
 * defaults, not hard rules (settled decision 5).
 */

export const SETTING_TYPES: readonly StatusOption[] = [
  { value: 1, label: '成人' },
  { value: 2, label: '学生' },
];

const weekdays = (v: string) =>
  /^[1-7](,[1-7]){0,6}$/.test(v) ? null : '须为 1–7 的数字，用逗号分隔（1 为周一，7 为周日）';

export const volunteerServiceSetting = defineRecord({
  name: 'volunteerServiceSetting',
  title: '志愿服务设置',
  shape: 'singleton',
  table: 'volunteer_service_setting',
  base: '/v2/bsVolunteerV2Service',
  calls: { list: 'GET list', detail: 'GET detail', load: 'GET info', save: 'POST save' },
  fields: {
    type: f.status('类别', SETTING_TYPES, { required: true, list: true }),
    intro: f.textarea('服务介绍', { max: 2000 }),
    openWeekdays: f.text('开放日', {
      max: 13,
      validate: weekdays,
      placeholder: '2,3,4,5,6,7',
      help: '留空为周二至周日',
    }),
    sessions: f.list(
      '服务时段',
      {
        startTime: f.time('开始时间', { required: true }),
        endTime: f.time('结束时间', { required: true }),
        quota: f.int('名额', { required: true, min: 1, max: 200 }),
      },
      { max: 12, help: '学生志愿者可预约的每日时段' },
    ),
    advanceDays: f.int('可提前预约天数', { min: 1, max: 90, help: '留空为 7' }),
    cancelBeforeHours: f.int('提前取消（小时）', { max: 240, help: '留空为 24' }),
    minAge: f.int('最小年龄', { max: 100, help: '留空为 18' }),
    maxAge: f.int('最大年龄', { max: 100, help: '留空为 65' }),
    traineeHours: f.int('见习转正时长（小时）', { max: 1000, help: '留空为 20' }),
    traineeMonths: f.int('见习期（月）', { max: 24, help: '留空为 2' }),
    annualMinHours: f.int('年度最低服务时长（小时）', { max: 1000, help: '留空为 60' }),
    preDutyTrainingHours: f.int('岗前培训时长（小时）', { max: 1000, help: '留空为 30' }),
    nextHallHours: f.int('再申请展厅讲解时长（小时）', { max: 1000, help: '留空为 20' }),
    hoursUnit: f.int('计时单位（分钟）', {
      min: 1,
      max: 60,
      help: '留空为 30（0.5 小时），时长向下取整到此单位',
    }),
    maxHoursPerDay: f.int('每日最多计时（小时）', { min: 1, max: 24, help: '留空为 8' }),
    earlyMinutes: f.int('可提前签到（分钟）', { max: 240, help: '留空为 30' }),
    lateMinutes: f.int('可延后签退（分钟）', { max: 240, help: '留空为 30' }),
    autoConfirmHours: f.bool('自动确认时长', { help: '开启后签退即计入总时长，不经人工确认' }),
    noShowBlockCount: f.int('缺勤拉黑次数', { max: 100, help: '留空为 3' }),
  },
  singleton: { scope: 'type' },
  // Anyone signed in reads the settings (a volunteer's phone shows the intro and the windows).
  access: { read: null, write: 'volunteer.student.serviceSetting' },
  order: [['type', 'asc']],
  describe: (r) => `${SETTING_TYPES.find((t) => t.value === r.type)?.label ?? ''}志愿服务设置`,
});

/** The settings a server rule reads: the stored row's values, the defaults where empty. */
export interface ServiceSettings extends HoursRules {
  openWeekdays: number[];
  annualMinHours: number;
  autoConfirmHours: boolean;
}

export function settingsOf(row: Record<string, unknown> | undefined): ServiceSettings {
  const n = (k: string, d: number) => (typeof row?.[k] === 'number' ? (row[k] as number) : d);
  const days = typeof row?.openWeekdays === 'string' && row.openWeekdays ? row.openWeekdays : '2,3,4,5,6,7';
  return {
    unitMinutes: n('hoursUnit', DEFAULT_HOURS_RULES.unitMinutes),
    maxMinutes: n('maxHoursPerDay', DEFAULT_HOURS_RULES.maxMinutes / 60) * 60,
    earlyMinutes: n('earlyMinutes', DEFAULT_HOURS_RULES.earlyMinutes),
    lateMinutes: n('lateMinutes', DEFAULT_HOURS_RULES.lateMinutes),
    openWeekdays: days.split(',').map(Number),
    annualMinHours: n('annualMinHours', 60),
    autoConfirmHours: row?.autoConfirmHours === true,
  };
}
