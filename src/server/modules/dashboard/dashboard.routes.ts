import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ActivityLine,
  DASHBOARD_BASE,
  ExhibitionLine,
  OAExhibitionList,
  RelicPie,
  RelicPieQuery,
  ServiceCount,
  TourLine,
  TourLineQuery,
  TourRecordId,
  TourRecordList,
  TourRecordListQuery,
  TourRecordSave,
} from '../../../shared/api/dashboards';
import { DONE } from '../../plugins/envelope';
import type { DashboardService } from './dashboard.service';

/**
 * The spec's applet dashboards (office.md §7, GET) under `/singleMuseum/applet/`, and the typed
 * 观众记录's own calls (ours). README "Dashboards and the workbench".
 */
export function dashboardRoutes(app: FastifyInstance, deps: { dashboards: DashboardService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { dashboards: d } = deps;
  const base = DASHBOARD_BASE;
  r.get(
    `${base}/culturarelic/pie`,
    {
      schema: { querystring: RelicPieQuery },
      config: { summary: '仪表盘 · 藏品按类别（或级别、保存状态）统计，前 9 类与其他', answer: RelicPie },
    },
    async (req) => d.relicPie(req.user, req.query.by),
  );
  r.get(
    `${base}/exhibition/ExhibitionLine`,
    {
      config: {
        summary: '仪表盘 · 近 12 个月每月在展的基本陈列与临时展览数，及每月观众人数',
        answer: ExhibitionLine,
      },
    },
    async (req) => d.exhibitionLine(req.user),
  );
  r.get(
    `${base}/exhibition/oAExhibitionList`,
    { config: { summary: '仪表盘 · 正在展出与即将开幕的展览', answer: OAExhibitionList } },
    async (req) => d.oaExhibitionList(req.user),
  );
  r.get(
    `${base}/socialEducational/activity`,
    { config: { summary: '仪表盘 · 近 12 个月每月的社教活动场次与参与人次', answer: ActivityLine } },
    async (req) => d.activity(req.user),
  );
  r.get(
    `${base}/volunteer/serviceCount`,
    { config: { summary: '仪表盘 · 在岗志愿者人数、本年服务时长与服务人数', answer: ServiceCount } },
    async (req) => d.serviceCount(req.user),
  );
  r.get(
    `${base}/tourRecord/tourLine`,
    {
      schema: { querystring: TourLineQuery },
      config: { summary: '仪表盘 · 观众人数：近 30 天每天或近 12 个月每月，按来源分列', answer: TourLine },
    },
    async (req) => d.tourLine(req.user, req.query),
  );
  r.get(
    `${base}/tourRecord/pageList`,
    {
      schema: { querystring: TourRecordListQuery },
      config: { summary: '观众记录 · 列表（入馆核验自动记录与手工补录）', answer: TourRecordList },
    },
    async (req) => d.tourList(req.user, req.query),
  );
  r.post(
    `${base}/tourRecord/save`,
    { schema: { body: TourRecordSave }, config: { summary: '观众记录 · 手工补录或闸机计数' } },
    async (req) => d.tourSave(req.user, req.body),
  );
  r.post(
    `${base}/tourRecord/delete`,
    { schema: { body: TourRecordId }, config: { summary: '观众记录 · 撤销一条手工录入的记录' } },
    async (req) => {
      await d.tourDelete(req.user, req.body.id);
      return DONE;
    },
  );
}
