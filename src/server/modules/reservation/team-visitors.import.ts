import { issueText } from '../../../shared/api/messages';
import { Visitors, type VisitorInput } from '../../../shared/api/reservation';
import type { ImportError } from '../../../shared/records/api';
import { ID_TYPES } from '../../../shared/records/reservation/orders';
import { cellText } from '../../records/cells';
import type { ImportScheme } from '../../records/records.import';
import type { ReservationService } from './reservation.service';

/**
 * Teams' name lists by batch import (schemeId `appointTeamVisitors`, 团队预约's grant;
 * research/records-design.md §7.5 "or an xlsx import via scheme/batchImport"): one row per
 * person, with the team's 预约号, so a travel agency's or a school's list of 50 is not typed
 * by hand. One file may hold several teams. Each row is checked as the form checks a visitor
 * (name, paper, the ID's check digit), then each team's list as the team's form does
 * (reservation.service importTeamVisitors); all or nothing with 1004. A team's new list replaces
 * the old one.
 */

const COLUMNS = [
  {
    key: 'orderNo',
    header: '预约号',
    required: true,
    text: true,
    note: '团队预约的预约号，如 T2026120112345678',
  },
  { key: 'name', header: '姓名', required: true, text: true },
  {
    key: 'idType',
    header: '证件类型',
    options: ID_TYPES.map((o) => o.label),
    note: '不填即为居民身份证',
  },
  {
    key: 'idNumber',
    header: '证件号码',
    required: true,
    text: true,
    note: '居民身份证须为 18 位，末位可为 X',
  },
];
const LABELS: Record<string, string> = Object.fromEntries(COLUMNS.map((c) => [c.key, c.header]));

const OneVisitor = Visitors(1);

export function teamVisitorsScheme(deps: { reservations: ReservationService }): ImportScheme {
  return {
    id: 'appointTeamVisitors',
    title: '团队人员名单',
    perm: 'order.orderTeam',
    replaceable: false,
    hint: '团队人员名单导入模板：从第 2 行起每行一人，填写团队的预约号；每个团队的人数须与总人数一致，导入后替换该团队原有名单。',
    columns: async () => COLUMNS,
    async run(rows, ctx) {
      const errors: ImportError[] = [];
      const teams = new Map<string, { orderNo: string; firstRow: number; visitors: VisitorInput[] }>();
      for (const r of rows) {
        const text = (k: string) => cellText(r.cells[k]);
        const typeWord = text('idType');
        const idType = typeWord ? ID_TYPES.find((o) => o.label === typeWord)?.value : 1;
        if (!idType) {
          errors.push({
            row: r.row,
            column: '证件类型',
            message: `证件类型“${typeWord}”不可用，可选：${ID_TYPES.map((o) => o.label).join('、')}`,
          });
          continue;
        }
        const parsed = OneVisitor.safeParse([{ name: text('name'), idType, idNumber: text('idNumber') }]);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          errors.push({
            row: r.row,
            column: LABELS[String(issue.path[1] ?? '')] ?? '',
            message: issueText(issue),
          });
          continue;
        }
        const orderNo = text('orderNo').toUpperCase();
        const team = teams.get(orderNo) ?? { orderNo, firstRow: r.row, visitors: [] };
        team.visitors.push(parsed.data[0]!);
        teams.set(orderNo, team);
      }
      if (errors.length) return { errors };
      return deps.reservations.importTeamVisitors(ctx.user, [...teams.values()]);
    },
  };
}
