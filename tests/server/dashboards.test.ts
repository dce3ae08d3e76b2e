import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthLabels } from '../../src/shared/rules/dashboards';
import { addDays, museumDate } from '../../src/shared/rules/museum-time';
import { startServer, type TestServer } from './harness';
import { M, personWithMenu } from './util';
import { idFor, jsonCalls } from './volunteer-util';
import { ALL_DAY_SETTINGS, clearOfDayEnd, DAY_END_WAIT_MS } from './reservation-util';
import { activityCalls } from './activity-util';

/**
 * The dashboards (issue 24; README "Dashboards and the workbench"): each call's numbers against
 * rows seeded here, 观众记录 written by admissions (individual, walk-in, team) exactly once even
 * when the gate's offline write is replayed, typed entries validated, and who may read and write.
 */

let s: TestServer;
let admin: string;
let clerk: string; // 入馆核验 only: reads visitor numbers, cannot type them
let stats: string; // 预约总览: types them
let plain: string; // the workbench only
let keeper: string; // 藏品资料
const { post, ok, refused } = jsonCalls(() => s);
const get = (path: string, token = admin) => s.call('GET', path, { token });
const A = `${M}/applet`;
let today: string;
let ticketId: number;
let serial = 300;
const adult = (name = '王参观') => ({ name, idType: 1, idNumber: idFor('1990-03-07', serial++) });
const child = (name = '王小童') => ({
  name,
  idType: 1,
  idNumber: idFor(`${Number(today.slice(0, 4)) - 8}-01-01`, serial++),
});
const loose = () => s.db as unknown as Kysely<any>;

async function line(q = '', token = admin) {
  return ok(await get(`${A}/tourRecord/tourLine${q}`, token));
}
const at = (l: { labels: string[] }, key: string) => l.labels.indexOf(key);

// Today's tickets are booked throughout: not in the museum day's last minutes.
beforeAll(() => clearOfDayEnd(), DAY_END_WAIT_MS);
beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  today = museumDate(Date.now());
  clerk = await personWithMenu(s, 'dashclerk', ['home.workbench', 'order.gate']);
  stats = await personWithMenu(s, 'dashstats', ['home.workbench', 'order.view']);
  plain = await personWithMenu(s, 'dashplain', ['home.workbench']);
  keeper = await personWithMenu(s, 'dashkeeper', ['home.workbench', 'resources.collection']);
  ok(await post(`${M}/AppointSetting/save`, admin, { ...ALL_DAY_SETTINGS, teamMinAdvanceDays: 0 }));
  ok(
    await post(`${M}/AppointSettingTimes/save`, admin, {
      name: '全天',
      startTime: '00:00',
      endTime: '23:58',
      capacity: 80,
      teamCapacity: 40,
      weekdays: '1,2,3,4,5,6,7',
      enabled: true,
    }),
  );
  ok(await post(`${M}/AppointTicket/generate`, admin, { days: 1 }));
  const list = ok(await get(`${M}/AppointTicket/getList?dateFrom=${today}&dateTo=${today}`));
  ticketId = list.list[0].id as number;
});
afterAll(async () => s?.close());

