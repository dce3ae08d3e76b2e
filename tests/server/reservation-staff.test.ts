import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { museumDate } from '../../src/shared/rules/museum-time';
import { startServer, type TestServer } from './harness';
import { M, personWithMenu } from './util';
import { idFor, jsonCalls } from './volunteer-util';
import { ALL_DAY_SETTINGS, clearOfDayEnd, DAY_END_WAIT_MS } from './reservation-util';

/**
 * The reservation staff screens' server calls (issue 21; README "Visitor reservations"):
 * 预约总览's xlsx export of each statistic (`AppointOrder/statExport`) — the same numbers as the
 * matching stat call, every bad period refused in words, the statistics' rights, and the export
 * written to the system log as 导出. The rules behind the numbers are reservations.test.ts's.
 */

let s: TestServer;
let admin: string;
const { post, ok, refused } = jsonCalls(() => s);
const get = (path: string, token = admin) => s.call('GET', path, { token });
let today: string;

/** The workbook an export answers, after checking it is one. */
async function workbook(path: string, token = admin) {
  const res = await fetch(s.url + path, { headers: { token } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('spreadsheetml');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  return { wb, disposition: decodeURIComponent(res.headers.get('content-disposition') ?? '') };
}
const rowsOf = (ws: ExcelJS.Worksheet) =>
  ws.getSheetValues().flatMap((r) => (Array.isArray(r) ? [r.slice(1) as unknown[]] : []));

// Today's tickets are booked throughout: not in the museum day's last minutes.
beforeAll(() => clearOfDayEnd(), DAY_END_WAIT_MS);
beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  today = museumDate(Date.now());
  ok(
    await post(`${M}/AppointSetting/save`, admin, {
      ...ALL_DAY_SETTINGS,
    }),
  );
  ok(
    await post(`${M}/AppointSettingTimes/save`, admin, {
      name: '全天',
      startTime: '00:00',
      endTime: '23:58',
      capacity: 20,
      weekdays: '1,2,3,4,5,6,7',
      enabled: true,
    }),
  );
  ok(await post(`${M}/AppointTicket/generate`, admin, { days: 2 }));
  const list = ok(await get(`${M}/AppointTicket/getList?date=${today}&dateFrom=${today}&dateTo=${today}`));
  const ticketId = list.list[0].id as number;
  // Three booked today: a man of 2000 and a woman of 1960 from Beijing admitted, one cancelled.
  const a = ok(
    await post(`${M}/AppointOrder/book`, admin, {
      ticketId,
      contactName: '王联系',
      contactPhone: '13800000001',
      visitors: [
        { name: '王男', idType: 1, idNumber: idFor('2000-03-07', 11) },
        { name: '李女', idType: 1, idNumber: idFor('1960-03-07', 12) },
      ],
    }),
  );
  ok(await post(`${M}/AppointOrder/finishAppoint`, admin, { verifyCode: a.verifyCode }));
  const b = ok(
    await post(`${M}/AppointOrder/book`, admin, {
      ticketId,
      contactName: '赵联系',
      contactPhone: '13800000002',
      visitors: [{ name: '赵某', idType: 1, idNumber: idFor('1995-01-01', 13) }],
    }),
  );
  ok(await post(`${M}/AppointOrder/cancel`, admin, { id: b.id, reason: '临时有事' }));
});
afterAll(async () => s?.close());

