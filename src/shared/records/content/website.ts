import { defineRecord, f, isRealDate, withField, type FieldProblem, type StatusOption } from '../define';
import { phoneProblem } from '../validators';
import {
  ALL_CONTENT_GRANTS,
  CONTENT_CALLS,
  CONTENT_ORDER,
  contentFields,
  contentPublishing,
  publishFields,
  sortField,
} from './common';

/**
 * The website's and the English website's own records (issue 23, part "Website and English
 * website staff pages"; ours: records-design §5 names none of them, spec §2 has the routes;
 * README "Website and English website pages"):
 *
 * - 官网文章 bsArticle: the website's columns that are articles — 清宫文化, 资讯, 公告, 制度建设 —
 *   one record with a `column`, each route a page fixed on its column.
 * - 发展历程 bsCourse: the museum's milestones (year, optional day, event), read as a timeline.
 * - 文物鉴定 bsIdentify: the public's appraisal requests (photos, description, contact) with their
 *   states 待受理 → 已受理 (an expert assigned) → 已鉴定, or 不予受理 with the reason; and 鉴定记录
 *   bsIdentifyRecord: the experts' results, each of a request or of a relic brought in person.
 * - 英文精品文物 enRelic and 英文活动 enActivity: the English website's premium relics and events.
 */

/** The website's leaves that edit these records (src/shared/menu/catalogue.ts). */
export const WEB_GRANTS = {
  article: ['website.qinggong', 'website.infoPublish', 'website.noticePublish', 'website.zdjs'],
  course: ['website.course'],
  identify: ['website.identify', 'website.identifyRecord'],
  enRelic: ['enWebsite.premium'],
  enActivity: ['enWebsite.activity'],
} as const;

/** Content readers plus the pages of these records (a form links an English row, a carousel a news). */
const READ = [
  ...new Set([
    ...ALL_CONTENT_GRANTS,
    ...WEB_GRANTS.article,
    ...WEB_GRANTS.course,
    ...WEB_GRANTS.enRelic,
    ...WEB_GRANTS.enActivity,
  ]),
];

// ---------------------------------------------------------------------------------------------
// 官网文章

export const ARTICLE_COLUMNS: readonly StatusOption[] = [
  { value: 1, label: '清宫文化' },
  { value: 2, label: '资讯' },
  { value: 3, label: '公告' },
  { value: 4, label: '制度建设' },
];

export const bsArticle = defineRecord({
  name: 'bsArticle',
  title: '官网文章',
  shape: 'catalog',
  table: 'bs_article',
  base: '/bs/bsArticle',
  calls: CONTENT_CALLS,
  fields: {
    column: f.status('栏目', ARTICLE_COLUMNS, { required: true, list: true, filter: 'eq', width: 90 }),
    ...contentFields({ coverRequired: false }),
    source: f.text('来源/作者', { max: 50, list: true, width: 120, placeholder: '本馆宣教部' }),
    attachments: f.file('附件', {
      max: 5,
      types: ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'zip'],
      maxBytes: 50 * 1024 * 1024,
      help: '制度文件、公告附件等：PDF、Word、Excel 或 ZIP，最多 5 个，每个不超过 50 MB',
    }),
    ...publishFields(),
  },
  status: { field: 'status' },
  transitions: contentPublishing(),
  access: { read: READ, write: WEB_GRANTS.article },
  sortable: { field: 'sort', scope: ['column'] },
  order: CONTENT_ORDER,
  describe: (r) => String(r.title ?? ''),
});

// ---------------------------------------------------------------------------------------------
// 发展历程

/** A milestone's day, when given, lies in its year. */
export function courseProblem(row: Record<string, unknown>): FieldProblem | null {
  const day = String(row.eventDate ?? '');
  const year = Number(row.year);
  if (day && isRealDate(day) && Number.isInteger(year) && Number(day.slice(0, 4)) !== year)
    return { field: 'eventDate', message: `具体日期须在 ${year} 年内，或清空具体日期只填年份` };
  return null;
}

export const bsCourse = defineRecord({
  name: 'bsCourse',
  title: '发展历程',
  shape: 'catalog',
  table: 'bs_course',
  base: '/bs/bsCourse',
  calls: CONTENT_CALLS,
  fields: {
    year: f.int('年份', { required: true, min: 1000, max: 2100, list: true, filter: 'range', width: 80 }),
    eventDate: f.date('具体日期', { list: true, width: 110, help: '可不填；填写时须在该年份内' }),
    title: f.text('事件', {
      required: true,
      max: 100,
      list: true,
      keyword: true,
      placeholder: '新馆落成开放',
    }),
    summary: f.textarea('事件说明', { max: 500, keyword: true }),
    images: f.image('图片', { max: 5, help: '只能上传图片，最多 5 张' }),
    sort: sortField(),
    ...publishFields(),
  },
  check: courseProblem,
  status: { field: 'status' },
  transitions: contentPublishing(),
  access: { read: READ, write: WEB_GRANTS.course },
  sortable: { field: 'sort', scope: ['year'] },
  order: [
    ['year', 'asc'],
    ['sort', 'asc'],
    ['id', 'asc'],
  ],
  describe: (r) => `${String(r.year ?? '')}年 ${String(r.title ?? '')}`,
});

