import { defineRecord, f } from '../define';
import { AUDIO_TYPES, GRANTS, contentFields, publishFields, publishedContent } from './common';

/**
 * The audio guide (导览; records-design §5; S23): 展厅 bsGuideShowroom → 章节 bsGuideChapter →
 * 单元 bsGuideUnit, three records linked by refs (a chapter's showroom, a unit's chapter), each
 * sorted within its parent (up/down). A showroom or chapter with rows under it cannot be
 * deleted; the refusal says how many (src/server/modules/content/).
 *
 * **Decision: a guide showroom is a hall of the museum map.** Its floor, hall number, place on
 * the floor's plan (the applet's "plane") and open state are the hall's (museumHall, README "The
 * museum map"), chosen by `hallId`, never typed twice; the guide adds what a visitor reads and
 * hears. Exhibits (`relicIds`) wait for the collection records.
 */

const audio = (label: string) =>
  f.file(label, {
    types: AUDIO_TYPES,
    maxBytes: 200 * 1024 * 1024,
    help: 'mp3、m4a、aac、wav 或 ogg，200 MB 以内',
  });
const seconds = () =>
  f.int('音频时长（秒）', {
    max: 36_000,
    help: '保存时从音频文件读取：不填即自动填写，与文件相差超过 2 秒时以文件为准',
  });

export const bsGuideShowroom = defineRecord({
  name: 'bsGuideShowroom',
  title: '导览展厅',
  table: 'bs_guide_showroom',
  fields: {
    hallId: f.ref('所在展厅', 'museumHall', {
      by: 'name',
      required: true,
      list: true,
      filter: 'eq',
      help: '馆区地图中的展厅：楼层、编号、平面图位置和开放状态取自那里',
    }),
    ...contentFields({ titleLabel: '展厅标题' }),
    audioId: audio('讲解音频'),
    audioSeconds: seconds(),
    videoId: f.ref('讲解视频', 'AudioVideo', { by: 'title' }),
    ...publishFields(),
  },
  ...publishedContent('bsGuideShowroom', GRANTS.guide),
});

export const bsGuideChapter = defineRecord({
  name: 'bsGuideChapter',
  title: '导览章节',
  table: 'bs_guide_chapter',
  fields: {
    showroomId: f.ref('所属展厅', 'bsGuideShowroom', {
      by: 'title',
      required: true,
      list: true,
      filter: 'eq',
    }),
    chapterNo: f.text('章节序号', { max: 20, list: true, width: 100, placeholder: '第一部分' }),
    ...contentFields({ coverRequired: false, titleLabel: '章节标题' }),
    audioId: audio('讲解音频'),
    audioSeconds: seconds(),
    ...publishFields(),
  },
  ...publishedContent('bsGuideChapter', GRANTS.guide, ['showroomId']),
});

export const bsGuideUnit = defineRecord({
  name: 'bsGuideUnit',
  title: '导览单元',
  table: 'bs_guide_unit',
  fields: {
    chapterId: f.ref('所属章节', 'bsGuideChapter', { by: 'title', required: true, list: true, filter: 'eq' }),
    ...contentFields({ coverRequired: false, titleLabel: '单元标题' }),
    images: f.image('图集', { max: 9, help: '只能上传图片，最多 9 张' }),
    audioId: audio('讲解音频'),
    audioSeconds: seconds(),
    videoId: f.ref('讲解视频', 'AudioVideo', { by: 'title' }),
    labelCode: f.text('展签编号', {
      max: 20,
      list: true,
      keyword: true,
      width: 100,
      validate: (v) => (/^[A-Za-z0-9-]+$/.test(v) ? null : '只能由字母、数字或 - 组成'),
      help: '展签上的编号，观众扫码或输入编号收听',
    }),
    ...publishFields(),
  },
  unique: [{ fields: ['labelCode'], message: '已有相同展签编号的单元，请换一个编号' }],
  ...publishedContent('bsGuideUnit', GRANTS.guide, ['chapterId']),
});
