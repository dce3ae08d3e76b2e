import { defineRecord, f, type StatusOption, type Transition } from '../define';

/**
 * The publish states of records-design §1 (content, notices, news): 0 草稿, 1 已发布, 2 已下线.
 */
export const PUBLISH_STATES: readonly StatusOption[] = [
  { value: 0, label: '草稿', color: 'gray' },
  { value: 1, label: '已发布', color: 'green' },
  { value: 2, label: '已下线', color: 'orange' },
];

/**
 * Publishing as two transitions (records-design §2 A "publish"): 发布 from a draft or a row taken
 * down, stamping publishTime; 下线 takes a published row down. Any record with a `status` of
 * PUBLISH_STATES and a `publishTime` uses these.
 */
export const publishing = (): Record<string, Transition> => ({
  publish: {
    label: '发布',
    from: [0, 2],
    to: 1,
    set: (_row, _input, now) => ({ publishTime: now }),
    confirm: '发布后全馆同事都能看到，确定发布吗？',
  },
  takeDown: {
    label: '下线',
    from: [1],
    to: 2,
    confirm: '下线后同事将看不到这条内容，确定下线吗？',
    danger: true,
  },
});

/**
 * 工作动态 (馆内动态), museum news (records-design §8): what happened in the museum this week, written
 * by the office and read by everyone on /home/nbdt-list and the workbench. Drafts and rows taken
 * down are seen only by those who may publish (信息发布's grant): the repository adds
 * `status = 1` to every read by anyone else. The spec names only GET wkDynamic/delete; the other
 * calls are ours in the same style.
 */
export const wkDynamic = defineRecord({
  name: 'wkDynamic',
  title: '馆内动态',
  shape: 'catalog',
  table: 'wk_dynamic',
  base: '/wkDynamic',
  calls: {
    list: 'GET list',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
  },
  fields: {
    title: f.text('标题', { required: true, max: 100, list: true, keyword: true }),
    deptId: f.dept('发布部门', { list: true, filter: 'eq', width: 140 }),
    summary: f.textarea('摘要', { max: 200, keyword: true, help: '显示在列表与工作台上，不填则取正文开头' }),
    content: f.rich('正文', { required: true }),
    status: f.status('状态', PUBLISH_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: 0,
      width: 90,
    }),
    publishTime: f.datetime('发布时间', { form: false, list: true, filter: 'range', width: 150 }),
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
