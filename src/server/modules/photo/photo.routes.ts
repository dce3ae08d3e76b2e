import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  PHOTO_MSG,
  PHOTO_QUERY_MAX,
  PhotoImageQuery,
  PhotoResult,
  PhotoTextQuery,
} from '../../../shared/api/photo';
import { invalid } from '../../errors';
import type { PhotoService } from './photo.service';

/**
 * /singleMuseum/photo/search and searchByImage (shared/api/photo.ts). Registered in its own
 * context: the picture body parser and the wording of its refusals reach no other route.
 */
export function photoRoutes(app: FastifyInstance, deps: { photos: PhotoService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // A dropped file the browser cannot name comes as octet-stream; the bytes decide anyway.
  app.addContentTypeParser(
    /^(image\/|application\/octet-stream)/i,
    { parseAs: 'buffer', bodyLimit: PHOTO_QUERY_MAX },
    (_req, body, done) => done(null, body),
  );
  app.setErrorHandler((err) => {
    const code = (err as { code?: string }).code;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw invalid(PHOTO_MSG.tooBig);
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw invalid(PHOTO_MSG.notImage);
    if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') throw invalid(PHOTO_MSG.empty);
    throw err;
  });

  r.post(
    '/photo/searchByImage',
    {
      schema: { querystring: PhotoImageQuery },
      bodyLimit: PHOTO_QUERY_MAX,
      config: { summary: '以图搜图 · 按图片搜索', answer: PhotoResult },
    },
    async (req) => {
      const body: unknown = req.body;
      if (body === undefined || body === null) throw invalid(PHOTO_MSG.empty);
      if (!Buffer.isBuffer(body)) throw invalid(PHOTO_MSG.notImage);
      return deps.photos.searchByImage(req.user, req.query.source, body);
    },
  );
  r.get(
    '/photo/search',
    {
      schema: { querystring: PhotoTextQuery },
      config: { summary: '以图搜图 · 按名称、关键词、藏品信息与拍摄日期搜索', answer: PhotoResult },
    },
    async (req) => deps.photos.search(req.user, req.query),
  );
}
