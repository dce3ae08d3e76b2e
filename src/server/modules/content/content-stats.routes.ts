import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  TongjiDays,
  TongjiMonths,
  TongjiQuery,
  TongjiRecords,
  TongjiTop,
  TongjiTopQuery,
} from '../../../shared/api/content-stats';
import type { ContentStats } from './content-stats';

/**
 * 访问统计's calls under `/singleMuseum/bs/tongji/` (ours; README "View counts and 统计"): views
 * and plays of one site's content per museum day, per month, the rows viewed most and the totals
 * per record, for a range of museum days.
 */
export function contentStatsRoutes(app: FastifyInstance, deps: { stats: ContentStats }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { stats } = deps;
  const base = '/bs/tongji';
  r.get(
    `${base}/days`,
    {
      schema: { querystring: TongjiQuery },
      config: { summary: '访问统计 · 每天的浏览量与播放量（默认近 30 天）', answer: TongjiDays },
    },
    async (req) => stats.days(req.user, req.query.site, req.query),
  );
  r.get(
    `${base}/months`,
    {
      schema: { querystring: TongjiQuery },
      config: { summary: '访问统计 · 近 12 个月每月的浏览量与播放量', answer: TongjiMonths },
    },
    async (req) => stats.months(req.user, req.query.site, req.query),
  );
  r.get(
    `${base}/top`,
    {
      schema: { querystring: TongjiTopQuery },
      config: { summary: '访问统计 · 浏览最多的内容（默认前 10 条）', answer: TongjiTop },
    },
    async (req) => stats.top(req.user, req.query.site, req.query),
  );
  r.get(
    `${base}/records`,
    {
      schema: { querystring: TongjiQuery },
      config: { summary: '访问统计 · 各类内容的浏览量、播放量与合计', answer: TongjiRecords },
    },
    async (req) => stats.records(req.user, req.query.site, req.query),
  );
}
