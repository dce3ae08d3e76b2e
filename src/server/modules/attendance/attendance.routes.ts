import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MonthQuery, PersonQuery, YearQuery, exportName } from '../../../shared/api/attendance';
import { contentDisposition } from '../drive/download';
import type { AttendanceService } from './attendance.service';
import { departmentsWorkbook, monthWorkbook, personalWorkbook } from './attendance.xlsx';

/**
 * /singleMuseum/attendance/*: 考勤统计, 个人考勤, 部门汇总 and 个人汇总 (ours; the spec shows only
 * the pages). Rights are the service's (shared/api/attendance.ts states them). Exports are GETs,
 * so a plain link with the token cookie downloads them too.
 */
export function attendanceRoutes(app: FastifyInstance, deps: { attendance: AttendanceService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { attendance } = deps;

  const xlsx = (reply: FastifyReply, name: string, body: Buffer) =>
    reply
      .header('content-disposition', contentDisposition(name))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .send(body);

  r.get('/attendance/month', { schema: { querystring: MonthQuery } }, async (req) =>
    attendance.month(req.user, req.query),
  );
  r.get('/attendance/month/export', { schema: { querystring: MonthQuery } }, async (req, reply) =>
    xlsx(
      reply,
      exportName.month(req.query.month),
      await monthWorkbook(await attendance.month(req.user, req.query)),
    ),
  );
  r.get('/attendance/departments', { schema: { querystring: MonthQuery } }, async (req) =>
    attendance.departments(req.user, req.query.month),
  );
  r.get('/attendance/departments/export', { schema: { querystring: MonthQuery } }, async (req, reply) =>
    xlsx(
      reply,
      exportName.departments(req.query.month),
      await departmentsWorkbook(await attendance.departments(req.user, req.query.month)),
    ),
  );
  r.get('/attendance/person', { schema: { querystring: PersonQuery } }, async (req) =>
    attendance.person(req.user, req.query),
  );
  r.get('/attendance/personal', { schema: { querystring: YearQuery } }, async (req) =>
    attendance.personal(req.user, req.query.year),
  );
  r.get('/attendance/personal/export', { schema: { querystring: YearQuery } }, async (req, reply) => {
    const sheet = await attendance.personal(req.user, req.query.year);
    return xlsx(reply, exportName.personal(sheet.year, sheet.name), await personalWorkbook(sheet));
  });
}
