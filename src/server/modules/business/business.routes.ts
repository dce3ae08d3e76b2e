import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DeptSummary, Overview, OverviewQuery, SummaryQuery } from '../../../shared/api/business';
import type { BusinessService } from './business.service';

/** /singleMuseum/businessData/summary and overview (shared/api/business.ts). */
export function businessRoutes(app: FastifyInstance, deps: { business: BusinessService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/businessData/summary',
    {
      schema: { querystring: SummaryQuery },
      config: { summary: '业务数据 · 部门月度汇总', answer: DeptSummary },
    },
    async (req) => deps.business.summary(req.user, req.query),
  );
  r.get(
    '/businessData/overview',
    {
      schema: { querystring: OverviewQuery },
      config: { summary: '业务数据 · 全馆月度概览', answer: Overview },
    },
    async (req) => deps.business.overview(req.user, req.query),
  );
}
