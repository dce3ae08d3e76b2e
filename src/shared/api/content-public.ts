import { z } from 'zod';

/**
 * The public read API of the website and mini-program content (issue 23; README "Website and
 * mini-program content" › "Public read API and preview"): no sign-in, under
 * /singleMuseum/contentPublic/*, read-only. It answers published rows only (status 1 已发布),
 * inside their display window (a carousel row's 开始展示–结束展示; a chapter or unit only while
 * the showroom and chapter above it are published too), in their sort order, with paging, a
 * weak ETag (If-None-Match → 304) and a short public Cache-Control, limited per client address.
 * Nothing is cached on the server: every answer is read from the database, so a row taken down
 * on one instance is gone from every instance's next answer.
 */

export const CONTENT_PUBLIC_BASE = '/contentPublic';
/** The product's own visitor-eye preview of the mini-program home (phone size). */
export const CONTENT_PREVIEW_PATH = '/content-preview';

/** Per client address and minute, per call (the flood guard's per-address limit, shared through Redis). */
export const CONTENT_PUBLIC_READS_PER_MINUTE = 300;
/** Media (covers, galleries, audio and video with Range): a page shows many images at once. */
export const CONTENT_MEDIA_PER_MINUTE = 900;
/**
 * Browsers and CDNs may keep an answer this long without asking again (then they revalidate
 * with the ETag, which costs no body when nothing changed). The server itself never caches, so
 * a take-down is gone from the API at once; a visitor's copy is at most this old.
 */
export const CONTENT_PUBLIC_MAX_AGE = 30;
export const CONTENT_MEDIA_MAX_AGE = 60;

export const PAGE_SIZE_MAX = 50;
export const PAGE_SIZE_DEFAULT = 10;

/**
 * The kinds of content the API serves, by their public name, and which record answers each
 * language: `lang=en` reads the English rows (enExhibition …), `lang=zh` (the default) the Chinese
 * ones. A kind without a row for a language refuses that language.
 */
export const PUBLIC_KINDS = {
  carousel: { title: '轮播图', zh: 'bsCarousel', en: 'bsCarousel' },
  showroom: { title: '导览展厅', zh: 'bsGuideShowroom', en: 'enShowroom' },
  chapter: { title: '导览章节', zh: 'bsGuideChapter' },
  unit: { title: '导览单元', zh: 'bsGuideUnit' },
  exhibition: { title: '展览', zh: 'bsExhibition', en: 'enExhibition' },
  digital: { title: '数字展览', zh: 'bsDigitalExhibition', en: 'enDigitalExhibition' },
  science: { title: '学术研究', zh: 'bsScience' },
  classroom: { title: '博物馆课堂', zh: 'bsClassroom' },
  audioVideo: { title: '音视频', zh: 'AudioVideo' },
  radio: { title: '电台节目', zh: 'bsElecticWave' },
  cultural: { title: '文创产品', zh: 'bsCulturalcreative', en: 'enCulturalcreative' },
  news: { title: '英文资讯', en: 'enNews' },
  relic: { title: '数字文物', zh: 'bsDigitalRelic', en: 'enRelic' },
  volunteerStory: { title: '志愿者风采', zh: 'bsVolunteerStory' },
  // The website's own (content/website.ts): its articles by column, the milestones of 发展历程,
  // and the English website's events. The appraisal records are people's requests, never public.
  article: { title: '官网文章', zh: 'bsArticle' },
  course: { title: '发展历程', zh: 'bsCourse' },
  activity: { title: '活动', en: 'enActivity' },
} as const satisfies Record<string, { title: string; zh?: string; en?: string }>;
export type PublicKind = keyof typeof PUBLIC_KINDS;

/** A carousel with no position given: the language's home (1 小程序首页 · 5 英文官网首页). */
export const HOME_POSITION = { zh: 1, en: 5 } as const;

/** An exhibition's phase filter: 展出中 / 未开幕 / 已闭幕 by the museum day. */
export const PHASES = { now: '展出中', upcoming: '未开幕', closed: '已闭幕' } as const;
export type PhaseKey = keyof typeof PHASES;

/** A whole number from a query string, with the words a developer can act on. */
const int = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim())) : v),
    z
      .number({ error: () => `${label}须为 ${min}–${max} 之间的整数` })
      .int(`${label}须为 ${min}–${max} 之间的整数`)
      .min(min, `${label}须为 ${min}–${max} 之间的整数`)
      .max(max, `${label}须为 ${min}–${max} 之间的整数`),
  ) as unknown as z.ZodType<number, number | string>;

