import { defineRecord, f, type FieldProblem, type StatusOption } from '../define';

/**
 * 馆区地图 (/mymap): the museum's floors and site, and its halls placed on their plans
 * (README "The museum map"). Two small catalogs of the records engine, administered by whoever
 * holds 平面导览 (`applet.plane`; 信息管理员 in the demo), read by every member of staff:
 *
 * - **museumFloor** 楼层: a floor or the site (一层 1F, 负一层 B1, 馆区 SITE), in order, with its
 *   plan. The plan is the floor's 平面图 text: its first image is the drawing the halls are placed
 *   on, and what is written beside it (entrances, lifts, toilets, the nearest exit) shows under
 *   the map. A rich text rather than a bare image so the museum can say what a plan alone cannot;
 *   its images are the row's attachments, as every record's rich text images are.
 * - **museumHall** 展厅: a hall's name, its floor (by the floor's 简称), its number, where it is
 *   on the floor's plan (x and y in % of the plan's width and height, from its top left), its
 *   open state (开放 / 闭展 / 布展中) and a short introduction.
 *
 * **Decision: the plan belongs to the floor, not to each hall.** The halls of a floor share one
 * drawing; one plan per hall would repeat it and let copies disagree. A hall is a point on its
 * floor's plan.
 *
 * Later issues link here: the content issue's guide showrooms (bsGuideShowroom) and exhibitions
 * will reference a hall by its id, and link to `/mymap?hall=<id>`, which opens that hall on its
 * floor (`/mymap?floor=<简称>` opens a floor).
 */

export const HALL_STATES: readonly StatusOption[] = [
  { value: 1, label: '开放', color: 'green' },
  { value: 2, label: '闭展', color: 'gray' },
  { value: 3, label: '布展中', color: 'orange' },
];

const FLOOR_CODE = /^[A-Za-z0-9]{1,10}$/;

export const museumFloor = defineRecord({
  name: 'museumFloor',
  title: '楼层',
  shape: 'catalog',
  table: 'museum_floor',
  base: '/bs/bsMuseumFloor',
  calls: {
    list: 'GET list',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
    up: 'GET up',
    down: 'GET down',
  },
  fields: {
    name: f.text('楼层名称', {
      required: true,
      max: 20,
      list: true,
      keyword: true,
      placeholder: '如 一层、馆区',
    }),
    code: f.text('简称', {
      required: true,
      max: 10,
      list: true,
      width: 90,
      placeholder: '如 1F、B1、SITE',
      help: '地图上的楼层标签，保存后不能修改（展厅按简称归属楼层）',
      validate: (v) => (FLOOR_CODE.test(v) ? null : '只能由 1–10 位字母或数字组成（如 1F、B1）'),
    }),
    plan: f.rich('平面图', {
      help: '插入一张楼层平面图（第一张图片即地图底图，建议横向）；图片下方可注明出入口、电梯、卫生间等',
    }),
    sort: f.int('排序', { max: 9999, list: true, width: 70, help: '数字小的排在前面' }),
  },
  access: { read: null, write: 'applet.plane' },
  order: [
    ['sort', 'asc'],
    ['id', 'asc'],
  ],
  unique: [
    { fields: ['code'], message: '已有相同简称的楼层' },
    { fields: ['name'], message: '已有同名楼层' },
  ],
  sortable: { field: 'sort', scope: [] },
  canUpdate: (before, after) =>
    after.code !== before.code
      ? { field: 'code', message: '楼层简称保存后不能修改（展厅按简称归属楼层），可修改楼层名称' }
      : null,
  describe: (r) => `${String(r.name ?? '')}（${String(r.code ?? '')}）`,
});

/** A position is both coordinates or neither. */
function positionProblem(r: Record<string, unknown>): FieldProblem | null {
  const x = r.mapX === null || r.mapX === undefined;
  const y = r.mapY === null || r.mapY === undefined;
  if (x === y) return null;
  return x
    ? { field: 'mapX', message: '请同时填写横向位置和纵向位置（或都不填）' }
    : { field: 'mapY', message: '请同时填写横向位置和纵向位置（或都不填）' };
}

export const museumHall = defineRecord({
  name: 'museumHall',
  title: '展厅',
  shape: 'catalog',
  table: 'museum_hall',
  base: '/bs/bsMuseumHall',
  calls: {
    list: 'GET list',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
    up: 'GET up',
    down: 'GET down',
  },
  fields: {
    name: f.text('展厅名称', { required: true, max: 30, list: true, keyword: true }),
    floor: f.text('所在楼层', { required: true, max: 10, list: true, filter: 'eq', width: 90 }),
    hallNo: f.text('展厅编号', { max: 20, list: true, keyword: true, width: 100, placeholder: '如 A101' }),
    openState: f.status('开放状态', HALL_STATES, { list: true, filter: 'eq', initial: 1, width: 90 }),
    mapX: f.int('横向位置（%）', {
      max: 100,
      width: 90,
      help: '在楼层平面图上距左边的距离，占图宽的百分比（0–100）；也可在地图上点选',
    }),
    mapY: f.int('纵向位置（%）', {
      max: 100,
      width: 90,
      help: '在楼层平面图上距上边的距离，占图高的百分比（0–100）',
    }),
    intro: f.textarea('简介', { max: 500 }),
    sort: f.int('排序', { max: 9999, list: true, width: 70, help: '数字小的排在前面' }),
  },
  access: { read: null, write: 'applet.plane' },
  order: [
    ['sort', 'asc'],
    ['id', 'asc'],
  ],
  unique: [{ fields: ['name'], message: '已有同名展厅' }],
  belongsTo: { record: 'museumFloor', field: 'floor', by: 'code' },
  sortable: { field: 'sort', scope: ['floor'] },
  check: positionProblem,
  describe: (r) => String(r.name ?? ''),
});
