import { defineRecord, f, isRealDate, type FieldProblem, type StatusOption } from '../define';
import {
  ALL_CONTENT_GRANTS,
  CONTENT_CALLS,
  CONTENT_ORDER,
  GRANTS,
  contentFields,
  contentPublishing,
  publishFields,
  sortField,
  publishedContent,
} from './common';

/**
 * Exhibitions (records-design §5): 展览 bsExhibition and its English row enExhibition (the English
 * website's exhibitions, linked to the Chinese row by `zhId`), digital exhibitions
 * bsDigitalExhibition / enDigitalExhibition (the English website's "3d"), and the generic
 * relation bsRelation that holds an exhibition's `sp` items: videos (AudioVideo) or goods
 * (bsCulturalcreative) (settled 2026-11-25).
 *
 * An exhibition's phase (未开幕 / 展出中 / 已闭幕) is derived from its dates (`exhibitionPhase`),
 * never stored. A digital exhibition's `url` is https on the administrator's allow-list; the app
 * opens it in a sandboxed iframe or a new tab, never as active content on our origin.
 */

export const EXHIBITION_TYPES: readonly StatusOption[] = [
  { value: 1, label: '基本陈列' },
  { value: 2, label: '临时展览' },
  { value: 3, label: '引进/巡回展' },
  { value: 4, label: '线上展' },
];

export const DIGITAL_TYPES: readonly StatusOption[] = [
  { value: 1, label: '全景VR' },
  { value: 2, label: '3D展厅' },
  { value: 3, label: '图文线上展' },
  { value: 4, label: 'H5' },
];

/** 未开幕 before its first day, 展出中 through its last (none: permanent), 已闭幕 after. */
export function exhibitionPhase(row: Record<string, unknown>, today: string): '未开幕' | '展出中' | '已闭幕' {
  const start = String(row.startDate ?? '');
  const end = String(row.endDate ?? '');
  if (start && today < start) return '未开幕';
  if (end && today > end) return '已闭幕';
  return '展出中';
}

function datesProblem(row: Record<string, unknown>): FieldProblem | null {
  const start = String(row.startDate ?? '');
  const end = String(row.endDate ?? '');
  if (start && end && isRealDate(start) && isRealDate(end) && end < start)
    return { field: 'endDate', message: '闭幕日期不能早于开幕日期' };
  return null;
}

/** An exhibition's own fields, Chinese or English (records-design §5). */
function exhibitionFields(en: boolean) {
  return {
    exhType: f.status('展览类型', EXHIBITION_TYPES, { required: true, list: true, filter: 'eq', width: 100 }),
    ...contentFields({ en, titleLabel: '展览名称' }),
    showroomIds: f.refs('展出展厅', 'museumHall', { by: 'name', max: 20 }),
    startDate: f.date('开幕日期', { required: true, list: true, filter: 'range', width: 110 }),
    endDate: f.date('闭幕日期', { list: true, width: 110, help: '常设展览不填' }),
    organizer: f.text('主办单位', { max: en ? 200 : 100 }),
    coOrganizer: f.text('协办单位', { max: en ? 200 : 100 }),
    curator: f.text('策展人', { max: en ? 200 : 100 }),
    banner: f.image('横幅图', { help: '只能上传图片' }),
    ticketInfo: f.text('票务信息', { max: 200, placeholder: '免费，需预约' }),
  };
}

export const bsExhibition = defineRecord({
  name: 'bsExhibition',
  title: '展览',
  shape: 'catalog',
  table: 'bs_exhibition',
  base: '/bs/bsExhibition',
  // Spec: list, detail, delete, save, update, plus spList/spSave and wenwuList/wenwuSave (the
  // content module's: its videos and goods, its exhibits from the collection).
  calls: CONTENT_CALLS,
  fields: { ...exhibitionFields(false), ...publishFields() },
  check: datesProblem,
  status: { field: 'status' },
  transitions: contentPublishing(),
  access: { read: ALL_CONTENT_GRANTS, write: GRANTS.exhibition },
  sortable: { field: 'sort', scope: [] },
  order: CONTENT_ORDER,
  describe: (r) => String(r.title ?? ''),
});

