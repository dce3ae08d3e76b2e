import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SpList, SpListQuery, SpSaveBody } from '../../../shared/api/content';
import { bsExhibition } from '../../../shared/records/content/index';
import type { ContentService } from './content.service';

/**
 * The content calls the engine does not serve (spec §7): an exhibition's `spList` and
 * `spSave` (its videos and goods). wenwuList/wenwuSave wait for the collection records.
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
}
