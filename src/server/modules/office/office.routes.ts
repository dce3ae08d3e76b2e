import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CreateOfficeBody,
  OFFICE_EDIT_SAVE_MAX,
  OFFICE_SAVE_MSG,
  OfficeFileBody,
  SaveOfficeQuery,
  SignedQuery,
} from '../../../shared/api/office';
import { invalid } from '../../errors';
import type { BlobStore } from '../../storage/blob-store';
import type { Areas } from '../drive/area';
import { FILE_ANSWER, sendDownload } from '../drive/download';
import type { OfficeService } from './office.service';

/**
 * /wangpan/office calls (spec/drive.md §7; shapes in shared/api/office.ts). The first four need
 * a session like every drive call; `document` and `callback` are called by the Document Server,
 * which has none: each carries its own signed token instead (office.service.ts).
 */
export function officeRoutes(
  app: FastifyInstance,
  deps: { office: OfficeService; areas: Areas; store: BlobStore },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { office, areas } = deps;

  r.get('/office/config', async () => office.info());

  r.post('/office/createofficefile', { schema: { body: CreateOfficeBody } }, async (req) =>
    office.create(await areas.manage(req.user, req.body), req.body),
  );

  // Editing needs the right to change the file; viewing only the right to read it.
  r.post('/office/editofficefile', { schema: { body: OfficeFileBody } }, async (req) =>
    office.editor(
      await areas.manage(req.user, req.body),
      req.user,
      req.body.userFileId,
      'edit',
      req.body.mobile,
    ),
  );
  r.post('/office/previewofficefile', { schema: { body: OfficeFileBody } }, async (req) =>
    office.editor(
      await areas.read(req.user, req.body),
      req.user,
      req.body.userFileId,
      'view',
      req.body.mobile,
    ),
  );

  r.get(
    '/office/document',
    { ...FILE_ANSWER, schema: { querystring: SignedQuery }, config: { public: true } },
    async (req, reply) => sendDownload(req, reply, await office.document(req.query.t), deps.store),
  );

  // The Document Server reads only `{"error":0}`; anything else means "not saved" to it. The
  // answer is sent as text so the envelope never wraps it, and its status tells our logs why.
  r.post('/office/callback', { config: { public: true }, bodyLimit: 8 * 1024 * 1024 }, async (req, reply) => {
    const t = (req.query as Record<string, unknown>).t;
    const answer =
      typeof t === 'string' && t.length <= 4096
        ? await office.callback(t, req.body, req.headers.authorization)
        : { httpStatus: 403, error: 1 as const, reason: 'callback without its token' };
    if (answer.reason) req.log.warn({ reason: answer.reason }, 'office callback refused');
    return reply
      .code(answer.httpStatus)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify({ error: answer.error }));
  });
}

/**
 * POST /wangpan/office/savefile?userFileId=…&baseMd5=…(&area flags)(&asCopy=1): the bytes of a
 * document edited in the browser, as `application/octet-stream` (at most OFFICE_EDIT_SAVE_MAX).
 * The rights are file/update's (areas.manage). Registered in its own context: the body parser
 * and the wording of its refusals reach no other route. The body is read whole before the
 * handler runs, so an Idempotency-Key replay answers without touching the drive.
 */
export function officeSaveRoutes(app: FastifyInstance, deps: { office: OfficeService; areas: Areas }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: OFFICE_EDIT_SAVE_MAX },
    (_req, body, done) => done(null, body),
  );
  app.setErrorHandler((err) => {
    const code = (err as { code?: string }).code;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw invalid(OFFICE_SAVE_MSG.tooLarge);
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw invalid(OFFICE_SAVE_MSG.badType);
    throw err;
  });

  r.post(
    '/office/savefile',
    { schema: { querystring: SaveOfficeQuery }, bodyLimit: OFFICE_EDIT_SAVE_MAX },
    async (req) => {
      const body: unknown = req.body;
      if (body === undefined || body === null) throw invalid(OFFICE_SAVE_MSG.empty);
      if (!Buffer.isBuffer(body)) throw invalid(OFFICE_SAVE_MSG.badType);
      const area = await deps.areas.manage(req.user, req.query);
      const saved = await deps.office.save(area, req.user, req.query, body);
      req.log.info(
        {
          userFileId: req.query.userFileId,
          area: area.kind,
          bytes: body.length,
          savedAs: saved.userFileId,
          conflict: saved.conflict,
          changed: saved.changed,
        },
        'office file saved from the browser',
      );
      return saved;
    },
  );
}
