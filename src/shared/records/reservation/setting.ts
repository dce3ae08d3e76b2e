import { defineRecord, f, withField } from '../define';
import { VENUES } from './orders';
import { minutesBetween } from '../../rules/volunteer-hours';

/**
 * 预约设置 AppointSetting and 时段模板 AppointSettingTimes (research/records-design.md §7.1, §7.2;
 * office.md §7 Reservation: `AppointSetting` GET load / POST save, `AppointSettingTimes` GET
 * pageList, load / POST save / DELETE delete). The settings are one row (a singleton without
 * scope); every number may be left empty and the default of §7.1 applies (S1–S7), read by
 * `reservationSettingsOf`, so a museum that never opened 基本信息 books with 国博's rules.
 */

const weekdays = (v: string) =>
  /^[1-7](,[1-7]){0,6}$/.test(v) ? null : '须为 1–7 的数字，用逗号分隔（1 为周一，7 为周日）';

/** A bool field whose form starts checked (the default of §7.1 is "yes"). */
const yes = (label: string, help: string) => withField(f.bool(label, { help }), { initial: true });

export const appointSetting = defineRecord({
  name: 'appointSetting',
  title: '预约设置',
  shape: 'singleton',
  table: 'appoint_setting',
  base: '/AppointSetting',
  // list/detail are the engine's (every record has them); the spec's calls are load and save.
  calls: { list: 'GET list', detail: 'GET detail', load: 'GET load', save: 'POST save' },
  fields: {
    // The hours are required (a form starts from §7.1's); every other number may stay empty.
    openTime: withField(f.time('开馆时间', { required: true }), { initial: '09:00' }),
    lastEntryTime: withField(f.time('停止入馆时间', { required: true }), { initial: '16:00' }),
    closeTime: withField(f.time('闭馆时间', { required: true }), { initial: '17:00' }),
    closedWeekdays: f.text('闭馆日', {
      max: 13,
      validate: weekdays,
      placeholder: '1',
      help: '留空为周一闭馆',
    }),
    specialDates: f.list(
      '特殊日期',
      {
        date: f.date('日期', { required: true }),
        open: f.bool('开放'),
        note: f.text('说明', { max: 50 }),
      },
      { max: 100, help: '节假日照常开放或临时闭馆：开放的闭馆日照常生成场次，不开放的日期不生成' },
    ),
    advanceDays: f.int('可提前预约天数', { min: 1, max: 60, help: '留空为 7' }),
    releaseTime: f.time('放票时间', { help: '留空为 17:00：第 N 天的票在提前 N 天的这一时刻放出' }),
    sameDayCutoffMinutes: f.int('当日预约截止（停止入馆前分钟）', { max: 600, help: '留空为 20' }),
    maxPersonsPerOrder: f.int('每单最多人数', { min: 1, max: 20, help: '留空为 5' }),
    maxMinorsPerOrder: f.int('每单最多未成年人', { max: 20, help: '留空为 3' }),
    minorAge: f.int('需成人陪同年龄（未满）', { min: 1, max: 18, help: '留空为 14' }),
    onePerIdPerDay: yes('每证每日限约一次', '同一证件号同一天只能有一个有效预约'),
    accountMaxBookings30d: f.int('30 天内每个手机号最多预约次数', { max: 100, help: '留空或 0 为不限' }),
    cancelDeadline: f.time('退票截止时间（参观当日）', { help: '留空为 15:00；场次开始后也不能退' }),
    arrivalToleranceMinutes: f.int('到馆容差（分钟）', {
      max: 120,
      help: '留空为 15：场次前后多少分钟内可核销入馆',
    }),
    noShowLimit: f.int('失约次数上限', { min: 1, max: 20, help: '留空为 3' }),
    noShowWindowDays: f.int('失约统计周期（天）', { max: 3650, help: '留空或 0 为不清零' }),
    blockDays: f.int('限制预约天数', { min: 1, max: 3650, help: '留空为 30' }),
    cancelCountsAsNoShow: f.bool('自行取消计为失约', { help: '默认不计' }),
    teamMin: f.int('团队最少人数', { min: 1, max: 500, help: '留空为 10' }),
    teamMax: f.int('团队最多人数', { min: 1, max: 500, help: '留空为 50' }),
    teamMinAdvanceDays: f.int('团队最少提前天数', { max: 60, help: '留空为 1' }),
    teamMinorMax: f.int('未成年人团队最多未成年人', { min: 1, max: 500, help: '留空为 30' }),
    teamAdultMinorRatio: f.int('每名成人最多带未成年人', { min: 1, max: 100, help: '留空为 10' }),
    teamNeedsApproval: yes('团队预约需审核', '关闭后团队预约提交即通过'),
    notice: f.textarea('预约须知', { max: 5000 }),
    teamNotice: f.textarea('团队须知', { max: 5000 }),
  },
  check: (row) => {
    const open = String(row.openTime);
    const last = String(row.lastEntryTime);
    const close = String(row.closeTime);
    if (row.openTime && row.lastEntryTime && !(open < last))
      return { field: 'lastEntryTime', message: '停止入馆时间须晚于开馆时间' };
    if (row.lastEntryTime && row.closeTime && last > close)
      return { field: 'closeTime', message: '闭馆时间不能早于停止入馆时间' };
    if (typeof row.teamMin === 'number' && typeof row.teamMax === 'number' && row.teamMin > row.teamMax)
      return { field: 'teamMax', message: '团队最多人数不能少于最少人数' };
    return null;
  },
  singleton: {},
  // Anyone signed in reads the rules (the gate, the panel); 基本信息's holders write them.
  // One row for both venues: the children's hall's 预约设置 (applet.childrenHall.setting) edits
  // the same rules as 基本信息 (README "Visitor reservations", 儿童体验馆).
  access: { read: null, write: ['order.basicInfo', 'applet.childrenHall.setting'] },
  order: [['id', 'asc']],
  describe: () => '预约设置',
});