// ---------------------------------------------------------------------------------------------
// 文物鉴定

/** 0 待受理 · 1 已受理 (an expert assigned) · 2 已鉴定 · 3 不予受理 (with the reason). */
export const IDENTIFY_STATES: readonly StatusOption[] = [
  { value: 0, label: '待受理', color: 'blue' },
  { value: 1, label: '已受理', color: 'cyan' },
  { value: 2, label: '已鉴定', color: 'green' },
  { value: 3, label: '不予受理', color: 'gray' },
];
export const IDENTIFY_ACCEPTED = 1;
export const IDENTIFY_DONE = 2;
export const IDENTIFY_REFUSED = 3;

export const IDENTIFY_CHANNELS: readonly StatusOption[] = [
  { value: 1, label: '官网提交' },
  { value: 2, label: '现场登记' },
  { value: 3, label: '电话登记' },
];

/** 鉴定结论: what the expert concludes (a museum states an opinion, never a price). */
export const IDENTIFY_CONCLUSIONS: readonly StatusOption[] = [
  { value: 1, label: '真品', color: 'green' },
  { value: 2, label: '仿品', color: 'red' },
  { value: 3, label: '存疑', color: 'orange' },
  { value: 4, label: '无法判断', color: 'gray' },
];

export const bsIdentify = defineRecord({
  name: 'bsIdentify',
  title: '文物鉴定申请',
  shape: 'pipeline',
  table: 'bs_identify',
  base: '/bs/bsIdentify',
  calls: {
    list: 'GET list',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
  },
  fields: {
    channel: f.status('来源', IDENTIFY_CHANNELS, { required: true, list: true, filter: 'eq', width: 90 }),
    applicant: f.text('申请人', { required: true, max: 50, list: true, keyword: true, width: 90 }),
    phone: f.text('联系电话', {
      required: true,
      max: 20,
      validate: phoneProblem,
      list: true,
      keyword: true,
      mask: 'phone',
      width: 130,
    }),
    email: f.text('电子邮箱', {
      max: 100,
      validate: (v) => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? null : '格式不正确，如 name@example.com'),
    }),
    relicName: f.text('藏品名称', {
      required: true,
      max: 100,
      list: true,
      keyword: true,
      placeholder: '青花瓷瓶',
    }),
    category: f.text('类别', { max: 50, list: true, width: 90, placeholder: '瓷器、书画、玉器…' }),
    description: f.textarea('藏品描述', {
      required: true,
      max: 2000,
      help: '尺寸、材质、款识、来源（如家传、购买）等',
    }),
    photos: f.image('藏品照片', {
      required: true,
      max: 9,
      help: '只能上传图片，1 到 9 张：正面、背面、底款、细节',
    }),
    expertId: f.user('鉴定专家', { form: false, list: true, width: 90 }),
    rejectReason: f.textarea('不予受理原因', { form: false, max: 200 }),
    acceptTime: f.datetime('受理时间', { form: false }),
    status: f.status('状态', IDENTIFY_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: 0,
      width: 90,
    }),
  },
  createdFilter: '提交时间',
  status: { field: 'status' },
  transitions: {
    accept: {
      label: '受理',
      from: [0],
      to: IDENTIFY_ACCEPTED,
      input: { expertId: f.user('鉴定专家', { required: true }) },
      set: (_row, input, now) => ({ expertId: input.expertId, acceptTime: now }),
    },
    reassign: {
      label: '改派专家',
      from: [IDENTIFY_ACCEPTED],
      to: IDENTIFY_ACCEPTED,
      input: { expertId: f.user('鉴定专家', { required: true }) },
      set: (_row, input) => ({ expertId: input.expertId }),
    },
    refuse: {
      label: '不予受理',
      from: [0],
      to: IDENTIFY_REFUSED,
      input: {
        rejectReason: f.textarea('不予受理原因', {
          required: true,
          max: 200,
          placeholder: '如：照片不清晰，请补充底款照片后重新提交',
        }),
      },
      set: (_row, input) => ({ rejectReason: input.rejectReason }),
      danger: true,
    },
    // Needs a result in 鉴定记录 (the server's effect checks it).
    finish: {
      label: '标记已鉴定',
      from: [IDENTIFY_ACCEPTED],
      to: IDENTIFY_DONE,
      effect: 'hasRecord',
      confirm: '标记后申请人可在官网查看鉴定结果，确定吗？',
    },
  },
  access: { read: WEB_GRANTS.identify, write: WEB_GRANTS.identify },
  order: [['id', 'desc']],
  describe: (r) => `${String(r.applicant ?? '')}：${String(r.relicName ?? '')}`,
});

