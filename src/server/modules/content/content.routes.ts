import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SpList,
  SpListQuery,
  SpSaveBody,
  WenwuOptions,
  WenwuOptionsQuery,
  WenwuSaveBody,
} from '../../../shared/api/content';
import { bsExhibition } from '../../../shared/records/content/index';
import type { ContentService } from './content.service';

/**
 * The content calls the engine does not serve (spec §7): an exhibition's `spList` and
 * `spSave` (its videos and goods), `wenwuList` and `wenwuSave` (its exhibits from the
 * collection), and ours, `wenwuOptions` (the 藏品 an editor may pick).
 */
export function contentRoutes(app: FastifyInstance, deps: { content: ContentService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { content } = deps;
  r.get(
    `${bsExhibition.base}/spList`,
    {
      schema: { querystring: SpListQuery },
      config: { summary: '展览 · 关联的视频与文创（按顺序）', answer: SpList },
    },
    async (req) => content.spList(req.user, req.query.id),
  );
  r.post(
    `${bsExhibition.base}/spSave`,
    {
      schema: { body: SpSaveBody },
      config: {
        summary: '展览 · 保存关联的视频与文创（整体替换，按给出的顺序）',
        answer: z.object({ count: z.number() }),
      },
    },
    async (req) => content.spSave(req.user, req.body.id, req.body.items),
  );
  r.get(
    `${bsExhibition.base}/wenwuList`,
    {
      schema: { querystring: SpListQuery },
      config: { summary: '展览 · 展品（藏品，按顺序）', answer: SpList },
    },
    async (req) => content.wenwuList(req.user, req.query.id),
  );
  r.post(
    `${bsExhibition.base}/wenwuSave`,
    {
      schema: { body: WenwuSaveBody },
      config: {
        summary: '展览 · 保存展品（整体替换，按给出的顺序）',
        answer: z.object({ count: z.number() }),
      },
    },
    async (req) => content.wenwuSave(req.user, req.body.id, req.body.items),
  );
  r.get(
    `${bsExhibition.base}/wenwuOptions`,
    {
      schema: { querystring: WenwuOptionsQuery },
      config: {
        summary: '展览 · 可选为展品的藏品（按名称或总登记号搜索，最多 50 条）',
        answer: WenwuOptions,
      },
    },
    async (req) => content.wenwuOptions(req.user, req.query.keyword),
  );
}
