import { z } from 'zod';
import { Id } from './fields';

/**
 * The hand-written calls of the website and mini-program content (spec §7 `/bs/bsExhibition`
 * spList, spSave, wenwuList, wenwuSave): an exhibition's related videos and goods, and its
 * exhibits from the collection (bsRelation rows), each set read and replaced at once. Each relation row is also served by the engine (`/bs/bsRelation/…`,
 * `relationdelete`).
 */

export const SpListQuery = z.object({ id: Id });

export const SpItem = z.object({
  subTable: z.enum(['AudioVideo', 'bsCulturalcreative'], {
    error: () => '关联内容类型只能是 AudioVideo（音视频）或 bsCulturalcreative（文创产品）',
  }),
  subId: Id,
  note: z.string().trim().max(200, '说明不能超过 200 个字符').optional(),
});

export const SpSaveBody = z.object({
  id: Id,
  items: z
    .array(SpItem, { error: () => '请提供关联内容列表（可以为空）' })
    .max(200, '一个展览最多关联 200 条内容'),
});

export const SpList = z.object({
  list: z.array(
    z.object({
      id: z.number(),
      subTable: z.string(),
      subId: z.number(),
      sort: z.number(),
      note: z.string(),
      title: z.string(),
      /** The related row's publish state (null: it was deleted since). */
      status: z.number().nullable(),
    }),
  ),
});
export type SpList = z.infer<typeof SpList>;

/** wenwuSave: the exhibition's exhibits, 藏品 by id, in the order visitors meet them. */
export const WenwuSaveBody = z.object({
  id: Id,
  items: z
    .array(
      z.object({
        subId: Id,
        note: z.string().trim().max(200, '说明不能超过 200 个字符').optional(),
      }),
      { error: () => '请提供展品列表（可以为空）' },
    )
    .max(500, '一个展览最多关联 500 件展品'),
});

/** wenwuOptions: 藏品 an exhibition editor may pick, by 名称 or 总登记号. */
export const WenwuOptionsQuery = z.object({
  keyword: z.string().trim().max(50, '搜索词不能超过 50 个字符').optional().default(''),
});
export const WenwuOptions = z.object({
  list: z.array(z.object({ id: z.number(), name: z.string(), registerNo: z.string(), era: z.string() })),
});
export type WenwuOptions = z.infer<typeof WenwuOptions>;
