import { defineRecord, f, type StatusOption } from '../define';
import { minutesBetween } from '../../rules/volunteer-hours';

/**
 * 服务预约 (/volunteer/stu-service-appoint; research/records-design.md §2 C "student service
 * appointments"): students book places in the museum's service time slots. A slot is a capacity
 * row (`total`, `used`, `open`); a booking takes `persons` places in one conditional UPDATE
 * inside its insert (never over the slot's places, on SQLite or PostgreSQL) and gives them back
 * when cancelled. The student is named by their account (a user id). Slots are added by hand or
 * imported from the template (the daily times of 服务设置 type 2 are the guide).
 */

export const studentServiceSlot = defineRecord({
  name: 'studentServiceSlot',
  title: '学生服务时段',
  shape: 'catalog',
  table: 'volunteer_student_slot',
  base: '/v2/stuServiceSlot',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
    export: 'GET export',
  },
  fields: {
    serviceDate: f.date('日期', { required: true, list: true, filter: 'range', width: 110 }),
    startTime: f.time('开始时间', { required: true, list: true, width: 80 }),
    endTime: f.time('结束时间', { required: true, list: true, width: 80 }),
    total: f.int('名额', { required: true, min: 1, max: 500, list: true, width: 70 }),
    used: f.int('已预约', { form: false, list: true, initial: 0, width: 70 }),
    open: f.bool('开放预约', { list: true, width: 80 }),
  },
  unique: [{ fields: ['serviceDate', 'startTime'], message: '这一天的这个时段已存在' }],
  check: (row) =>
    typeof row.startTime === 'string' &&
    typeof row.endTime === 'string' &&
    minutesBetween(row.startTime, row.endTime) === null
      ? { field: 'endTime', message: '结束时间须晚于开始时间' }
      : null,
  canUpdate: (before, after) =>
    typeof after.total === 'number' && after.total < Number(before.used ?? 0)
      ? { field: 'total', message: `名额不能少于已预约的 ${String(before.used)} 人` }
      : null,
  access: { read: 'volunteer.student.serviceAppoint', write: 'volunteer.student.serviceAppoint' },
  order: [
    ['serviceDate', 'asc'],
    ['startTime', 'asc'],
  ],
  importable: true,
  describe: (r) => `${String(r.serviceDate ?? '')} ${String(r.startTime ?? '')}–${String(r.endTime ?? '')}`,
});

export const APPOINT_STATES: readonly StatusOption[] = [
  { value: 0, label: '已预约', color: 'blue' },
  { value: 1, label: '已到', color: 'green' },
  { value: 2, label: '缺席', color: 'red' },
  { value: 3, label: '已取消', color: 'gray' },
];

export const studentServiceAppoint = defineRecord({
  name: 'studentServiceAppoint',
  title: '学生服务预约',
  shape: 'booking',
  table: 'volunteer_student_appoint',
  base: '/v2/stuServiceAppoint',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST save',
    remove: 'GET delete',
    export: 'GET export',
  },
  fields: {
    slotId: f.ref('服务时段', 'studentServiceSlot', {
      by: 'serviceDate',
      required: true,
      list: true,
      filter: 'eq',
      width: 110,
    }),
    volunteerId: f.user('学生志愿者', { required: true, list: true, filter: 'eq', width: 110 }),
    persons: f.int('人数', { required: true, min: 1, max: 50, list: true, width: 60 }),
    remark: f.textarea('备注', { max: 200 }),
    status: f.status('状态', APPOINT_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: 0,
      width: 80,
    }),
    cancelReason: f.textarea('取消原因', { form: false, max: 200 }),
  },
  status: { field: 'status' },
  transitions: {
    bePresent: { label: '已到', from: [0], to: 1 },
    notPresent: { label: '缺席', from: [0], to: 2, danger: true },
    cancel: {
      label: '取消预约',
      from: [0],
      to: 3,
      input: { reason: f.textarea('取消原因', { required: true, max: 200 }) },
      set: (_row, input) => ({ cancelReason: input.reason }),
      danger: true,
      confirm: '取消后名额退回该时段。',
    },
  },
  booking: {
    capacityTable: 'volunteer_student_slot',
    capacityField: 'slotId',
    quantityField: 'persons',
    releasedAt: [3],
  },
  access: { read: 'volunteer.student.serviceAppoint', write: 'volunteer.student.serviceAppoint' },
  order: [['id', 'desc']],
  describe: (r) => `预约 ${String(r.persons ?? '')} 人`,
});