describe('tourRecord from admissions', () => {
  it('counts a booking admitted at the gate once, even when its offline write is replayed', async () => {
    const before = await line();
    const o = ok(
      await post(`${M}/AppointOrder/book`, admin, {
        ticketId,
        channel: 1,
        contactName: '王联系',
        contactPhone: '13800000011',
        visitors: [adult('甲'), adult('乙'), child('丙')],
      }),
    );
    const gateWrite = { orderId: o.id, deviceTime: Date.now() - 60_000, serverOffsetMs: 0 };
    const key = { 'Idempotency-Key': `gate-order-${o.id}` };
    const first = ok(await post(`${M}/AppointOrder/finishAppoint`, clerk, gateWrite, key));
    expect(first.admitted).toHaveLength(3);
    // The answer was lost; the outbox replays with the same key: the first answer, nothing new.
    const again = await post(`${M}/AppointOrder/finishAppoint`, clerk, gateWrite, key);
    expect(again.body.result).toEqual(first);
    // Replayed without its key (another tablet, or a cleared outbox): refused, not counted.
    expect(refused(await post(`${M}/AppointOrder/finishAppoint`, clerk, gateWrite))).toContain(
      '不能重复核销',
    );
    const after = await line();
    const i = at(after, today);
    expect(after.reserved[i] - before.reserved[i]).toBe(3);
    expect(after.minors[i] - before.minors[i]).toBe(1);
    expect(after.today - before.today).toBe(3);
    const rows = await s.db.selectFrom('tour_record').selectAll().where('ref_id', '=', o.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 1, count: 3, minor_count: 1, ref_table: 'appoint_order' });
  });

  it("counts a desk walk-in's booking as 现场, person by person as they enter", async () => {
    const before = await line();
    const o = ok(
      await post(`${M}/AppointOrder/book`, admin, {
        ticketId,
        channel: 3,
        contactName: '李现场',
        contactPhone: '13800000012',
        visitors: [adult('丁'), adult('戊')],
      }),
    );
    const visitors = ok(await get(`${M}/AppointOrderVisitor/getList?orderId=${o.id}`)).list as {
      id: number;
    }[];
    ok(
      await post(`${M}/AppointOrder/finishAppoint`, admin, { orderId: o.id, visitorIds: [visitors[0]!.id] }),
    );
    let now = await line();
    expect(now.walkIn[at(now, today)] - before.walkIn[at(before, today)]).toBe(1);
    ok(
      await post(`${M}/AppointOrder/finishAppoint`, admin, { orderId: o.id, visitorIds: [visitors[1]!.id] }),
    );
    now = await line();
    expect(now.walkIn[at(now, today)] - before.walkIn[at(before, today)]).toBe(2);
    expect(now.reserved[at(now, today)]).toBe(before.reserved[at(before, today)]);
  });

  it("counts a team's 实到人数 once, with its minors and one team", async () => {
    const before = await line();
    const team = ok(
      await post(`${M}/appointTeamOrder/save`, admin, {
        teamName: '实验小学四年级',
        unitName: '实验小学',
        teamType: 5,
        leaderName: '陈老师',
        leaderPhone: '13900001111',
        leaderIdType: 1,
        leaderIdNumber: idFor('1985-05-05', serial++),
        ticketId,
        visitorCount: 12,
        adultCount: 2,
        minorCount: 10,
      }),
    );
    ok(await post(`${M}/appointTeamOrder/approve`, admin, { id: team.id, result: 1, comment: '同意' }));
    const key = { 'Idempotency-Key': `team-order-${team.id}` };
    ok(await post(`${M}/appointTeamOrder/finishAppoint`, admin, { id: team.id, actualCount: 11 }, key));
    await post(`${M}/appointTeamOrder/finishAppoint`, admin, { id: team.id, actualCount: 11 }, key);
    expect(
      refused(await post(`${M}/appointTeamOrder/finishAppoint`, admin, { id: team.id, actualCount: 11 })),
    ).toContain('状态已变化');
    const after = await line();
    const i = at(after, today);
    expect(after.team[i] - before.team[i]).toBe(11);
    expect(after.minors[i] - before.minors[i]).toBe(10);
    expect(after.teams[i] - before.teams[i]).toBe(1);
    expect(after.total[i] - before.total[i]).toBe(11);
  });
});

