import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { POSTER_MAX, PosterQuery } from '../../../shared/api/drive';
import { invalid } from '../../errors';
import { DONE } from '../../plugins/envelope';
import type { Areas } from './area';
import type { MediaService } from './media.service';
import { POSTER_BAD, POSTER_BIG, POSTER_EMPTY } from './thumbs';

/**
 * POST /wangpan/filetransfer/poster?userFileId=…: the body is one JPEG, PNG or WebP frame the
 * browser captured from a video (content type image/*, at most POSTER_MAX bytes). Registered in
 * its own context: the image body parser and the error wording below reach no other route.
 */
export function posterRoutes(app: FastifyInstance, deps: { media: MediaService; areas: Areas }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  app.addContentTypeParser(/^image\//i, { parseAs: 'buffer', bodyLimit: POSTER_MAX }, (_req, body, done) =>
    done(null, body),
  );
  // The body parser's own refusals, in words about posters; everything else goes on to the
  // envelope's handler unchanged.
  app.setErrorHandler((err) => {
    const code = (err as { code?: string }).code;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw invalid(POSTER_BIG);
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw invalid(POSTER_BAD);
    throw err;
  });

  r.post(
    '/filetransfer/poster',
    { schema: { querystring: PosterQuery }, bodyLimit: POSTER_MAX },
    async (req) => {
      const body: unknown = req.body;
      if (body === undefined || body === null) throw invalid(POSTER_EMPTY);
      if (!Buffer.isBuffer(body)) throw invalid(POSTER_BAD);
      await deps.media.setPoster(await deps.areas.manage(req.user, req.query), req.query.userFileId, body);
      return DONE;
    },
  );
}
