import { z } from 'zod';
import { addRecordLabels } from '../../api/labels';
import { defineRecord, f } from '../define';
import { DICT_KEY_RE } from '../dictionaries';

/**
 * 数据字典 (research/records-design.md §8; /staff/data): the lists every enum field of every
 * record draws its options from. Two records: a dictionary (its key and name) and its items
 * (label, value, a parent value for trees, sort, enabled). Seeded items are system items: they
 * can be renamed, re-sorted and disabled, never deleted, and their value never changes, since
 * stored records hold it. Everyone reads (collectDict/getSelectDataByKey, getSelectDataByArr);
 * 数据字典's grant writes.
 */

export const dictType = defineRecord({
  name: 'dictType',
  title: '字典',
  shape: 'catalog',
  table: 'dict_type',
  base: '/collectDict',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
  },
  fields: {
    dictKey: f.text('字典键', {
      required: true,
      max: 50,
      list: true,
      keyword: true,
      validate: (v) =>
        DICT_KEY_RE.test(v) ? null : '须以小写字母开头，由 2–50 位字母、数字或下划线组成（如 relic_level）',
    }),
    dictName: f.text('字典名称', { required: true, max: 50, list: true, keyword: true }),
    remark: f.textarea('说明', { max: 200, list: true }),
    isSystem: f.bool('系统内置', { form: false, list: true, width: 90 }),
  },
  access: { read: 'system.data', write: 'system.data' },
  order: [['id', 'asc']],
  unique: [{ fields: ['dictKey'], message: '已有相同字典键的字典' }],
  canDelete: (row) => (row.isSystem ? '系统内置字典不能删除' : null),
  canUpdate: (before, after) =>
    after.dictKey !== before.dictKey
      ? { field: 'dictKey', message: '字典键创建后不能修改（已保存的数据引用它）' }
      : null,
  describe: (r) => `${String(r.dictName)}（${String(r.dictKey)}）`,
});

export const DICT_ITEM_STATES = [
  { value: 1, label: '启用', color: 'green' },
  { value: 0, label: '停用', color: 'gray' },
] as const;

export const dictItem = defineRecord({
  name: 'dictItem',
  title: '字典项',
  shape: 'catalog',
  table: 'dict_item',
  base: '/collectDictItem',
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
    dictKey: f.text('所属字典', { required: true, max: 50, filter: 'eq' }),
    label: f.text('名称', { required: true, max: 50, list: true, keyword: true }),
    value: f.text('值', {
      required: true,
      max: 50,
      list: true,
      width: 100,
      validate: (v) => (/^[A-Za-z0-9_.-]+$/.test(v) ? null : '只能由字母、数字或 _ . - 组成'),
    }),
    parentValue: f.text('上级值', {
      max: 50,
      list: true,
      width: 90,
      help: '树形字典（如质地）填写上级项的值',
    }),
    sort: f.int('排序', { max: 9999, list: true, width: 70, help: '数字小的排在前面' }),
    status: f.status('状态', DICT_ITEM_STATES, { list: true, filter: 'eq', initial: 1, width: 80 }),
    remark: f.textarea('备注', { max: 200 }),
    isSystem: f.bool('系统内置', { form: false, list: true, width: 90 }),
  },
  access: {
    read: 'system.data',
    write: 'system.data',
    // 视频分类 (/applet-management/video-type): the mini-program's editor keeps the video types,
    // and no other dictionary, without 数据字典's grant (README "Mini-program pages").
    keyed: {
      field: 'dictKey',
      grants: { video_type: 'applet.videoType' },
      message: '您只能编辑“视频分类”字典的项，其他字典请联系管理员在“系统管理 › 数据字典”中修改',
    },
  },
  order: [
    ['sort', 'asc'],
    ['id', 'asc'],
  ],
  unique: [{ fields: ['dictKey', 'value'], message: '该字典中已有相同的值' }],
  belongsTo: { record: 'dictType', field: 'dictKey', by: 'dictKey' },
  tree: { field: 'parentValue', by: 'value', scope: ['dictKey'] },
  sortable: { field: 'sort', scope: ['dictKey'] },
  check: (r) =>
    r.parentValue && r.parentValue === r.value
      ? { field: 'parentValue', message: '上级值不能是本项的值' }
      : null,
  canDelete: (row) => (row.isSystem ? '系统内置字典项不能删除，可以停用' : null),
  canUpdate: (before, after) => {
    if (!before.isSystem) return null;
    if (after.value !== before.value)
      return { field: 'value', message: '系统内置字典项的值不能修改，可以修改名称或停用' };
    if (after.dictKey !== before.dictKey)
      return { field: 'dictKey', message: '系统内置字典项不能移到其他字典' };
    return null;
  },
  describe: (r) => String(r.label ?? ''),
});

addRecordLabels({ key: '字典键', keys: '字典键列表' });

/** One option of an enum field, as getSelectDataByKey answers it. */
export const DictOption = z.object({ label: z.string(), value: z.string(), parentValue: z.string() });
export type DictOption = z.infer<typeof DictOption>;

/** GET collectDict/getSelectDataByKey?key=: the enabled items of one dictionary, in order. */
export const SelectByKeyQuery = z.object({
  key: z.string('请填写字典键').trim().regex(DICT_KEY_RE, '字典键格式不正确（如 relic_level）'),
});
/** POST collectDict/getSelectDataByArr {keys: [...]}: several at once, as {key: options}. */
export const SelectByArrBody = z.object({
  keys: z
    .array(z.string().trim().regex(DICT_KEY_RE, '字典键格式不正确（如 relic_level）'), '请填写字典键列表')
    .min(1, '请填写字典键列表')
    .max(50, '一次最多读取 50 个字典'),
});