describe('typed 观众记录 (手工补录, gate counters)', () => {
  const yesterday = () => addDays(today, -1);

  it('adds a typed count to its day and month, and lists it with who typed it', async () => {
    const before = await line();
    const r = ok(
      await post(`${A}/tourRecord/save`, stats, {
        date: yesterday(),
        source: 4,
        count: 50,
        minorCount: 5,
        teamCount: 2,
        remark: '网络中断期间纸质登记补录',
      }),
    );
    ok(
      await post(`${A}/tourRecord/save`, stats, {
        date: yesterday(),
        source: 3,
        count: '7',
        remark: '东门闸机',
      }),
    );
    const after = await line();
    const i = at(after, yesterday());
    expect(after.manual[i] - before.manual[i]).toBe(50);
    expect(after.walkIn[i] - before.walkIn[i]).toBe(7);
    expect(after.teams[i] - before.teams[i]).toBe(2);
    expect(after.sum.total - before.sum.total).toBe(57);
    const month = await line(`?by=month&date=${today}`);
    expect(month.labels).toEqual(monthLabels(today, 12));
    const m = month.labels.indexOf(yesterday().slice(0, 7));
    expect(month.manual[m]).toBeGreaterThanOrEqual(50);
    const list = ok(await get(`${A}/tourRecord/pageList?source=4`, clerk));
    expect(list.list[0]).toMatchObject({
      id: r.id,
      count: 50,
      remark: '网络中断期间纸质登记补录',
      createBy: 'dashstats',
    });
  });

  it('refuses bad entries in words, and nothing is counted', async () => {
    const before = await line();
    const bad = async (body: Record<string, unknown>) =>
      refused(
        await post(`${A}/tourRecord/save`, stats, {
          date: yesterday(),
          source: 4,
          count: 10,
          remark: '补录',
          ...body,
        }),
      );
    expect(await bad({ date: addDays(today, 1) })).toContain('日期不能晚于今天');
    expect(await bad({ date: addDays(today, -400) })).toContain('只能补录');
    expect(await bad({ date: '2026-02-30' })).toContain('日期格式应为 yyyy-MM-dd');
    expect(await bad({ source: 1 })).toContain('预约与团队入馆由核验自动记录');
    expect(await bad({ count: 0 })).toContain('人数不能小于 1');
    expect(await bad({ count: 2.5 })).toContain('人数必须是整数');
    expect(await bad({ count: 'abc' })).toContain('人数必须是数字');
    expect(await bad({ count: 200_000 })).toContain('人数不能超过 100000');
    expect(await bad({ minorCount: 11 })).toContain('未成年人数不能多于人数');
    expect(await bad({ teamCount: 11 })).toContain('团队数不能多于人数');
    expect(await bad({ remark: '  ' })).toContain('请填写说明');
    expect(await bad({ remark: '长'.repeat(201) })).toContain('说明最多 200 个字');
    expect((await line()).sum).toEqual(before.sum);
  });

  it('withdraws a typed row but never an admission', async () => {
    const r = ok(
      await post(`${A}/tourRecord/save`, stats, { date: today, source: 4, count: 9, remark: '误录' }),
    );
    const mid = await line();
    ok(await post(`${A}/tourRecord/delete`, stats, { id: r.id }));
    expect((await line()).today).toBe(mid.today - 9);
    expect(refused(await post(`${A}/tourRecord/delete`, stats, { id: r.id }))).toBe(
      '该观众记录不存在或已删除',
    );
    const auto = await s.db
      .selectFrom('tour_record')
      .select('id')
      .where('ref_table', '=', 'appoint_order')
      .executeTakeFirstOrThrow();
    expect(refused(await post(`${A}/tourRecord/delete`, stats, { id: auto.id }))).toContain('不能删除');
  });

  it('lets only 预约总览 type and withdraw, and reception staff and the office read', async () => {
    const body = { date: today, source: 4, count: 1, remark: '补录' };
    expect((await post(`${A}/tourRecord/save`, clerk, body)).body.code).toBe(1005);
    expect((await post(`${A}/tourRecord/save`, plain, body)).body.code).toBe(1005);
    expect((await get(`${A}/tourRecord/tourLine`, clerk)).body.success).toBe(true);
    expect((await get(`${A}/tourRecord/tourLine`, plain)).body.code).toBe(1005);
    expect((await get(`${A}/tourRecord/pageList`, plain)).body.code).toBe(1005);
    const office = await personWithMenu(s, 'dashoffice', ['home.workbench', 'oa.dataSummary']);
    expect((await get(`${A}/tourRecord/tourLine`, office)).body.success).toBe(true);
    expect((await get(`${A}/volunteer/serviceCount`, office)).body.success).toBe(true);
    expect(refused(await get(`${A}/tourRecord/tourLine?by=week`))).toContain('分组方式只能是');
    expect(refused(await get(`${A}/tourRecord/tourLine?date=2026-13-01`))).toContain('日期格式应为');
  });
});

