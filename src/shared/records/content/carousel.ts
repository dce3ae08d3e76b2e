import { defineRecord, f, type FieldProblem, type StatusOption } from '../define';
import {
  CONTENT_CALLS,
  GRANTS,
  PUBLISHED,
  contentPublishing,
  pagePathProblem,
  parseContentRef,
  publishFields,
  sortField,
  MAX_COVERS,
  ALL_CONTENT_GRANTS,
} from './common';

/**
 * 轮播图 bsCarousel (records-design §5; spec §7 `/bs/bsCarousel` with GET up and down): the
 * banners of the mini-program's home, the volunteers' pages, the website's and the English
 * website's home and the goods page, one list per position. `up`/`down` swap with the neighbour
 * **within the same position**. Visitors see a row while it is published and inside its display
 * window (`startTime`–`endTime`, either end open): `isShowing`.
 */

export const CAROUSEL_POSITIONS: readonly StatusOption[] = [
  { value: 1, label: '小程序首页' },
  { value: 2, label: '志愿者首页' },
  { value: 3, label: '志愿服务页' },
  { value: 4, label: '官网首页' },
  { value: 5, label: '英文官网首页' },
  { value: 6, label: '文创页' },
];

export const LINK_TYPES: readonly StatusOption[] = [
  { value: 0, label: '无' },
  { value: 1, label: '小程序页面' },
  { value: 2, label: '网页' },
  { value: 3, label: '内容详情' },
];

/** What a carousel row's link must look like for its type (the host allow-list is the server's). */
export function carouselLinkProblem(row: Record<string, unknown>): FieldProblem | null {
  const type = Number(row.linkType);
  const v = typeof row.linkValue === 'string' ? row.linkValue.trim() : '';
  const at = (message: string) => ({ field: 'linkValue', message });
  if (type === 0) return null;
  if (!v) return at(`链接类型为“${LINK_TYPES.find((t) => t.value === type)?.label ?? ''}”时请填写链接地址`);
  if (type === 1) {
    const p = pagePathProblem('链接地址', v);
    return p ? at(p) : null;
  }
  if (type === 3) {
    const r = parseContentRef('链接地址', v);
    return typeof r === 'string' ? at(r) : null;
  }
  return null;
}

/** Whether visitors see the row at `now`: published and inside its display window. */
export function isShowing(row: Record<string, unknown>, now: number): boolean {
  const start = row.startTime === null || row.startTime === undefined ? null : Number(row.startTime);
  const end = row.endTime === null || row.endTime === undefined ? null : Number(row.endTime);
  return Number(row.status) === PUBLISHED && (start === null || start <= now) && (end === null || now < end);
}

export const bsCarousel = defineRecord({
  name: 'bsCarousel',
  title: '轮播图',
  shape: 'catalog',
  table: 'bs_carousel',
  base: '/bs/bsCarousel',
  calls: CONTENT_CALLS,
  fields: {
    position: f.status('展示位置', CAROUSEL_POSITIONS, {
      required: true,
      list: true,
      filter: 'eq',
      width: 110,
    }),
    title: f.text('标题', { max: 100, list: true, keyword: true, help: '可不填；读屏软件会读出它' }),
    images: f.image('轮播图片', {
      required: true,
      max: MAX_COVERS,
      help: `只能上传图片，最多 ${MAX_COVERS} 张（第一张为主图，其余为不同屏幕尺寸的备选）`,
    }),
    linkType: f.status('链接类型', LINK_TYPES, { required: true, list: true, width: 90 }),
    linkValue: f.text('链接地址', {
      max: 500,
      help: '小程序页面填路径（/pages/…）；网页填白名单内的 https 地址；内容详情填“内容类型:编号”，如 bsExhibition:12',
    }),
    startTime: f.datetime('开始展示', { list: true, width: 150, help: '不填为发布后立即展示' }),
    endTime: f.datetime('结束展示', { list: true, width: 150, help: '不填为一直展示，直到下架' }),
    sort: sortField(),
    ...publishFields(),
  },
  // A row without a link keeps no stale address.
  derive: (row) => (Number(row.linkType) === 0 ? { linkValue: '' } : {}),
  check: (row) => {
    if (row.startTime != null && row.endTime != null && Number(row.endTime) <= Number(row.startTime))
      return { field: 'endTime', message: '结束展示时间须晚于开始展示时间' };
    return carouselLinkProblem(row);
  },
  // 展示中: what visitors see now (published, inside the window); the content module's filter.
  virtualFilters: { showing: f.bool('展示中', { filter: 'eq' }) },
  status: { field: 'status' },
  transitions: contentPublishing(),
  access: { read: ALL_CONTENT_GRANTS, write: GRANTS.carousel },
  sortable: { field: 'sort', scope: ['position'] },
  order: [
    ['position', 'asc'],
    ['sort', 'asc'],
    ['id', 'asc'],
  ],
  describe: (r) => String(r.title || `轮播图 #${String(r.id ?? '')}`),
});