export const bsIdentifyRecord = defineRecord({
  name: 'bsIdentifyRecord',
  title: '鉴定记录',
  shape: 'catalog',
  table: 'bs_identify_record',
  base: '/bs/bsIdentifyRecord',
  calls: {
    list: 'GET list',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
  },
  fields: {
    requestId: f.ref('鉴定申请', 'bsIdentify', {
      by: 'relicName',
      list: true,
      filter: 'eq',
      help: '不予受理的申请不能登记；现场送鉴、未登记申请的可不选',
    }),
    relicName: f.text('藏品名称', { required: true, max: 100, list: true, keyword: true }),
    expertId: f.user('鉴定专家', { required: true, list: true, filter: 'eq', width: 90 }),
    identifyDate: f.date('鉴定日期', { required: true, list: true, filter: 'range', width: 110 }),
    era: f.text('年代', { max: 50, list: true, width: 90, placeholder: '清乾隆' }),
    material: f.text('质地', { max: 50, width: 80 }),
    // No default: an expert's conclusion is chosen, never 真品 because nobody picked (a status
    // field otherwise starts on, and falls back to, its first option).
    conclusion: withField(
      f.status('鉴定结论', IDENTIFY_CONCLUSIONS, { required: true, list: true, filter: 'eq', width: 90 }),
      { initial: undefined, empty: null },
    ),
    opinion: f.textarea('鉴定意见', { required: true, max: 2000, keyword: true }),
    recordPhotos: f.image('鉴定照片', { max: 9, help: '只能上传图片，最多 9 张' }),
    report: f.file('鉴定报告', {
      max: 1,
      types: ['pdf'],
      maxBytes: 50 * 1024 * 1024,
      help: 'PDF，不超过 50 MB',
    }),
  },
  access: { read: WEB_GRANTS.identify, write: WEB_GRANTS.identify },
  order: [
    ['identifyDate', 'desc'],
    ['id', 'desc'],
  ],
  describe: (r) => `${String(r.relicName ?? '')}（${String(r.identifyDate ?? '')}）`,
});

// ---------------------------------------------------------------------------------------------
// English website: premium relics and events

export const enRelic = defineRecord({
  name: 'enRelic',
  title: '英文精品文物',
  shape: 'catalog',
  table: 'en_relic',
  base: '/bs/enRelic',
  calls: CONTENT_CALLS,
  fields: {
    ...contentFields({ en: true, titleLabel: '文物名称' }),
    era: f.text('年代（英文）', {
      max: 100,
      list: true,
      width: 140,
      placeholder: 'Qing Dynasty (1644–1911)',
    }),
    material: f.text('质地（英文）', { max: 100, list: true, width: 110, placeholder: 'Porcelain' }),
    dimensions: f.text('尺寸（英文）', { max: 100, placeholder: 'H. 32 cm' }),
    gallery: f.image('图集', { max: 9, help: '只能上传图片，最多 9 张' }),
    relicId: f.int('馆藏编号', {
      min: 1,
      help: '可不填；馆藏文物上线后与藏品关联',
    }),
    ...publishFields(),
  },
  status: { field: 'status' },
  transitions: contentPublishing(),
  access: { read: READ, write: WEB_GRANTS.enRelic },
  sortable: { field: 'sort', scope: [] },
  order: CONTENT_ORDER,
  describe: (r) => String(r.title ?? ''),
});

function activityDates(row: Record<string, unknown>): FieldProblem | null {
  const start = String(row.startDate ?? '');
  const end = String(row.endDate ?? '');
  if (start && end && isRealDate(start) && isRealDate(end) && end < start)
    return { field: 'endDate', message: '结束日期不能早于开始日期' };
  return null;
}

export const enActivity = defineRecord({
  name: 'enActivity',
  title: '英文活动',
  shape: 'catalog',
  table: 'en_activity',
  base: '/bs/enActivity',
  calls: CONTENT_CALLS,
  fields: {
    ...contentFields({ en: true, titleLabel: '活动名称' }),
    startDate: f.date('开始日期', { required: true, list: true, filter: 'range', width: 110 }),
    endDate: f.date('结束日期', { list: true, width: 110, help: '一天的活动不填' }),
    timeText: f.text('时间（英文）', { max: 100, placeholder: '10:00–11:30, Saturdays' }),
    place: f.text('地点（英文）', {
      required: true,
      max: 200,
      list: true,
      width: 140,
      placeholder: 'Lecture Hall, 2F',
    }),
    audience: f.text('适合人群（英文）', { max: 100, placeholder: 'Families with children 6–12' }),
    booking: f.text('报名方式（英文）', { max: 200, placeholder: 'Free, booking required' }),
    ...publishFields(),
  },
  check: activityDates,
  status: { field: 'status' },
  transitions: contentPublishing(),
  access: { read: READ, write: WEB_GRANTS.enActivity },
  sortable: { field: 'sort', scope: [] },
  order: CONTENT_ORDER,
  describe: (r) => String(r.title ?? ''),
});

/** The published content among these (the public sees their published rows). */
export const WEBSITE_CONTENT_RECORDS = [bsArticle, bsCourse, enRelic, enActivity] as const;

/**
 * The appraisal records: not content (no publish state; people's contact details), so never in
 * CONTENT_RECORDS, which the public read API serves. Requests register before their records.
 */
export const IDENTIFY_RECORDS = [bsIdentify, bsIdentifyRecord] as const;