describe('exhibitions', () => {
  beforeAll(async () => {
    const t = Date.now();
    const row = (title: string, exhType: number, start: string, end: string, status = 1) => ({
      title,
      exh_type: exhType,
      start_date: start,
      end_date: end,
      status,
      create_time: t,
      update_time: t,
    });
    const months = monthLabels(today, 12);
    await loose()
      .insertInto('bs_exhibition')
      .values([
        row('古代青铜器陈列', 1, '2010-01-01', ''),
        // Open the last three months only (临时展览), closing in 5 days.
        row('江南织造特展', 2, `${months[9]}-15`, addDays(today, 5)),
        row('巡回展：丝路', 3, `${months[0]}-01`, `${months[0]}-10`),
        // Opens after this month whatever today is (20 days on stayed in this month until the
        // 11th, and the test failed in the first ten days of a month).
        row('尚未开幕的瓷器展', 2, addDays(today, 40), addDays(today, 100)),
        row('线上展', 4, '2020-01-01', ''),
        row('草稿展览', 2, '2020-01-01', '', 0),
      ])
      .execute();
  });

  it('counts exhibitions open per month, 基本陈列 and 临时展览, with the visitors', async () => {
    const l = ok(await get(`${A}/exhibition/ExhibitionLine`, plain));
    expect(l.months).toEqual(monthLabels(today, 12));
    expect(l.permanent).toEqual(Array(12).fill(1));
    expect(l.temporary[0]).toBe(1); // 丝路, the first month only
    expect(l.temporary.slice(1, 9)).toEqual(Array(8).fill(0));
    expect(l.temporary.slice(9)).toEqual([1, 1, 1]); // 织造 (the coming one is not open yet)
    const tours = await line(`?by=month&date=${today}`);
    expect(l.visitors).toEqual(tours.total);
  });

  it('lists what is on now (closing soonest first) and what is coming', async () => {
    const l = ok(await get(`${A}/exhibition/oAExhibitionList`, plain));
    expect(l.today).toBe(today);
    expect(l.current.map((e: { title: string }) => e.title)).toEqual(['江南织造特展', '古代青铜器陈列']);
    expect(l.current[1]).toMatchObject({ typeLabel: '基本陈列', endDate: '' });
    expect(l.upcoming.map((e: { title: string }) => e.title)).toEqual(['尚未开幕的瓷器展']);
  });
});

describe('people and service counts', () => {
  it('counts volunteers in post and this year’s confirmed service', async () => {
    const t = Date.now();
    const base = { create_time: t, update_time: t, del_flag: 0 };
    await loose()
      .insertInto('volunteer_adult')
      .values([
        { ...base, name: '见习一', status: 1, volunteer_no: 'D1' },
        { ...base, name: '见习二', status: 1, volunteer_no: 'D2' },
        { ...base, name: '正式一', status: 2, volunteer_no: 'D3' },
        { ...base, name: '已退出', status: 3, volunteer_no: 'D4' },
        { ...base, name: '已删', status: 2, volunteer_no: 'D5', del_flag: 1 },
      ])
      .execute();
    await loose()
      .insertInto('volunteer_student')
      .values([
        { ...base, name: '学生一', status: 1, student_no: 'S1' },
        { ...base, name: '学生二', status: 2, student_no: 'S2' },
      ])
      .execute();
    const year = Number(today.slice(0, 4));
    const rec = (date: string, minutes: number, audience: number | null, status: number) => ({
      ...base,
      service_type: 1,
      service_date: date,
      start_time: '09:00',
      end_time: '10:00',
      service_minutes: minutes,
      audience_count: audience,
      status,
    });
    await loose()
      .insertInto('volunteer_service_record')
      .values([
        rec(`${year}-01-02`, 90, 30, 1),
        rec(today, 120, null, 1),
        rec(today, 60, 100, 0), // 待确认: not counted
        rec(`${year - 1}-12-31`, 240, 50, 1), // last year
      ])
      .execute();
    const c = ok(await get(`${A}/volunteer/serviceCount`));
    expect(c).toEqual({
      year,
      trainee: 2,
      regular: 1,
      students: 1,
      serviceMinutes: 210,
      served: 30,
      records: 2,
    });
    expect((await get(`${A}/volunteer/serviceCount`, plain)).body.code).toBe(1005);
  });
});