/** The settings the rules read: the stored row's values, §7.1's defaults where empty. */
export interface ReservationSettings {
  openTime: string;
  lastEntryTime: string;
  closeTime: string;
  closedWeekdays: number[];
  specialDates: { date: string; open: boolean; note: string }[];
  advanceDays: number;
  releaseTime: string;
  sameDayCutoffMinutes: number;
  maxPersonsPerOrder: number;
  maxMinorsPerOrder: number;
  minorAge: number;
  onePerIdPerDay: boolean;
  accountMaxBookings30d: number;
  cancelDeadline: string;
  arrivalToleranceMinutes: number;
  noShowLimit: number;
  noShowWindowDays: number;
  blockDays: number;
  cancelCountsAsNoShow: boolean;
  teamMin: number;
  teamMax: number;
  teamMinAdvanceDays: number;
  teamMinorMax: number;
  teamAdultMinorRatio: number;
  teamNeedsApproval: boolean;
}

export function reservationSettingsOf(row: Record<string, unknown> | undefined): ReservationSettings {
  const n = (k: string, d: number) => (typeof row?.[k] === 'number' ? (row[k] as number) : d);
  const t = (k: string, d: string) => (typeof row?.[k] === 'string' && row[k] ? (row[k] as string) : d);
  const b = (k: string, d: boolean) => (typeof row?.[k] === 'boolean' ? (row[k] as boolean) : d);
  const closed = typeof row?.closedWeekdays === 'string' ? row.closedWeekdays : '1';
  return {
    openTime: t('openTime', '09:00'),
    lastEntryTime: t('lastEntryTime', '16:00'),
    closeTime: t('closeTime', '17:00'),
    closedWeekdays: closed ? closed.split(',').map(Number) : [],
    specialDates: Array.isArray(row?.specialDates)
      ? (row.specialDates as ReservationSettings['specialDates'])
      : [],
    advanceDays: n('advanceDays', 7),
    releaseTime: t('releaseTime', '17:00'),
    sameDayCutoffMinutes: n('sameDayCutoffMinutes', 20),
    maxPersonsPerOrder: n('maxPersonsPerOrder', 5),
    maxMinorsPerOrder: n('maxMinorsPerOrder', 3),
    minorAge: n('minorAge', 14),
    onePerIdPerDay: b('onePerIdPerDay', true),
    accountMaxBookings30d: n('accountMaxBookings30d', 0),
    cancelDeadline: t('cancelDeadline', '15:00'),
    arrivalToleranceMinutes: n('arrivalToleranceMinutes', 15),
    noShowLimit: n('noShowLimit', 3),
    noShowWindowDays: n('noShowWindowDays', 0),
    blockDays: n('blockDays', 30),
    cancelCountsAsNoShow: b('cancelCountsAsNoShow', false),
    teamMin: n('teamMin', 10),
    teamMax: n('teamMax', 50),
    teamMinAdvanceDays: n('teamMinAdvanceDays', 1),
    teamMinorMax: n('teamMinorMax', 30),
    teamAdultMinorRatio: n('teamAdultMinorRatio', 10),
    teamNeedsApproval: b('teamNeedsApproval', true),
  };
}

