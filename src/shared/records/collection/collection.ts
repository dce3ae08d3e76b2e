import { defineRecord, f, type StatusOption } from '../define';

/**
 * The collection 藏品资料 (issue 24; spec office.md §2 Digital resources, §7
 * `bsDigitalassetsInfo`; research/records-design.md §8 for the census dictionaries, S18).
 * Migration 0045_collection. README "Collection (issue 24)".
 *
 * **One row per registered object** (总登记号 unique). Its descriptive fields use the census
 * dictionaries seeded in ../dictionaries.ts: 文物类别 relic_category (35), 级别 relic_level,
 * 完残程度 relic_completeness, 保存状态 relic_preservation, 来源 relic_source, 入藏时间范围
 * relic_in_time_range and 质地类别 relic_texture (a tree: 单一/复合 → 有机/无机).
 *
 * **Nobody writes a row directly.** The record declares no create or update call: adding an
 * object or changing one is a data approval 数据审批 (`bsDigitalassetsApply`, the module
 * server/modules/collection) that goes through the approval engine and is applied to the row
 * only when it passes, exactly once. What the engine serves here is reading: the list, the
 * detail and the export. Rows are never deleted (a museum's register keeps its entries;
 * 注销 is a future data approval).
 *
 * **Images** (`images`): the engine's image field: attachments of this record whose bytes are an
 * image (PNG/JPEG/GIF/WebP), uploaded or picked from the keeper's drive (attach/fromDrive copies
 * the drive file's bytes), with thumbnails. Their originals are the high-resolution files an
 * approved 提取 lets an applicant download.
 *
 * **Storage location** (`storageLocation`, 库房位置) is a security detail: readers (藏品资料)
 * never see it, in lists or details; keepers (藏品资料管理) do (README).
 */

/** What a data approval asks for. */
export const APPLY_KINDS: readonly StatusOption[] = [
  { value: 1, label: '新增藏品' },
  { value: 2, label: '修改藏品' },
  { value: 3, label: '提取高清图' },
];

/** Where a data approval stands (the approval request's outcome, mirrored). */
export const APPLY_STATES: readonly StatusOption[] = [
  { value: 1, label: '审批中', color: 'blue' },
  { value: 2, label: '已通过', color: 'green' },
  { value: 3, label: '已拒绝', color: 'red' },
  { value: 4, label: '已撤销', color: 'gray' },
];

/** The grants: readers read; keepers (典藏管理员) read everything and ask for changes. */
export const COLLECTION_READ = ['resources.collection', 'resources.collectionManagement'] as const;
export const COLLECTION_WRITE = 'resources.collectionManagement';

export const bsDigitalassetsInfo = defineRecord({
  name: 'bsDigitalassetsInfo',
  title: '藏品',
  shape: 'catalog',
  table: 'bs_digitalassets_info',
  base: '/bsDigitalassetsInfo',
  // Reading only: adding and changing go through data approvals (module collection).
  calls: { list: 'GET pageList', detail: 'GET detail', export: 'POST export' },
  fields: {
    registerNo: f.text('总登记号', {
      required: true,
      max: 50,
      list: true,
      keyword: true,
      width: 120,
      placeholder: '总 00123',
    }),
    name: f.text('名称', { required: true, max: 100, list: true, keyword: true }),
    category: f.dict('文物类别', 'relic_category', { required: true, list: true, filter: 'eq', width: 110 }),
    level: f.dict('文物级别', 'relic_level', { required: true, list: true, filter: 'eq', width: 80 }),
    era: f.text('年代', {
      required: true,
      max: 50,
      list: true,
      keyword: true,
      width: 100,
      placeholder: '西周',
    }),
    texture: f.dict('质地类别', 'relic_texture', { filter: 'eq' }),
    material: f.text('质地', { max: 50, list: true, width: 80, placeholder: '青铜' }),
    dimensions: f.text('尺寸', { max: 100, placeholder: '通高 38.5 厘米，口径 30 厘米' }),
    weight: f.text('质量', { max: 30, placeholder: '2.35 千克' }),
    quantity: f.int('实际数量（件）', { min: 1, max: 99_999 }),
    completeness: f.dict('完残程度', 'relic_completeness', { required: true, filter: 'eq' }),
    preservation: f.dict('保存状态', 'relic_preservation', {
      required: true,
      list: true,
      filter: 'eq',
      width: 130,
    }),
    source: f.dict('文物来源', 'relic_source', { required: true, filter: 'eq' }),
    inTimeRange: f.dict('入藏时间范围', 'relic_in_time_range'),
    accessionDate: f.date('入藏日期', { filter: 'range' }),
    storageLocation: f.text('库房位置', {
      max: 100,
      mask: 'writersOnly',
      placeholder: '一号库房 A 柜 3 层',
      help: '仅典藏管理员可见',
    }),
    images: f.image('藏品图片', {
      max: 20,
      help: '只能是图片（PNG、JPEG、GIF、WebP），最多 20 张，第一张用作封面',
    }),
    description: f.textarea('藏品描述', { max: 2000, keyword: true }),
    remark: f.textarea('备注', { max: 500 }),
  },
  access: { read: COLLECTION_READ, write: COLLECTION_WRITE },
  unique: [{ fields: ['registerNo'], message: '总登记号已存在，请核对后重新填写' }],
  order: [['registerNo', 'asc']],
  describe: (r) => `${String(r.registerNo ?? '')} ${String(r.name ?? '')}`.trim(),
});
