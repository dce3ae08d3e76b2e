import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LogDetailQuery, LogFilter, LogListQuery, logExportName } from '../../../shared/api/syslog';
import type { Access } from '../auth/access';
import { contentDisposition } from '../drive/download';
import { museumStamp } from '../drive/time';
import type { Syslog } from './syslog.service';
import { logWorkbook } from './syslog.xlsx';

/** The 系统日志 page's grant, which only 审计员 may hold besides viviHignAdmin (shared/menu/reserved.ts). */
export const SYSTEM_LOG = 'system.log';

/**
 * /singleMuseum/sysLog/*: reading the system log (shared/api/syslog.ts). Reads only: there is
 * no call that edits or deletes an entry. The export is a GET (a plain link with the token
 * cookie downloads it) and is itself logged as 导出 by the capture hook.
 */
export function syslogRoutes(app: FastifyInstance, deps: { syslog: Syslog; access: Access }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { syslog, access } = deps;

  r.get('/sysLog/pageList', { schema: { querystring: LogListQuery } }, async (req) => {
    await access.require(req.user, SYSTEM_LOG);
    return syslog.list(req.query);
  });
  r.get('/sysLog/detail', { schema: { querystring: LogDetailQuery } }, async (req) => {
    await access.require(req.user, SYSTEM_LOG);
    return syslog.detail(req.query.id);
  });
  r.get('/sysLog/options', async (req) => {
    await access.require(req.user, SYSTEM_LOG);
    return syslog.options();
  });
  r.get('/sysLog/export', { schema: { querystring: LogFilter } }, async (req, reply) => {
    await access.require(req.user, SYSTEM_LOG);
    const pages = await syslog.exportRows(req.query);
    return reply
      .header('content-disposition', contentDisposition(logExportName(museumStamp(Date.now()))))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .send(logWorkbook(pages));
  });
}