const Lang = z.enum(['zh', 'en'], { error: () => '语言（lang）只能是 zh（中文）或 en（英文）' }).optional();

export const PublicListQuery = z.object({
  lang: Lang,
  page: int('页码（page）', 1, 100_000).optional(),
  pageSize: int('每页条数（pageSize）', 1, PAGE_SIZE_MAX).optional(),
  /** Carousel: 1 小程序首页 · 2 志愿者首页 · 3 志愿服务页 · 4 官网首页 · 5 英文官网首页 · 6 文创页. */
  position: int('展示位置（position）', 1, 6).optional(),
  /** Exhibitions: now 展出中 · upcoming 未开幕 · closed 已闭幕. */
  phase: z
    .enum(['now', 'upcoming', 'closed'], {
      error: () => '展出状态（phase）只能是 now（展出中）、upcoming（未开幕）或 closed（已闭幕）',
    })
    .optional(),
  /** Chapters of a showroom. */
  showroomId: int('所属展厅（showroomId）', 1, 2_147_483_647).optional(),
  /** Units of a chapter. */
  chapterId: int('所属章节（chapterId）', 1, 2_147_483_647).optional(),
  /** A unit by the code on its wall label (scan or type to listen). */
  labelCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,20}$/, '展签编号（labelCode）只能由 1–20 位字母、数字或 - 组成')
    .optional(),
  /** 官网文章 by its column: 1 清宫文化 · 2 资讯 · 3 公告 · 4 制度建设. */
  column: int('栏目（column）', 1, 4).optional(),
  /** 学术研究 (1–4) and 英文资讯 (1 News · 2 Notice) by their category. */
  category: int('类别（category）', 1, 99).optional(),
});
export type PublicListInput = z.infer<typeof PublicListQuery>;

export const PublicDetailQuery = z.object({
  id: int('编号（id）', 1, 2_147_483_647),
  lang: Lang,
});

export const PublicHomeQuery = z.object({ lang: Lang });

export const PublicMediaQuery = z.object({ id: int('文件编号（id）', 1, 2_147_483_647) });

/** A file of a published row, as the API answers it: its public URL works without sign-in. */
export const PublicFile = z.object({
  id: z.number(),
  url: z.string(),
  name: z.string(),
  size: z.number(),
  /** image/png … for images; audio and video by their extension. */
  type: z.string(),
});
export type PublicFile = z.infer<typeof PublicFile>;

/**
 * One row as visitors see it: its public fields (never who made it or changed it, never its
 * state or internal counters), files as PublicFile lists, a `<field>Label` beside every coded
 * field, halls and videos expanded. Fields differ by kind, so the schema is open.
 */
export const PublicItem = z.looseObject({ id: z.number() });
export type PublicItem = { id: number } & Record<string, unknown>;

export const PublicPage = z.object({
  list: z.array(PublicItem),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export interface PublicPageAnswer<T = PublicItem> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

export const PublicHome = z.object({
  lang: z.enum(['zh', 'en']),
  carousel: z.array(PublicItem),
  exhibitions: z.array(PublicItem),
  showrooms: z.array(PublicItem),
});

/** The fields the preview page reads (a subset of what the API answers). */
export interface PublicCarouselItem {
  id: number;
  title: string;
  images: PublicFile[];
  linkType: number;
  linkValue: string;
}
export interface PublicExhibitionItem {
  id: number;
  title: string;
  summary: string;
  cover: PublicFile[];
  startDate: string;
  endDate: string | null;
  phase: PhaseKey;
  phaseLabel: string;
  exhTypeLabel: string;
}
export interface PublicShowroomItem {
  id: number;
  title: string;
  summary: string;
  cover: PublicFile[];
  audioId?: PublicFile[];
  audioSeconds?: number | null;
  hall?: { id: number; name: string; floor: string; hallNo: string } | null;
}
export interface PublicHomeAnswer {
  lang: 'zh' | 'en';
  carousel: PublicCarouselItem[];
  exhibitions: PublicExhibitionItem[];
  showrooms: PublicShowroomItem[];
}

/** How many of each the home answers. */
export const HOME_LIMITS = { carousel: 10, exhibitions: 10, showrooms: 20 } as const;