/** Whether the museum is open on `date` ('yyyy-MM-dd', weekday 1 Monday … 7 Sunday). */
export function isOpenDay(s: ReservationSettings, date: string, weekday: number): boolean {
  const special = s.specialDates.find((d) => d.date === date);
  if (special) return special.open;
  return !s.closedWeekdays.includes(weekday);
}

export const appointSettingTimes = defineRecord({
  name: 'appointSettingTimes',
  title: '时段模板',
  shape: 'catalog',
  table: 'appoint_setting_times',
  base: '/AppointSettingTimes',
  // The spec's save adds; `update` (ours) changes a template, since the engine keeps the two apart.
  calls: {
    list: 'GET pageList',
    detail: 'GET load',
    create: 'POST save',
    update: 'POST update',
    remove: 'DELETE delete',
  },
  fields: {
    name: f.text('时段名称', { required: true, max: 20, list: true, keyword: true, placeholder: '上午场' }),
    startTime: f.time('开始时间', { required: true, list: true, width: 80 }),
    endTime: f.time('结束时间', { required: true, list: true, width: 80 }),
    capacity: f.int('总名额', { required: true, min: 1, max: 99_999, list: true, width: 80 }),
    teamCapacity: f.int('团队预留名额', {
      max: 99_999,
      list: true,
      width: 100,
      help: '从总名额中留给团队，留空为 0',
    }),
    weekdays: f.text('适用星期', {
      required: true,
      max: 13,
      validate: weekdays,
      list: true,
      placeholder: '2,3,4,5,6,7',
    }),
    validFrom: f.date('生效日期', { list: true, help: '留空为一直有效' }),
    validTo: f.date('失效日期', { list: true }),
    sort: f.int('排序', { help: '越小越靠前' }),
    enabled: f.bool('启用', { list: true, filter: 'eq' }),
    venue: f.status('场馆', VENUES, {
      list: true,
      filter: 'eq',
      initial: 1,
      width: 90,
      help: '儿童体验馆的时段单独生成场次，观众可同一天分别预约主馆和儿童体验馆',
    }),
  },
  check: (row) => {
    if (typeof row.startTime === 'string' && typeof row.endTime === 'string')
      if (minutesBetween(row.startTime, row.endTime) === null)
        return { field: 'endTime', message: '结束时间须晚于开始时间' };
    if (typeof row.teamCapacity === 'number' && typeof row.capacity === 'number')
      if (row.teamCapacity > row.capacity)
        return { field: 'teamCapacity', message: '团队预留名额不能多于总名额' };
    if (typeof row.validFrom === 'string' && typeof row.validTo === 'string' && row.validFrom && row.validTo)
      if (row.validTo < row.validFrom) return { field: 'validTo', message: '失效日期不能早于生效日期' };
    return null;
  },
  rules: [
    {
      // Slots of a shared weekday may not overlap (records-design §7.2): one entry at a time.
      name: 'noOverlappingSlots',
      peers: () => ({}),
      check: (row, peers) => {
        if (!row.enabled || typeof row.startTime !== 'string' || typeof row.endTime !== 'string') return null;
        const days = String(row.weekdays ?? '').split(',');
        for (const p of peers) {
          if (!p.enabled) continue;
          // Each venue has its own day (the children's hall may run beside the museum's slots).
          if (Number(p.venue ?? 1) !== Number(row.venue ?? 1)) continue;
          if (
            !String(p.weekdays ?? '')
              .split(',')
              .some((d) => days.includes(d))
          )
            continue;
          // Seasonal templates (summer and winter hours) may share times when their dates do not meet.
          const from = (x: unknown) => (typeof x === 'string' && x ? x : '0000-00-00');
          const to = (x: unknown) => (typeof x === 'string' && x ? x : '9999-99-99');
          if (to(p.validTo) < from(row.validFrom) || to(row.validTo) < from(p.validFrom)) continue;
          if (String(p.startTime) < row.endTime && row.startTime < String(p.endTime))
            return {
              field: 'startTime',
              message: `与时段“${String(p.name)}”（${String(p.startTime)}–${String(p.endTime)}）在同一星期重叠`,
            };
        }
        return null;
      },
    },
  ],
  access: { read: 'order.timePeriod', write: 'order.timePeriod' },
  order: [
    ['startTime', 'asc'],
    ['id', 'asc'],
  ],
  describe: (r) => `${String(r.name ?? '')} ${String(r.startTime ?? '')}–${String(r.endTime ?? '')}`,
});
