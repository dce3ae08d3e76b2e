import { loadExcel } from '../../lazy';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { StatExportQuery, type StatExportInput } from '../../../shared/api/reservation-staff';
import { appointOrder, VENUES } from '../../../shared/records/reservation/orders';
import type { ReservationStat } from '../../../shared/records/reservation/stats';
import { sendXlsx } from '../../records/xlsx';
import type { ReservationService } from './reservation.service';

/**
 * 预约总览's xlsx export (`GET AppointOrder/statExport?kind=day&date=` …): the statistic the
 * chart shows, from the same `stat` call (so the sheet and the chart never disagree), as one
 * workbook of four sheets — the series by slot, day or month with a 合计 row, then region, age
 * band and gender. The path holds "export", so the system log records it as 导出 like every
 * other export (server/modules/syslog/classify.ts); the rights are the statistics' own.
 */

const KIND_WORDS = { day: '日', week: '周', month: '月', year: '年' } as const;
const BUCKET = { day: '时段', week: '日期', month: '日期', year: '月份' } as const;

/** The period (and venue, when one is asked for) the export names in its title and file name. */
export function periodOf(q: StatExportInput): string {
  const venue = VENUES.find((v) => v.value === q.venue)?.label;
  const period = q.kind === 'month' ? q.month! : q.kind === 'year' ? String(q.year) : q.date!;
  return venue ? `${venue}-${period}` : period;
}

export async function statWorkbook(q: StatExportInput, s: ReservationStat): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  wb.creator = '馆务云';
  const title = `预约${KIND_WORDS[q.kind]}统计 ${periodOf(q)}${q.kind === 'week' ? ' 所在周' : ''}`;
  const main = wb.addWorksheet('预约统计');
  main.addRow([title]).font = { bold: true, size: 13 };
  const head = [BUCKET[q.kind], '总名额', '个人已约', '入馆人数', '失约人数', '取消人数', '团队人数'];
  main.addRow(head).font = { bold: true };
  const series = [s.capacity, s.booked, s.entered, s.noShow, s.cancelled, s.teamPersons];
  s.labels.forEach((label, i) => main.addRow([label, ...series.map((x) => x[i] ?? 0)]));
  const sum = (x: number[]) => x.reduce((a, b) => a + b, 0);
  main.addRow(['合计', ...series.map(sum)]).font = { bold: true };
  main.getColumn(1).width = 16;
  for (let c = 2; c <= head.length; c++) main.getColumn(c).width = 11;
  main.views = [{ state: 'frozen', ySplit: 2 }];

  const split = (name: string, header: string, rows: [string, number][]) => {
    const ws = wb.addWorksheet(name);
    ws.addRow([header, '入馆人数']).font = { bold: true };
    for (const r of rows) ws.addRow(r);
    ws.addRow(['合计', rows.reduce((a, [, n]) => a + n, 0)]).font = { bold: true };
    ws.addRow([]);
    ws.addRow(['按已入馆、持居民身份证的参观人统计']).font = { italic: true, color: { argb: 'FF808080' } };
    ws.getColumn(1).width = 16;
    ws.getColumn(2).width = 11;
  };
  split(
    '地区',
    '地区',
    s.byProvince.map((p) => [p.name, p.count]),
  );
  split(
    '年龄段',
    '年龄段',
    s.byAgeBand.map((b) => [b.band, b.count]),
  );
  split(
    '性别',
    '性别',
    s.byGender.map((g) => [g.gender, g.count]),
  );
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export function reservationStatExportRoutes(
  app: FastifyInstance,
  deps: { reservations: ReservationService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    `${appointOrder.base}/statExport`,
    {
      schema: { querystring: StatExportQuery },
      config: { summary: '个人预约 · 导出统计（xlsx：日、周、月、年，含地区、年龄段、性别）' },
    },
    async (req, reply) => {
      const q = req.query as StatExportInput;
      const stat = await deps.reservations.stat(req.user, q.kind, q);
      const body = await statWorkbook(q, stat);
      return sendXlsx(reply, `预约${KIND_WORDS[q.kind]}统计-${periodOf(q)}.xlsx`, body);
    },
  );
}
