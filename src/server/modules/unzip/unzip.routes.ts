import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { UnzipBody, UnzipJobQuery } from '../../../shared/api/unzip';
import type { Areas } from '../drive/area';
import type { UnzipService } from './unzip.service';

/** /wangpan unzip calls (shared/api/unzip.ts). Changing the drive takes manage rights on the area. */
export function unzipRoutes(app: FastifyInstance, deps: { unzip: UnzipService; areas: Areas }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post('/file/unzipfile', { schema: { body: UnzipBody } }, async (req) =>
    deps.unzip.start(await deps.areas.manage(req.user, req.body), req.user.id, req.body),
  );
  r.get('/file/unzipjob', { schema: { querystring: UnzipJobQuery } }, async (req) =>
    deps.unzip.job(req.user.id, req.query.jobId),
  );
  r.get('/file/unzipjobs', async (req) => deps.unzip.recent(req.user.id));
}
