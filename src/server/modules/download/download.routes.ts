import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdQuery } from '../../../shared/records/schemas';
import { downloadDoc } from '../../../shared/records/office/download-doc';
import { museumDate } from '../../../shared/rules/museum-time';
import type { Db } from '../../db/index';
import { notFound } from '../../errors';
import type { AttachService } from '../attach/attach.service';
import { contentDisposition } from '../drive/download';
import type { RecordService } from '../../records/records.service';
import * as records from '../../records/records.repo';
import { countDownload } from './download.repo';

const GONE = '该资料不存在或已下线，请刷新后重试';

/**
 * `GET /singleMuseum/bs/bsDataDownload/download?id=` (下载中心; the record's other calls are the
 * records engine's): sends the document's file as an attachment and counts the download on the
 * server, once per person per museum day (download_log's key). A reader sees only published
 * documents: a draft or one taken down answers like a missing one, for the row and its file. A
 * navigation (the cookie is enough, as for every download); counting twice is impossible, so it
 * needs no token header.
 */
export function downloadRoutes(
  app: FastifyInstance,
  deps: { db: Db; records: RecordService; attach: AttachService; now?: () => number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const now = deps.now ?? Date.now;
  r.get(
    `${downloadDoc.base}/download`,
    {
      schema: { querystring: IdQuery },
      // A download of a published document is in the system log (issue 18), like a share's.
      config: { summary: `${downloadDoc.title} · 下载（计入下载次数）`, audit: { action: '下载' } },
    },
    async (req, reply) => {
      const { conds } = await deps.records.readScope(downloadDoc, req.user);
      const row = await records.find(deps.db, downloadDoc, req.query.id, conds);
      const fileId = (row?.file as number[] | undefined)?.[0];
      if (!row || !fileId) throw notFound(GONE);
      const { row: file, open } = await deps.attach.openReadable(req.user, fileId, { image: false });
      const t = now();
      await countDownload(deps.db, row.id, req.user.id, museumDate(t), t);
      reply.header('content-disposition', contentDisposition(file.name));
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'private, no-cache');
      reply.header('content-length', String(file.size));
      reply.type('application/octet-stream');
      return reply.send(open());
    },
  );
}
