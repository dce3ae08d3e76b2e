import { defineRecord, f } from '../define';
import { AUDIO_TYPES, publishFields, sortField, publishedContent } from './common';

/**
 * The mini-program's own pages that no record of records-design §5 covered (issue 23, README
 * "Mini-program pages"; migration 0044_applet_pages):
 *
 * - **数字文物 bsDigitalRelic**: a relic's public showcase. **Decision: a content record of its
 *   own, not the collection's row.** The collection records (issue 24) are the museum's
 *   register (总登记号, 来源, 保存状况…), most of it never public; what a visitor sees is written for
 *   them (title, era, material, size, up to 9 photos, a text, a 3D or panorama address, an audio
 *   guide) and published on its own. `relicId` (nullable, not in the form yet) will link the
 *   collection's row once it exists.
 * - **志愿者简介 bsVolunteerIntro**: one rich-text page per museum (a singleton, `info`/`save`),
 *   shown as saved: no drafts, no publish state (a single page an editor rewrites).
 * - **志愿者风采 bsVolunteerStory**: a published list of stories with photos.
 */

export const bsDigitalRelic = defineRecord({
  name: 'bsDigitalRelic',
  title: '数字文物',
  table: 'bs_digital_relic',
  fields: {
    title: f.text('文物名称', { required: true, max: 100, list: true, keyword: true }),
    era: f.text('年代', { max: 50, list: true, keyword: true, width: 110, placeholder: '西周' }),
    material: f.text('质地', { max: 50, list: true, width: 90, placeholder: '青铜' }),
    dimensions: f.text('尺寸', { max: 100, placeholder: '通高 38.5 厘米，口径 30 厘米' }),
    images: f.image('文物图片', {
      required: true,
      max: 9,
      help: '只能上传图片，最多 9 张，第一张用作列表封面',
    }),
    summary: f.textarea('摘要', { max: 200, keyword: true }),
    content: f.rich('介绍'),
    modelUrl: f.text('三维/全景地址', {
      max: 500,
      placeholder: 'https://',
      help: '白名单内的 https 地址；在沙箱框架或新标签页中打开',
    }),
    audioId: f.file('讲解音频', {
      types: AUDIO_TYPES,
      maxBytes: 200 * 1024 * 1024,
      help: 'mp3、m4a、aac、wav 或 ogg，200 MB 以内',
    }),
    audioSeconds: f.int('音频时长（秒）', { max: 36_000 }),
    // The collection's row (issue 24), once the collection records exist: set by that work.
    relicId: f.int('藏品编号', { form: false, min: 1 }),
    sort: sortField(),
    ...publishFields(),
  },
  ...publishedContent('bsDigitalRelic', 'applet.digitalRelics'),
});

export const bsVolunteerIntro = defineRecord({
  name: 'bsVolunteerIntro',
  title: '志愿者简介',
  shape: 'singleton',
  table: 'bs_volunteer_intro',
  base: '/bs/bsVolunteerIntro',
  calls: { list: 'GET list', detail: 'GET detail', load: 'GET info', save: 'POST save' },
  fields: {
    title: f.text('标题', { required: true, max: 100, list: true, placeholder: '志愿者简介' }),
    cover: f.image('头图', { max: 5, help: '只能上传图片，最多 5 张' }),
    content: f.rich('正文', { required: true }),
  },
  // Every member of staff may read it (visitors read it on the mini-program); its page writes.
  access: { read: null, write: 'applet.volunteer.intro' },
  singleton: {},
  order: [['id', 'asc']],
  describe: () => '志愿者简介',
});

export const bsVolunteerStory = defineRecord({
  name: 'bsVolunteerStory',
  title: '志愿者风采',
  table: 'bs_volunteer_story',
  fields: {
    title: f.text('标题', { required: true, max: 100, list: true, keyword: true }),
    photos: f.image('照片', { required: true, max: 9, help: '只能上传图片，最多 9 张，第一张用作列表封面' }),
    storyDate: f.date('日期', { list: true, filter: 'range', width: 110 }),
    people: f.text('志愿者', { max: 100, list: true, keyword: true, help: '故事中的志愿者姓名，可不填' }),
    summary: f.textarea('摘要', { max: 200, keyword: true }),
    content: f.rich('正文'),
    sort: sortField(),
    ...publishFields(),
  },
  ...publishedContent('bsVolunteerStory', 'applet.volunteer.demeanor'),
});