describe('statistics export', () => {
  it("answers a day's statistic as the chart's numbers, with region, age band and gender", async () => {
    const stat = ok(await get(`${M}/AppointOrder/dayStat?date=${today}`));
    const { wb, disposition } = await workbook(`${M}/AppointOrder/statExport?kind=day&date=${today}`);
    expect(disposition).toContain(`预约日统计-${today}.xlsx`);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['预约统计', '地区', '年龄段', '性别']);
    const main = rowsOf(wb.getWorksheet('预约统计')!);
    expect(main[0]![0]).toBe(`预约日统计 ${today}`);
    expect(main[1]).toEqual(['时段', '总名额', '个人已约', '入馆人数', '失约人数', '取消人数', '团队人数']);
    expect(main[2]).toEqual(['00:00–23:58', 20, 2, 2, 0, 1, 0]);
    expect(main[2]).toEqual([
      stat.labels[0],
      stat.capacity[0],
      stat.booked[0],
      stat.entered[0],
      stat.noShow[0],
      stat.cancelled[0],
      stat.teamPersons[0],
    ]);
    expect(main.at(-1)).toEqual(['合计', 20, 2, 2, 0, 1, 0]);
    expect(rowsOf(wb.getWorksheet('地区')!).slice(0, 3)).toEqual([
      ['地区', '入馆人数'],
      ['北京', 2],
      ['合计', 2],
    ]);
    const ages = rowsOf(wb.getWorksheet('年龄段')!);
    expect(ages).toContainEqual(['18–34岁', 1]);
    expect(ages).toContainEqual(['60岁及以上', 1]);
    const genders = rowsOf(wb.getWorksheet('性别')!);
    // idFor's serials 11 and 12: the 17th digit (1 odd, 2 even) gives 男 then 女.
    expect(genders.slice(1, 3)).toEqual([
      ['男', 1],
      ['女', 1],
    ]);
  });

  it('answers a week, a month and a year by their buckets', async () => {
    const week = rowsOf(
      (await workbook(`${M}/AppointOrder/statExport?kind=week&date=${today}`)).wb.worksheets[0]!,
    );
    expect(week[1]![0]).toBe('日期');
    expect(week.length).toBe(2 + 7 + 1);
    const month = today.slice(0, 7);
    const m = await workbook(`${M}/AppointOrder/statExport?kind=month&month=${month}`);
    expect(m.disposition).toContain(`预约月统计-${month}.xlsx`);
    const mrows = rowsOf(m.wb.worksheets[0]!);
    expect(mrows.find((r) => r[0] === today)?.slice(1, 4)).toEqual([20, 2, 2]);
    const year = Number(today.slice(0, 4));
    const y = rowsOf(
      (await workbook(`${M}/AppointOrder/statExport?kind=year&year=${year}`)).wb.worksheets[0]!,
    );
    expect(y[1]![0]).toBe('月份');
    expect(y.length).toBe(2 + 12 + 1);
    expect(y.at(-1)!.slice(0, 4)).toEqual(['合计', expect.any(Number), 2, 2]);
  });

  it('refuses a missing or bad period in words', async () => {
    const bad = async (q: string) => refused(await get(`${M}/AppointOrder/statExport?${q}`));
    expect(await bad('date=2026-12-01')).toContain('统计类型只能是');
    expect(await bad('kind=quarter&date=2026-12-01')).toContain('统计类型只能是');
    expect(await bad('kind=day')).toContain('请选择日期');
    expect(await bad('kind=week&date=2026-02-30')).toContain('日期须为有效日期');
    expect(await bad('kind=month&month=2026-13')).toContain('月份须为 yyyy-MM 格式');
    expect(await bad('kind=year')).toContain('请选择年份');
    expect(await bad('kind=year&year=1999')).toContain('年份须在 2000–2100 之间');
    expect(await bad('kind=year&year=abc')).toContain('年份必须是数字');
  });

  it('is for readers of the statistics only, and is written to the system log as 导出', async () => {
    const staff = await s.login('staff02');
    expect((await get(`${M}/AppointOrder/statExport?kind=day&date=${today}`, staff)).body.code).toBe(1005);
    await workbook(`${M}/AppointOrder/statExport?kind=day&date=${today}`);
    const log = ok(await get(`${M}/sysLog/pageList?action=导出&currentPage=1&pageCount=50`));
    const entry = log.list.find((l: { path: string }) => l.path === `${M}/AppointOrder/statExport`);
    expect(entry).toMatchObject({ action: '导出', module: '预约', result: 1 });
  });
});

describe('预约看板', () => {
  it("lets a person holding only 预约看板 read today's slots, and nothing of the orders", async () => {
    const { roleId } = ok(await post(`${M}/sysRole/save`, admin, { code: 'board', name: '看板值守' }));
    ok(await post(`${M}/sysRole/setMenus`, admin, { roleId, menuKeys: ['order.panel'] }));
    ok(
      await post(`${M}/sysUser/save`, admin, {
        account: 'board01',
        password: 'Abc@123',
        userName: '看板值守',
        phone: '',
        roleIds: [roleId],
      }),
    );
    const board = await s.login('board01', 'Abc@123');
    const stat = ok(await get(`${M}/AppointOrder/dayStat?date=${today}`, board));
    expect(stat.booked[0]).toBe(2);
    expect((await get(`${M}/AppointOrder/pageList`, board)).body.code).toBe(1005);
    expect((await get(`${M}/AppointOrderVisitor/getList`, board)).body.code).toBe(1005);
  });
});

