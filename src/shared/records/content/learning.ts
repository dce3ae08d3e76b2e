import { defineRecord, f, type StatusOption } from '../define';
import {
  ALL_CONTENT_GRANTS,
  AUDIO_TYPES,
  CONTENT_CALLS,
  CONTENT_ORDER,
  GRANTS,
  VIDEO_TYPES,
  contentFields,
  contentPublishing,
  publishFields,
  publishedContent,
} from './common';

/**
 * Learning and media (records-design §5): 学术研究 bsScience (academic output, settled
 * 2026-11-25: the applet's learning pages 专题 / 学术会议 / 专著 / 论文, one category each),
 * 博物馆课堂 bsClassroom, 音视频 AudioVideo (the applet's radio-video; its 视频分类 is the
 * `video_type` dictionary, the applet's video-type page) and 电台节目 bsElecticWave (the
 * applet's radio-list; the spec's spelling kept).
 */

export const SCIENCE_CATEGORIES: readonly StatusOption[] = [
  { value: 1, label: '学术专题' },
  { value: 2, label: '学术会议' },
  { value: 3, label: '学术专著' },
  { value: 4, label: '学术论文' },
];

export const bsScience = defineRecord({
  name: 'bsScience',
  title: '学术研究',
  shape: 'catalog',
  table: 'bs_science',
  base: '/bs/bsScience',
  calls: CONTENT_CALLS,
  fields: {
    category: f.status('类别', SCIENCE_CATEGORIES, { required: true, list: true, filter: 'eq', width: 90 }),
    ...contentFields({ coverRequired: false }),
    authors: f.text('作者', { max: 200, list: true, keyword: true }),
    sourceName: f.text('出处', { max: 200, help: '期刊、出版社或会议名称' }),
    publishDate: f.date('发表日期', { list: true, filter: 'range', width: 110 }),
    paperFile: f.file('全文（PDF）', { types: ['pdf'], maxBytes: 100 * 1024 * 1024 }),
    keywords: f.text('关键词', { max: 200, keyword: true }),
    ...publishFields(),
  },
  status: { field: 'status' },
  transitions: contentPublishing(),
  access: { read: ALL_CONTENT_GRANTS, write: GRANTS.science },
  // One list per category (the applet's four learning pages).
  sortable: { field: 'sort', scope: ['category'] },
  order: CONTENT_ORDER,
  describe: (r) => String(r.title ?? ''),
});

export const AGE_GROUPS = ['学龄前', '小学', '初中', '高中', '成人', '亲子'] as const;

export const bsClassroom = defineRecord({
  name: 'bsClassroom',
  title: '博物馆课堂',
  table: 'bs_classroom',
  fields: {
    courseType: f.dict('课程类型', 'course_type', { required: true, list: true, filter: 'eq', width: 100 }),
    ...contentFields(),
    ageGroup: f.text('适合人群', { max: 50, choices: AGE_GROUPS, list: true }),
    lecturer: f.text('主讲人', { max: 50, list: true, keyword: true }),
    mediaId: f.ref('课程音视频', 'AudioVideo', { by: 'title' }),
    durationMinutes: f.int('时长（分钟）', { min: 1, max: 1440 }),
    ...publishFields(),
  },
  ...publishedContent('bsClassroom', GRANTS.classroom),
});

/** The server reads a file's length on save (README "Media: Range and durations"). */
const DURATION_HELP = '保存时从上传的文件读取：不填即自动填写，与文件相差超过 2 秒时以文件为准';

export const MEDIA_TYPES: readonly StatusOption[] = [
  { value: 1, label: '视频' },
  { value: 2, label: '音频' },
];

export const AudioVideo = defineRecord({
  name: 'AudioVideo',
  title: '音视频',
  table: 'bs_audio_video',
  fields: {
    mediaType: f.status('媒体类型', MEDIA_TYPES, { required: true, list: true, filter: 'eq', width: 80 }),
    videoTypeId: f.dict('视频分类', 'video_type', { required: true, list: true, filter: 'eq', width: 100 }),
    ...contentFields(),
    mediaFile: f.file('音视频文件', {
      types: [...VIDEO_TYPES, ...AUDIO_TYPES],
      maxBytes: 500 * 1024 * 1024,
      help: '上传文件或填写外部地址（都有时播放文件）；500 MB 以内',
    }),
    url: f.text('外部地址', { max: 500, placeholder: 'https://', help: '白名单内的 https 地址' }),
    durationSeconds: f.int('时长（秒）', { max: 360_000, help: DURATION_HELP }),
    speaker: f.text('主讲人', { max: 50, list: true, keyword: true }),
    playCount: f.int('播放量', { form: false, initial: 0, list: true, width: 80 }),
    ...publishFields(),
  },
  // A file or an outside address (records-design §5: "one of the two"); both may be kept, and
  // the player uses the file when there is one (the address is the fallback).
  check: (row) => {
    const hasFile = Array.isArray(row.mediaFile) && row.mediaFile.length > 0;
    const hasUrl = typeof row.url === 'string' && row.url.trim() !== '';
    return hasFile || hasUrl ? null : { field: 'mediaFile', message: '请上传音视频文件或填写外部地址' };
  },
  ...publishedContent('AudioVideo', GRANTS.media),
});

export const bsElecticWave = defineRecord({
  name: 'bsElecticWave',
  title: '电台节目',
  table: 'bs_electic_wave',
  fields: {
    column: f.text('栏目', { required: true, max: 50, list: true, filter: 'eq', width: 120 }),
    episodeNo: f.int('期数', { min: 1, max: 99_999, list: true, width: 70 }),
    ...contentFields({ coverRequired: false }),
    audioId: f.file('节目音频', {
      required: true,
      types: ['mp3', 'm4a'],
      maxBytes: 200 * 1024 * 1024,
      help: 'mp3 或 m4a，200 MB 以内',
    }),
    durationSeconds: f.int('时长（秒）', { max: 36_000, help: DURATION_HELP }),
    anchor: f.text('主播', { max: 50, list: true, keyword: true }),
    transcript: f.textarea('文稿', { max: 20_000 }),
    ...publishFields(),
  },
  ...publishedContent('bsElecticWave', GRANTS.radio),
});
