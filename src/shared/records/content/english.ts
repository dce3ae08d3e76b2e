import { defineRecord, f, type StatusOption } from '../define';
import { GRANTS, contentFields, publishFields, publishedContent } from './common';

/**
 * The English website's own records (ours: records-design §5 lists no English rows for these,
 * but spec §2's English website has the routes): enNews for /en-website/info-publish (news and
 * notices in English) and enShowroom for /en-website/showroom (a guide showroom in English,
 * linked to its Chinese row). The English website's exhibitions, 3d and cultural are
 * enExhibition, enDigitalExhibition and enCulturalcreative; its home carousel is bsCarousel at
 * position 5. Its premium (精品文物) and activity routes wait for the collection and the
 * social-education records.
 */

export const EN_NEWS_CATEGORIES: readonly StatusOption[] = [
  { value: 1, label: '新闻（News）' },
  { value: 2, label: '公告（Notice）' },
];

export const enNews = defineRecord({
  name: 'enNews',
  title: '英文资讯',
  table: 'en_news',
  fields: {
    category: f.status('类别', EN_NEWS_CATEGORIES, { required: true, list: true, filter: 'eq', width: 110 }),
    ...contentFields({ en: true, coverRequired: false }),
    source: f.text('来源', { max: 100 }),
    ...publishFields(),
  },
  ...publishedContent('enNews', GRANTS.enNews, ['category']),
});

export const enShowroom = defineRecord({
  name: 'enShowroom',
  title: '英文展厅',
  table: 'en_showroom',
  fields: {
    zhId: f.ref('对应中文展厅', 'bsGuideShowroom', { by: 'title', list: true, filter: 'eq' }),
    ...contentFields({ en: true, titleLabel: '展厅名称' }),
    ...publishFields(),
  },
  ...publishedContent('enShowroom', GRANTS.enShowroom),
});