describe("the children's experience hall (venue 2)", () => {
  it('has its own templates and tickets; one ID books each venue once a day', async () => {
    // The same hours as the museum's 全天: templates of different venues never overlap.
    ok(
      await post(`${M}/AppointSettingTimes/save`, admin, {
        name: '体验馆全天',
        startTime: '00:00',
        endTime: '23:58',
        capacity: 8,
        weekdays: '1,2,3,4,5,6,7',
        enabled: true,
        venue: 2,
      }),
    );
    // A second one of the same venue at the same hours still overlaps.
    expect(
      refused(
        await post(`${M}/AppointSettingTimes/save`, admin, {
          name: '体验馆重叠',
          startTime: '10:00',
          endTime: '11:00',
          capacity: 8,
          weekdays: '1,2,3,4,5,6,7',
          enabled: true,
          venue: 2,
        }),
      ),
    ).toContain('体验馆全天');
    expect(ok(await post(`${M}/AppointTicket/generate`, admin, { days: 2 })).made).toBe(3);
    const hall = ok(await get(`${M}/AppointTicket/getList?venue=2&dateFrom=${today}&dateTo=${today}`));
    expect(hall.list).toHaveLength(1);
    expect(hall.list[0]).toMatchObject({ venue: 2, totalSum: 8, surplusSum: 8 });
    const museum = ok(await get(`${M}/AppointTicket/getList?venue=1&dateFrom=${today}&dateTo=${today}`));
    expect(museum.list).toHaveLength(1);

    const mother = { name: '周妈妈', idType: 1, idNumber: idFor('1988-08-08', 41) };
    const child = {
      name: '周小宝',
      idType: 1,
      idNumber: idFor(`${Number(today.slice(0, 4)) - 6}-06-06`, 42),
    };
    const order = (ticketId: number, phone: string) =>
      post(`${M}/AppointOrder/book`, admin, {
        ticketId,
        contactName: '周妈妈',
        contactPhone: phone,
        visitors: [mother, child],
      });
    const inHall = ok(await order(hall.list[0].id, '13700000001'));
    // The same two people book the museum the same day: another venue.
    ok(await order(museum.list[0].id, '13700000002'));
    // But not the hall twice.
    expect(refused(await order(hall.list[0].id, '13700000003'))).toContain('同一证件每天只能预约一次');

    const orders = ok(await get(`${M}/AppointOrder/pageList?venue=2`));
    expect(orders.list.map((o: { id: number }) => o.id)).toEqual([inHall.id]);
    expect(orders.list[0].venue).toBe(2);
    const people = ok(await get(`${M}/AppointOrderVisitor/getList?venue=2`));
    expect(people.list.map((v: { name: string }) => v.name).sort()).toEqual(['周妈妈', '周小宝']);
    expect(ok(await get(`${M}/AppointTicket/load?id=${hall.list[0].id}`)).record.surplusSum).toBe(6);

    // Cancelling the hall's order frees the IDs for the hall only.
    ok(await post(`${M}/AppointOrder/cancel`, admin, { id: inHall.id, reason: '孩子生病' }));
    ok(await order(hall.list[0].id, '13700000004'));
    expect(refused(await order(museum.list[0].id, '13700000005'))).toContain('同一证件每天只能预约一次');
  });

  it('counts each venue apart in the statistics and their export, both together by default', async () => {
    const both = ok(await get(`${M}/AppointOrder/dayStat?date=${today}`));
    const main = ok(await get(`${M}/AppointOrder/dayStat?date=${today}&venue=1`));
    const hall = ok(await get(`${M}/AppointOrder/dayStat?date=${today}&venue=2`));
    expect(hall.labels).toEqual(['00:00–23:58']);
    // The hall: 8 places, the second booking of the mother and child standing, the first cancelled.
    expect(hall).toMatchObject({ capacity: [8], booked: [2], cancelled: [2], entered: [0] });
    expect(main.capacity).toEqual([20]);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sum(both.booked)).toBe(sum(main.booked) + sum(hall.booked));
    expect(sum(both.capacity)).toBe(28);
    expect(refused(await get(`${M}/AppointOrder/dayStat?date=${today}&venue=3`))).toContain('场馆');
    const { wb, disposition } = await workbook(`${M}/AppointOrder/statExport?kind=day&date=${today}&venue=2`);
    expect(disposition).toContain(`预约日统计-儿童体验馆-${today}.xlsx`);
    expect(rowsOf(wb.worksheets[0]!).at(-1)).toEqual(['合计', 8, 2, 0, 0, 2, 0]);
  });
});

describe("the children's hall's 预约设置", () => {
  it('lets its holder save the rules both venues share, and nobody without 基本信息 or it', async () => {
    const hallKeeper = await personWithMenu(s, 'hallsetting', ['applet.childrenHall.setting']);
    const other = await personWithMenu(s, 'hallvisitors', ['applet.childrenHall.listPerson']);
    ok(await post(`${M}/AppointSetting/save`, hallKeeper, { ...ALL_DAY_SETTINGS, notice: '请携带儿童证件' }));
    const saved = ok(await get(`${M}/AppointSetting/load`)).record as Record<string, unknown>;
    expect(saved.notice).toBe('请携带儿童证件');
    expect(refused(await post(`${M}/AppointSetting/save`, other, { ...ALL_DAY_SETTINGS }))).toBe(
      '无权限执行此操作，请联系管理员开通',
    );
  });
});