describe('collection (culturarelic/pie)', () => {
  it('counts the collection per 文物类别, the 9 largest and 其他, or by level', async () => {
    const t = Date.now();
    const rows: Record<string, unknown>[] = [];
    let n = 0;
    // Category k (1…11, the census dictionary's values) holds k objects; two left unfilled.
    for (let k = 1; k <= 11; k++)
      for (let i = 0; i < k; i++)
        rows.push({ category: String(k), level: k === 11 ? '1' : '4', preservation: '1' });
    rows.push({ category: '', level: '5', preservation: '' }, { category: '', level: '5', preservation: '' });
    rows.push({ category: '3', level: '1', preservation: '1', del_flag: 1 });
    // The demo museum's dozen objects (README "Collection") leave the count: deleted rows never count.
    await loose().updateTable('bs_digitalassets_info').set({ del_flag: 1 }).execute();
    await loose()
      .insertInto('bs_digitalassets_info')
      .values(
        rows.map((r) => ({
          del_flag: 0,
          ...r,
          register_no: `Z${String(n++).padStart(4, '0')}`,
          name: `藏品${n}`,
          create_time: t,
          update_time: t,
        })),
      )
      .execute();
    const words = (
      await s.db
        .selectFrom('dict_item')
        .select(['value', 'label'])
        .where('dict_key', '=', 'relic_category')
        .execute()
    ).reduce<Record<string, string>>((a, w) => ({ ...a, [w.value]: w.label }), {});
    const pie = ok(await get(`${A}/culturarelic/pie`, keeper));
    expect(pie.by).toBe('category');
    expect(pie.total).toBe(66 + 2);
    expect(pie.items).toEqual([
      ...[11, 10, 9, 8, 7, 6, 5, 4, 3].map((k) => ({ label: words[String(k)], value: k })),
      { label: '其他', value: 2 + 2 + 1 },
    ]);
    const level = ok(await get(`${A}/culturarelic/pie?by=level`, keeper));
    expect(level.items).toEqual([
      { label: '一般', value: 55 },
      { label: '一级', value: 11 },
      { label: '未定级', value: 2 },
    ]);
    expect(ok(await get(`${A}/culturarelic/pie?by=preservation`, keeper)).items[0]).toEqual({
      label: '状态稳定，不需修复',
      value: 66,
    });
    expect((await get(`${A}/culturarelic/pie`, plain)).body.code).toBe(1005);
    expect(refused(await get(`${A}/culturarelic/pie?by=era`, keeper))).toContain('分组方式只能是');
  });
});

describe('activities', () => {
  it("answer the activity module's own monthly numbers to social education, refuse others", async () => {
    const c = activityCalls(() => s);
    const educator = await s.login('staff10');
    const typeId = await c.addType(educator, '讲座');
    const id = await c.addActivity(educator, typeId, {
      startIn: -10,
      signupEnd: Date.now() + 60 * 60_000,
      total: 20,
    });
    await c.publish(educator, id);
    const a = ok(await c.sign(educator, id, '13500000001', 2)).id as number;
    ok(await c.sign(educator, id, '13500000002', 1));
    ok(await c.act(educator, 'checkIn', { id: a }));
    const act = ok(await get(`${A}/socialEducational/activity`, educator));
    expect(act.months).toEqual(monthLabels(today, 12));
    expect(act.activities[11]).toBe(1);
    expect(act.participants[11]).toBe(2);
    const own = ok(await get(`${M}/activity/statistic`, educator));
    expect(act.activities).toEqual(own.activities);
    expect(act.participants).toEqual(own.participants);
    expect((await get(`${A}/socialEducational/activity`, clerk)).body.code).toBe(1005);
  });
});
