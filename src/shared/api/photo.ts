import { z } from 'zod';
import { addRecordLabels } from './labels';

/**
 * Image search (以图搜图, /photo/search; issue 24, README "Image search"). The spec names no
 * calls; these are ours, under /singleMuseum/photo:
 *
 * - POST searchByImage?source=: the body is one picture (content type image/*, JPEG, PNG, WebP
 *   or GIF, at most PHOTO_QUERY_MAX bytes). Answers the museum's images most like it, best
 *   first, each with its similarity; only those within PHOTO_MAX_DISTANCE bits, at most
 *   PHOTO_MAX_HITS.
 * - GET search?keyword=&takenFrom=&takenTo=&source=&currentPage=&pageCount=: the same images by
 *   file name, keywords (XMP tags), the collection record's fields and the date taken, newest
 *   taken first.
 *
 * Searched: the 高清图片 and 其他资源 libraries (every member of staff reads them) and the
 * images of the collection records the caller may read. Never anyone's personal drive.
 */

/** The most bytes a query picture may have: a phone photo or a scan's export, not a TIFF master. */
export const PHOTO_QUERY_MAX = 20 * 1024 * 1024;
/** Bits (of 64) a match may differ by; beyond it two pictures are not the same picture. */
export const PHOTO_MAX_DISTANCE = 12;
/** The most matches a picture search answers. */
export const PHOTO_MAX_HITS = 24;

export const PHOTO_MSG = {
  empty: '请选择要搜索的图片',
  tooBig: `图片过大，不能超过 ${PHOTO_QUERY_MAX / 1024 / 1024} MB，请压缩或截取后再搜索`,
  notImage: '无法识别该图片，请使用 JPEG、PNG、WebP 或 GIF 格式的图片',
  forbidden: '无权限使用以图搜图，请联系管理员开通',
  badRange: '拍摄日期的开始不能晚于结束',
} as const;

export const PHOTO_SOURCES = ['all', 'collection', 'hd', 'res'] as const;
export type PhotoSource = (typeof PHOTO_SOURCES)[number];
export const PHOTO_SOURCE_LABEL: Record<PhotoSource, string> = {
  all: '全部',
  collection: '藏品资料',
  hd: '高清图片',
  res: '其他资源',
};

const Source = z
  .enum(PHOTO_SOURCES, { error: '搜索范围只能是全部、藏品资料、高清图片或其他资源' })
  .default('all');
const Day = (label: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label}格式应为 yyyy-MM-dd`)
    .optional()
    .or(z.literal('').transform(() => undefined));

export const PhotoImageQuery = z.object({ source: Source });
export const PhotoTextQuery = z.object({
  keyword: z.string().max(100, '关键词不能超过 100 个字').optional(),
  takenFrom: Day('拍摄日期（起）'),
  takenTo: Day('拍摄日期（止）'),
  source: Source,
  currentPage: z.coerce.number('页码必须是数字').int().min(1).default(1),
  pageCount: z.coerce.number('每页条数必须是数字').int().min(1).max(100, '每页最多 100 条').default(24),
});
addRecordLabels({ source: '搜索范围', takenFrom: '拍摄日期（起）', takenTo: '拍摄日期（止）' });

export const PhotoHit = z.object({
  /** Where the image is: a library file, or a collection record's image. */
  source: z.enum(['collection', 'hd', 'res']),
  /** A library's file (thumbnail and preview through the drive's calls), else null. */
  userFileId: z.number().nullable(),
  /** A collection record's image (attach/image), else null. */
  attachmentId: z.number().nullable(),
  fileName: z.string(),
  extendName: z.string(),
  filePath: z.string(),
  /** Picture search: 0–100 (64 bits, the share that agree); null in a text search. */
  similarity: z.number().nullable(),
  /** Picture search: differing bits of the best of the stored hashes. */
  distance: z.number().nullable(),
  takenAt: z.number().nullable(),
  tags: z.array(z.string()),
  imageWidth: z.number().nullable(),
  imageHeight: z.number().nullable(),
  /** The collection record the image belongs to. */
  record: z.object({ id: z.number(), name: z.string(), code: z.string() }).nullable(),
});
export type PhotoHit = z.infer<typeof PhotoHit>;
export const PhotoResult = z.object({ list: z.array(PhotoHit), total: z.number() });
export type PhotoResult = z.infer<typeof PhotoResult>;
