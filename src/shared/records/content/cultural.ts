import { defineRecord, f, type StatusOption } from '../define';
import { GRANTS, contentFields, pagePathProblem, publishFields, publishedContent } from './common';

/**
 * 文创产品 bsCulturalcreative and its English row enCulturalcreative (records-design §5; the
 * website's and the applet's "cultural", the English website's "cultural"). A price left empty
 * means 暂不销售 (shown, not on sale). Where to buy: 仅展示, the mini-program's shop page (a page
 * path) or an outside shop (https on the allow-list; the server checks the host).
 */

export const BUY_TYPES: readonly StatusOption[] = [
  { value: 0, label: '仅展示' },
  { value: 1, label: '小程序商城页' },
  { value: 2, label: '外链' },
];

export const bsCulturalcreative = defineRecord({
  name: 'bsCulturalcreative',
  title: '文创产品',
  table: 'bs_culturalcreative',
  fields: {
    category: f.dict('品类', 'cultural_category', { required: true, list: true, filter: 'eq', width: 90 }),
    ...contentFields({ titleLabel: '产品名称' }),
    images: f.image('产品图集', { max: 9, help: '只能上传图片，最多 9 张' }),
    price: f.money('价格（元）', { list: true, help: '不填为暂不销售' }),
    designer: f.text('设计者', { max: 50 }),
    spec: f.text('规格', { max: 200 }),
    buyType: f.status('购买方式', BUY_TYPES, { required: true, list: true, width: 100 }),
    buyLink: f.text('购买链接', {
      max: 500,
      help: '小程序商城页填路径（/pages/…）；外链填白名单内的 https 地址',
    }),
    isRecommend: f.bool('推荐', { list: true, filter: 'eq', width: 70 }),
    ...publishFields(),
  },
  derive: (row) => (Number(row.buyType) === 0 ? { buyLink: '' } : {}),
  check: (row) => {
    const type = Number(row.buyType);
    const link = typeof row.buyLink === 'string' ? row.buyLink.trim() : '';
    if (type === 0) return null;
    if (!link) return { field: 'buyLink', message: '购买方式不是“仅展示”时请填写购买链接' };
    const p = type === 1 ? pagePathProblem('购买链接', link) : null;
    return p ? { field: 'buyLink', message: p } : null;
  },
  ...publishedContent('bsCulturalcreative', GRANTS.cultural),
});

export const enCulturalcreative = defineRecord({
  name: 'enCulturalcreative',
  title: '英文文创产品',
  table: 'en_culturalcreative',
  fields: {
    zhId: f.ref('对应中文文创', 'bsCulturalcreative', { by: 'title', list: true, filter: 'eq' }),
    ...contentFields({ en: true, titleLabel: '产品名称' }),
    images: f.image('产品图集', { max: 9, help: '只能上传图片，最多 9 张' }),
    price: f.money('价格（元）', { list: true, help: '不填为暂不销售' }),
    buyLink: f.text('购买链接', {
      max: 500,
      placeholder: 'https://',
      help: '白名单内的 https 地址；不填为仅展示',
    }),
    ...publishFields(),
  },
  ...publishedContent('enCulturalcreative', GRANTS.enCultural),
});
