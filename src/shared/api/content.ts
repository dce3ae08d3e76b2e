import { z } from 'zod';
import { Id } from './fields';

/**
 * The hand-written calls of the website and mini-program content (spec §7 `/bs/bsExhibition`
 * spList, spSave): an exhibition's related videos and goods (bsRelation rows), read and replaced
 * at once. Each relation row is also served by the engine (`/bs/bsRelation/…`,
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
