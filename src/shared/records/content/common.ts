import {
  f,
  withField,
  type Field,
  type Fields,
  type Grant,
  type StatusOption,
  type Transition,
} from '../define';

/**
 * What every website and mini-program content record shares (issue 23; research/records-design.md
 * §1, §5; README "Website and mini-program content"): the publish states, the publish and
 * take-down transitions, the common fields, the menu grants of the pages that edit them, and the
 * rules for links (pure; the server reads the allow-list and applies them, see
 * src/server/modules/content/).
 */

/** 0 草稿 · 1 已发布 · 2 已下架 (records-design §1; the public sees 1 only). */
export const CONTENT_STATES: readonly StatusOption[] = [
  { value: 0, label: '草稿', color: 'gray' },
  { value: 1, label: '已发布', color: 'green' },
  { value: 2, label: '已下架', color: 'orange' },
];

/** Published: the one state visitors see (inside a display window where the record has one). */
export const PUBLISHED = 1;

/**
 * 发布 (from a draft or a row taken down; stamps publishTime) and 下架. Calls ours (the spec
 * names no publish call under /bs): `POST publish`, `POST takeDown`.
 */
export const contentPublishing = (): Record<string, Transition> => ({
  publish: {
    label: '发布',
    from: [0, 2],
    to: 1,
    set: (_row, _input, now) => ({ publishTime: now }),
    confirm: '发布后观众即可在小程序和官网上看到这条内容，确定发布吗？',
  },
  takeDown: {
    label: '下架',
    from: [1],
    to: 2,
    confirm: '下架后观众将立即看不到这条内容，确定下架吗？',
    danger: true,
  },
});

/** The calls of every content record (spec §7 `/bs`): list, detail, delete, save, update; up/down. */
export const CONTENT_CALLS = {
  list: 'GET list',
  detail: 'GET detail',
  create: 'POST save',
  update: 'POST update',
  remove: 'GET delete',
  // Spec for bsCarousel; ours for the others (records-design §1 "sort" on every content row).
  up: 'GET up',
  down: 'GET down',
} as const;

/**
 * What a published, sorted content record shares (records-design §5: shape A + publish + sort):
 * the calls under `/bs/<name>`, 草稿/已发布/已下架 with 发布 and 下架, read by every content leaf,
 * listed by sort and named by its title. A record spreads it after its own name, title, table
 * and fields, giving who writes it and the fields its sort moves within (none: the whole table).
 */
export function publishedContent(name: string, write: Grant, scope: readonly string[] = []) {
  return {
    shape: 'catalog' as const,
    base: `/bs/${name}`,
    calls: CONTENT_CALLS,
    status: { field: 'status' },
    transitions: contentPublishing(),
    access: { read: ALL_CONTENT_GRANTS, write },
    sortable: { field: 'sort', scope },
    order: CONTENT_ORDER,
    describe: (r: Record<string, unknown>) => String(r.title ?? ''),
  };
}

/** The most covers a row holds (spec §5: "uploaded only from image files (multiple allowed)"). */
export const MAX_COVERS = 5;

/**
 * The common fields (records-design §5): title, covers (images only; the first is the one lists
 * show), summary, rich content, sort (smaller first; 9999 when left empty, so new rows go last),
 * status with publishTime, and the derived view count. English rows take longer text (Latin).
 */
export function contentFields(
  o: { en?: boolean; coverRequired?: boolean; titleLabel?: string } = {},
): Fields {
  const { en = false, coverRequired = true, titleLabel = '标题' } = o;
  return {
    title: f.text(en ? `${titleLabel}（英文）` : titleLabel, {
      required: true,
      max: en ? 200 : 100,
      list: true,
      keyword: true,
    }),
    cover: f.image('封面', {
      required: coverRequired,
      max: MAX_COVERS,
      help: `只能上传图片，最多 ${MAX_COVERS} 张，第一张用作列表封面`,
    }),
    summary: f.textarea('摘要', { max: en ? 500 : 200, keyword: true }),
    content: f.rich('正文'),
    sort: sortField(),
  };
}

/** 排序: smaller first; left empty it stores 9999, so a new row goes last (records-design §1). */
export function sortField(): Field {
  return withField(
    f.int('排序', { max: 9999, list: true, width: 70, help: '数字小的排在前面；不填排在最后' }),
    { empty: 9999 },
  );
}

/** status, publishTime and viewCount: set by the server, never by the form. */
export function publishFields(): Fields {
  return {
    status: f.status('状态', CONTENT_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: 0,
      width: 80,
    }),
    publishTime: f.datetime('发布时间', { form: false, list: true, filter: 'range', width: 150 }),
    viewCount: f.int('浏览量', { form: false, initial: 0, list: true, width: 80 }),
  };
}

/** Ordered by sort, then oldest first (so a new row with the same sort comes last). */
export const CONTENT_ORDER = [
  ['sort', 'asc'],
  ['id', 'asc'],
] as const;

