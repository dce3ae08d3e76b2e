import { defineRecord, f } from '../define';
import { PUBLISH_STATES, publishing } from './wk-dynamic';

/**
 * 下载中心 (资料下载, /home/data-download): documents the office publishes for staff to download —
 * forms, templates, rules — each one file kept by the attachment service, with a category (the
 * dictionary `download_category`), a publish switch and a download count.
 *
 * Everyone reads what is published (newest first); holders of 信息发布's grant (oa.infoPublish)
 * add, publish, take down and delete. A draft or a document taken down answers like a missing
 * row to everyone else, and so does its file. The spec shows no calls; ours follow the duty
 * roster's: /singleMuseum/bs/bsDataDownload/list, detail, save, update, delete (GET), publish,
 * takeDown, and `GET download?id=` (server/modules/download), which sends the file and counts
 * the download on the server: once per person per museum day, so reopening a form ten times
 * while filling it in counts once, and the number reads as "people who took it, per day".
 */

/** The file types a document may be: office documents, PDF, OFD, text, archives and images. */
export const DOWNLOAD_TYPES = [
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'wps',
  'et',
  'dps',
  'pdf',
  'ofd',
  'txt',
  'zip',
  'rar',
  '7z',
  'jpg',
  'jpeg',
  'png',
] as const;
/** The largest document: 100 MB (a scanned rule book fits; a video does not belong here). */
export const DOWNLOAD_MAX_BYTES = 100 * 1024 * 1024;

export const downloadDoc = defineRecord({
  name: 'downloadDoc',
  title: '下载中心',
  shape: 'catalog',
  table: 'download_doc',
  base: '/bs/bsDataDownload',
  calls: {
    list: 'GET list',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
  },
  fields: {
    title: f.text('资料名称', { required: true, max: 100, list: true, keyword: true }),
    category: f.dict('分类', 'download_category', { required: true, list: true, filter: 'eq', width: 110 }),
    file: f.file('文件', {
      required: true,
      types: DOWNLOAD_TYPES,
      maxBytes: DOWNLOAD_MAX_BYTES,
      // Not a list column: readers take the file with 下载, which counts it.
      help: `Word、Excel、PPT、WPS、PDF、OFD、文本、压缩包或图片，不超过 100MB`,
    }),
    description: f.textarea('说明', { max: 500, keyword: true }),
    status: f.status('状态', PUBLISH_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: 0,
      width: 90,
    }),
    publishTime: f.datetime('发布时间', { form: false, list: true, filter: 'range', width: 150 }),
    downloadCount: f.int('下载次数', { form: false, list: true, initial: 0, width: 90 }),
  },
  status: { field: 'status' },
  transitions: publishing(),
  access: { read: 'home.workbench', write: 'oa.infoPublish', readerSees: { field: 'status', values: [1] } },
  order: [
    ['publishTime', 'desc'],
    ['id', 'desc'],
  ],
  describe: (r) => String(r.title ?? ''),
});