export const enExhibition = defineRecord({
  name: 'enExhibition',
  title: '英文展览',
  table: 'en_exhibition',
  fields: {
    zhId: f.ref('对应中文展览', 'bsExhibition', { by: 'title', list: true, filter: 'eq' }),
    ...exhibitionFields(true),
    ...publishFields(),
  },
  check: datesProblem,
  ...publishedContent('enExhibition', GRANTS.enExhibition),
});

function digitalFields(en: boolean) {
  return {
    digitalType: f.status('数字展览类型', DIGITAL_TYPES, {
      required: true,
      list: true,
      filter: 'eq',
      width: 100,
    }),
    ...contentFields({ en, titleLabel: '展览名称' }),
    url: f.text('展览地址', {
      required: true,
      max: 500,
      help: '白名单内的 https 地址；在沙箱框架或新标签页中打开',
      placeholder: 'https://',
    }),
    onlineDate: f.date('上线日期', { list: true, width: 110 }),
  };
}

export const bsDigitalExhibition = defineRecord({
  name: 'bsDigitalExhibition',
  title: '数字展览',
  table: 'bs_digital_exhibition',
  fields: {
    ...digitalFields(false),
    exhibitionId: f.ref('关联展览', 'bsExhibition', { by: 'title' }),
    ...publishFields(),
  },
  ...publishedContent('bsDigitalExhibition', GRANTS.digital),
});

export const enDigitalExhibition = defineRecord({
  name: 'enDigitalExhibition',
  title: '英文数字展览',
  table: 'en_digital_exhibition',
  fields: {
    zhId: f.ref('对应中文数字展览', 'bsDigitalExhibition', { by: 'title', list: true, filter: 'eq' }),
    ...digitalFields(true),
    ...publishFields(),
  },
  ...publishedContent('enDigitalExhibition', GRANTS.enDigital),
});

/** What an exhibition's `sp` relation may hold (settled: videos or goods). */
export const RELATION_MAINS = ['bsExhibition'] as const;
/** What `spList`/`spSave` hold: an exhibition's videos and goods. */
export const SP_SUBS = ['AudioVideo', 'bsCulturalcreative'] as const;
/** What `wenwuList`/`wenwuSave` hold: the exhibition's exhibits, 藏品 of the collection (issue 24). */
export const WENWU_SUB = 'bsDigitalassetsInfo';
export const RELATION_SUBS = [...SP_SUBS, WENWU_SUB] as const;

/**
 * 关联 bsRelation (records-design §5: `bsRelation(mainTable, mainId, subTable, subId, sort)`):
 * one row links an exhibition to a video or a good, in its order. Spec: GET relationdelete;
 * list, detail, save and up/down are ours; bsExhibition's spList/spSave read and replace an
 * exhibition's set at once (the content module). The server checks both rows exist.
 */
export const bsRelation = defineRecord({
  name: 'bsRelation',
  title: '关联内容',
  shape: 'catalog',
  table: 'bs_relation',
  base: '/bs/bsRelation',
  calls: {
    list: 'GET list',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET relationdelete',
    up: 'GET up',
    down: 'GET down',
  },
  fields: {
    mainTable: f.text('主内容类型', {
      required: true,
      max: 50,
      list: true,
      filter: 'eq',
      choices: RELATION_MAINS,
    }),
    mainId: f.int('主内容编号', { required: true, min: 1, list: true, filter: 'eq' }),
    subTable: f.text('关联内容类型', {
      required: true,
      max: 50,
      list: true,
      filter: 'eq',
      help: 'AudioVideo 音视频，bsCulturalcreative 文创产品，bsDigitalassetsInfo 展品（藏品）',
    }),
    subId: f.int('关联内容编号', { required: true, min: 1, list: true }),
    note: f.text('说明', { max: 200 }),
    sort: sortField(),
  },
  check: (row) =>
    (RELATION_SUBS as readonly string[]).includes(String(row.subTable))
      ? null
      : { field: 'subTable', message: `关联内容类型只能是 ${RELATION_SUBS.join('、')}` },
  unique: [
    { fields: ['mainTable', 'mainId', 'subTable', 'subId'], message: '该展览已关联这条内容，无需重复添加' },
  ],
  access: { read: ALL_CONTENT_GRANTS, write: GRANTS.exhibition },
  sortable: { field: 'sort', scope: ['mainTable', 'mainId'] },
  order: CONTENT_ORDER,
  describe: (r) => `${String(r.subTable ?? '')}:${String(r.subId ?? '')}`,
});