/**
 * The menu leaves (src/shared/menu/catalogue.ts) whose pages edit each record: holding any one
 * of them lets a person read and write it. In the demo museum 信息管理员 (itAdmin, staff09 郑凯)
 * holds all three modules (小程序管理, 官网建设, 英文网站). A record another record's form picks
 * from (a video for a classroom) is also read by that form's pages.
 */
export const GRANTS = {
  carousel: [
    'applet.carousel',
    'applet.volunteer.carousel',
    'applet.volunteer.serviceCarousel',
    'applet.culturalCreation',
    'website.home',
    'website.cultural',
    'enWebsite.home',
  ],
  guide: ['applet.guide', 'applet.guideManagement', 'applet.showroom', 'applet.plane', 'website.showroom'],
  exhibition: ['applet.exhibition', 'applet.exhibitionManagement', 'website.exhibition'],
  enExhibition: ['enWebsite.exhibition'],
  digital: ['website.digital'],
  enDigital: ['enWebsite.threeD'],
  science: [
    'applet.learning.topics',
    'applet.learning.meeting',
    'applet.learning.monograph',
    'applet.learning.paper',
    'website.learning',
  ],
  classroom: ['applet.classroom', 'website.classroom'],
  media: ['applet.radioVideo', 'applet.videoType'],
  radio: ['applet.radioList'],
  cultural: ['applet.culturalCreation', 'website.cultural'],
  enCultural: ['enWebsite.cultural'],
  enNews: ['enWebsite.infoPublish'],
  enShowroom: ['enWebsite.showroom'],
} as const;

/** Every content leaf: a form of any content page may read what another links to (zhId, videos). */
export const ALL_CONTENT_GRANTS: readonly string[] = [...new Set(Object.values(GRANTS).flat())];

// ---------------------------------------------------------------------------------------------
// Links

/**
 * The allow-list of hosts content may link to and embed: a dictionary (collectDict) the
 * administrator keeps on 系统管理 › 数据字典, one enabled item per host (its value the host,
 * its name what the site is). An item `example.com` allows example.com and its subdomains.
 */
export const LINK_HOST_DICT = 'content_link_host';
export const LINK_HOST_PLACE = '系统管理 › 数据字典 › 内容外链白名单';

/** Whether `host` is an allowed host or a subdomain of one. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return allowed.some((a) => {
    const x = a.toLowerCase().trim();
    return x !== '' && (h === x || h.endsWith(`.${x}`));
  });
}

/**
 * Why a URL may not be linked or embedded (records-design §1: "HTTPS URLs only, on an
 * allow-list, for anything embedded"), or null. `label` names the field in the words.
 */
export function urlProblem(label: string, url: string, allowed: readonly string[]): string | null {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return `${label}“${url}”不是有效的网址，请填写以 https:// 开头的完整地址`;
  }
  if (u.protocol !== 'https:') return `${label}只能使用 https 地址，“${url}”不是，请改为 https:// 开头的地址`;
  if (u.username || u.password) return `${label}不能包含用户名或密码`;
  if (!hostAllowed(u.hostname, allowed))
    return `${label}的网站“${u.hostname}”不在外链白名单中，请联系管理员在“${LINK_HOST_PLACE}”中添加该域名`;
  return null;
}

/** A mini-program page path: `/pages/exhibition/detail?id=3` (letters, digits, _ and -; a simple query). */
const PAGE_PATH_RE = /^\/?[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*(\?[A-Za-z0-9_=&%.-]*)?$/;

export function pagePathProblem(label: string, v: string): string | null {
  return PAGE_PATH_RE.test(v.trim())
    ? null
    : `${label}须为小程序页面路径，如 /pages/exhibition/detail?id=3（只能包含字母、数字、_ - / 和查询参数）`;
}

/**
 * The records a link `table:id` (轮播图 → 内容详情) may point to: those with a detail a visitor
 * opens. Names as the definitions name them.
 */
export const LINKABLE_RECORDS: readonly string[] = [
  'bsExhibition',
  'bsDigitalExhibition',
  'bsGuideShowroom',
  'bsGuideUnit',
  'bsScience',
  'bsClassroom',
  'AudioVideo',
  'bsElecticWave',
  'bsCulturalcreative',
  'enExhibition',
  'enDigitalExhibition',
  'enCulturalcreative',
  'enNews',
  // The website's and the English website's own (website.ts).
  'bsArticle',
  'enRelic',
  'enActivity',
];

/** `bsExhibition:12` → { record, id }, or the words of what is wrong. */
export function parseContentRef(label: string, v: string): { record: string; id: number } | string {
  const m = /^([A-Za-z]+):(\d{1,10})$/.exec(v.trim());
  if (!m || !LINKABLE_RECORDS.includes(m[1]!) || Number(m[2]) < 1)
    return `${label}须为“内容类型:编号”，如 bsExhibition:12；内容类型可选：${LINKABLE_RECORDS.join('、')}`;
  return { record: m[1]!, id: Number(m[2]) };
}

/** Audio the guide and the radio play (by extension; the server checks the upload's). */
export const AUDIO_TYPES = ['mp3', 'm4a', 'aac', 'wav', 'ogg'] as const;
export const VIDEO_TYPES = ['mp4', 'webm', 'mov', 'm4v'] as const;
