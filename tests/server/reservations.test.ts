import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, museumDate } from '../../src/shared/rules/museum-time';
import { startServer, type TestServer } from './harness';
import { importFile, template, xlsxOf } from './records-import-util';
import { M, attachUpload } from './util';
import { idFor, jsonCalls } from './volunteer-util';
import { ALL_DAY_SETTINGS, clearOfDayEnd, DAY_END_WAIT_MS } from './reservation-util';

/**
 * Visitor reservations (README "Visitor reservations"; research/records-design.md §7): ticket
 * generation, the booking's guards, the oversell race, one booking per ID per day (raced too),
 * cancellation giving places back, closing a booked slot, the capacity edit, the gate's
 * check-in, teams with their places and approval, and the no-show job feeding the black list.
 * The generic record suite covers the seven records' own calls; this file covers the rules.
 *
 * Times are the real clock's: the templates are all-day slots so today's ticket is inside its
 * arrival window whenever the suite runs (except in the last two minutes of a museum day).
 */

let s: TestServer;
let admin: string;
const { post, ok, refused } = jsonCalls(() => s);
const get = (path: string, token = admin) => s.call('GET', path, { token });

let today: string;
/** Ticket ids by `${date}|${template name}`. */
const tickets = new Map<string, number>();
const ticket = (day: string, name = '全天') => tickets.get(`${day}|${name}`)!;
let serial = 100;
/** A fresh adult visitor (a valid resident ID born 1990). */
const adult = (name = '王参观') => ({ name, idType: 1, idNumber: idFor('1990-03-07', serial++) });
/** A fresh child of 8 on the visit day. */
const child = (name = '王小童') => ({
  name,
  idType: 1,
  idNumber: idFor(`${Number(today.slice(0, 4)) - 8}-01-01`, serial++),
});
let phone = 13800000000;
const book = (ticketId: number, visitors: object[], token = admin) =>
  post(`${M}/AppointOrder/book`, token, {
    ticketId,
    contactName: '王联系',
    contactPhone: String(phone++),
    visitors,
  });
const ticketRow = async (id: number) => ok(await get(`${M}/AppointTicket/load?id=${id}`)).record;
const orderRow = async (id: number) => ok(await get(`${M}/AppointOrder/detail?id=${id}`)).record;
const orderDetail = async (base: string, id: number) => ok(await get(`${M}/${base}/detail?id=${id}`)).record;

// Today's tickets are booked throughout: not in the museum day's last minutes.
beforeAll(() => clearOfDayEnd(), DAY_END_WAIT_MS);
beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  today = museumDate(Date.now());
  // Open every day, same-day booking until 23:58; the rest of §7.1's defaults.
  ok(
    await post(`${M}/AppointSetting/save`, admin, {
      ...ALL_DAY_SETTINGS,
      noShowLimit: 2,
    }),
  );
  ok(
    await post(`${M}/AppointSettingTimes/save`, admin, {
      name: '全天',
      startTime: '00:00',
      endTime: '23:58',
      capacity: 10,
      weekdays: '1,2,3,4,5,6,7',
      enabled: true,
    }),
  );
  ok(
    await post(`${M}/AppointSettingTimes/save`, admin, {
      name: '团队场',
      startTime: '23:58',
      endTime: '23:59',
      capacity: 100,
      teamCapacity: 60,
      weekdays: '1,2,3,4,5,6,7',
      enabled: true,
    }),
  );
  // Ten days: the last two are beyond advanceDays (7), so not released yet.
  expect(ok(await post(`${M}/AppointTicket/generate`, admin, { days: 9 })).made).toBe(20);
  const list = ok(await get(`${M}/AppointTicket/getList?pageCount=200`));
  const names = list.names.refs.appointSettingTimes as Record<string, string>;
  for (const t of list.list) tickets.set(`${t.date}|${names[String(t.timeId)]}`, t.id);
});
afterAll(async () => s?.close());

describe('tickets', () => {
  it('are generated once per day and template, with the team places set aside', async () => {
    expect(ok(await post(`${M}/AppointTicket/generate`, admin, { days: 9 })).made).toBe(0);
    const t = await ticketRow(ticket(addDays(today, 1), '团队场'));
    expect(t).toMatchObject({ totalSum: 100, surplusSum: 40, teamTotal: 60, teamSurplus: 60, isOpen: true });
  });

  it('skip a closed weekday and a special closed day, and open a special open day', async () => {
    // Close every weekday but open one special day: only that day gets tickets.
    const open = addDays(today, 20);
    ok(
      await post(`${M}/AppointSetting/save`, admin, {
        openTime: '00:00',
        lastEntryTime: '23:58',
        closeTime: '23:59',
        closedWeekdays: '1,2,3,4,5,6,7',
        specialDates: [{ date: open, open: true, note: '特别开放' }],
        sameDayCutoffMinutes: 0,
        onePerIdPerDay: true,
        teamNeedsApproval: true,
        noShowLimit: 2,
      }),
    );
    expect(ok(await post(`${M}/AppointTicket/generate`, admin, { days: 25 })).made).toBe(2);
    const dates = ok(await get(`${M}/AppointTicket/getList?dateFrom=${addDays(today, 10)}`)).list.map(
      (t: { date: string }) => t.date,
    );
    expect([...new Set(dates)]).toEqual([open]);
    ok(
      await post(`${M}/AppointSetting/save`, admin, {
        ...ALL_DAY_SETTINGS,
        noShowLimit: 2,
      }),
    );
  });

  it('refuse a template whose times overlap another on a shared weekday', async () => {
    const r = await post(`${M}/AppointSettingTimes/save`, admin, {
      name: '下午场',
      startTime: '14:00',
      endTime: '16:00',
      capacity: 10,
      weekdays: '3',
      enabled: true,
    });
    expect(refused(r)).toContain('与时段“全天”');
  });
});

describe('booking', () => {
  it('never oversells: 30 bookings at once for 10 places leave exactly 10', async () => {
    const id = ticket(addDays(today, 1));
    const answers = await Promise.all(Array.from({ length: 30 }, () => book(id, [adult()])));
    const won = answers.filter((r) => r.body.success);
    expect(won).toHaveLength(10);
    for (const r of answers.filter((x) => !x.body.success))
      expect(r.body.message).toMatch(/已约满，请选择其他场次/);
    expect(await ticketRow(id)).toMatchObject({ totalSum: 10, surplusSum: 0, bookedSum: 10 });
    const orders = ok(await get(`${M}/AppointOrder/pageList?ticketId=${id}&pageCount=200`));
    expect(orders.total).toBe(10);
    const visitors = ok(
      await get(`${M}/AppointOrderVisitor/getList?date=${addDays(today, 1)}&pageCount=200`),
    );
    expect(visitors.total).toBe(10);
  });

  it('lets one ID hold one booking a day, even when five land at once', async () => {
    const day = addDays(today, 2);
    const same = adult('李同证');
    const answers = await Promise.all(Array.from({ length: 5 }, () => book(ticket(day), [same])));
    expect(answers.filter((r) => r.body.success)).toHaveLength(1);
    for (const r of answers.filter((x) => !x.body.success))
      expect(r.body.message).toContain('每天只能预约一次');
    expect((await ticketRow(ticket(day))).bookedSum).toBe(1);
    // Another day is fine.
    ok(await book(ticket(addDays(today, 3)), [same]));
  });

  it('answers the order number and an entry code, and masks IDs and phones in lists', async () => {
    const v = adult('周掩码');
    const r = ok(await book(ticket(addDays(today, 3)), [v]));
    expect(r.orderNo).toMatch(new RegExp(`^P${addDays(today, 3).replaceAll('-', '')}\\d{8}$`));
    expect(r.verifyCode).toMatch(/^[\w-]{22}$/);
    const list = ok(await get(`${M}/AppointOrderVisitor/getList?keyword=${encodeURIComponent('周掩码')}`));
    expect(list.list[0].idNumber).toBe(`${v.idNumber.slice(0, 4)}**********${v.idNumber.slice(-4)}`);
    const order = ok(await get(`${M}/AppointOrder/pageList?keyword=${r.orderNo}`)).list[0];
    expect(order.contactPhone).toMatch(/^\d{3}\*{4}\d{4}$/);
  });

  it('refuses orders over the limits, a repeated ID, minors alone, and a wrong ID, in Chinese', async () => {
    const id = ticket(addDays(today, 4));
    expect(
      refused(
        await book(
          id,
          Array.from({ length: 6 }, () => adult()),
        ),
      ),
    ).toBe('每单最多预约 5 人');
    const twice = adult();
    expect(refused(await book(id, [twice, twice]))).toContain('第 2 位参观人与第 1 位的证件号相同');
    expect(refused(await book(id, [child(), child()]))).toContain('须由成人陪同');
    expect(refused(await book(id, [adult(), child(), child(), child(), child()]))).toContain(
      '每单最多 3 名未满 14 周岁',
    );
    const bad = adult('错证号');
    const wrong = await book(id, [
      { ...bad, idNumber: `${bad.idNumber.slice(0, 17)}${bad.idNumber[17] === '1' ? '2' : '1'}` },
    ]);
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('参观人“错证号”的证件号校验位不正确');
    expect(refused(await book(id, []))).toContain('请至少填写一位参观人');
    const phoneless = await post(`${M}/AppointOrder/book`, admin, {
      ticketId: id,
      contactName: '王',
      contactPhone: '123',
      visitors: [adult()],
    });
    expect(phoneless.body.message).toBe('联系电话须为 11 位手机号');
    // A child with an adult is fine; nothing above took a place.
    ok(await book(id, [adult(), child()]));
    expect((await ticketRow(id)).bookedSum).toBe(2);
  });

  it('refuses a day not released yet, with the moment it opens', async () => {
    const day = addDays(today, 9);
    expect(refused(await book(ticket(day), [adult()]))).toBe(
      `${day} 的门票将于 ${addDays(day, -7)} 00:00 开放预约`,
    );
  });

  it('is for the order grant only', async () => {
    const staff = await s.login('staff02');
    const r = await book(ticket(addDays(today, 4)), [adult()], staff);
    expect(r.body.code).toBe(1005);
  });

  it('gives places and the IDs back when cancelled, so the same person may book again', async () => {
    const id = ticket(addDays(today, 5));
    const v = adult('赵取消');
    const first = ok(await book(id, [v, adult()]));
    expect((await ticketRow(id)).surplusSum).toBe(8);
    expect(refused(await post(`${M}/AppointOrder/cancel`, admin, { id: first.id }))).toContain('取消原因');
    ok(await post(`${M}/AppointOrder/cancel`, admin, { id: first.id, reason: '来电取消' }));
    expect(await ticketRow(id)).toMatchObject({ surplusSum: 10, bookedSum: 0 });
    expect((await orderRow(first.id)).status).toBe(3);
    ok(await book(id, [v]));
    expect(refused(await post(`${M}/AppointOrder/cancel`, admin, { id: first.id, reason: '再取消' }))).toBe(
      '状态已变化，请刷新',
    );
  });
});

describe('capacity and closing', () => {
  it('changes what individuals may still book; the total follows and never drops below the booked', async () => {
    const id = ticket(addDays(today, 6));
    ok(await book(id, [adult(), adult(), adult()]));
    const r = ok(
      await post(`${M}/AppointTicket/updateSurplusSum`, admin, { id, surplusSum: 1, reason: '展厅限流' }),
    );
    expect(r).toEqual({ totalSum: 4, surplusSum: 1, bookedSum: 3 });
    expect(refused(await book(id, [adult(), adult()]))).toContain('仅剩 1 个名额');
    const negative = await post(`${M}/AppointTicket/updateSurplusSum`, admin, {
      id,
      surplusSum: -1,
      reason: 'x',
    });
    expect(negative.body.message).toBe('个人剩余名额不能小于 0');
    const noReason = await post(`${M}/AppointTicket/updateSurplusSum`, admin, { id, surplusSum: 5 });
    expect(noReason.body.message).toContain('调整原因');
    ok(await post(`${M}/AppointTicket/updateSurplusSum`, admin, { id, surplusSum: 7, reason: '恢复' }));
    expect(await ticketRow(id)).toMatchObject({ totalSum: 10, surplusSum: 7, bookedSum: 3 });
  });

  it('closes a booked slot only with force, voiding its orders and freeing the IDs', async () => {
    const id = ticket(addDays(today, 7));
    const v = adult('钱作废');
    const order = ok(await book(id, [v]));
    expect(refused(await post(`${M}/AppointTicket/openOrClose`, admin, { id, open: false }))).toBe(
      '请填写关闭原因',
    );
    expect(
      refused(await post(`${M}/AppointTicket/openOrClose`, admin, { id, open: false, reason: '设备检修' })),
    ).toContain('已有 1 个有效预约（共 1 人）');
    expect((await orderRow(order.id)).status).toBe(1);
    expect(
      ok(
        await post(`${M}/AppointTicket/openOrClose`, admin, {
          id,
          open: false,
          reason: '设备检修',
          force: true,
        }),
      ),
    ).toEqual({ changed: 1, voided: 1 });
    expect((await orderRow(order.id)).status).toBe(5);
    expect(await ticketRow(id)).toMatchObject({ isOpen: false, closeReason: '设备检修', surplusSum: 10 });
    expect(refused(await book(id, [adult()]))).toBe('该场次已关闭：设备检修，请选择其他场次');
    ok(await post(`${M}/AppointTicket/openOrClose`, admin, { id, open: true }));
    // The voided visitor may book again that day.
    ok(await book(id, [v]));
  });
});

describe('gate check-in (finishAppoint)', () => {
  it('admits some then the rest of an order, each once, by entry code or ID', async () => {
    const a = adult('孙入馆');
    const b = adult('孙同行');
    const order = ok(await book(ticket(today), [a, b]));
    const visitors = ok(await get(`${M}/AppointOrderVisitor/getList?orderId=${order.id}`)).list as {
      id: number;
      name: string;
    }[];
    const first = visitors.find((v) => v.name === '孙入馆')!.id;
    const r = ok(
      await post(`${M}/AppointOrder/finishAppoint`, admin, {
        verifyCode: order.verifyCode,
        visitorIds: [first],
      }),
    );
    expect(r).toMatchObject({ admitted: [first], status: 6 });
    expect(
      refused(
        await post(`${M}/AppointOrder/finishAppoint`, admin, {
          verifyCode: order.verifyCode,
          visitorIds: [first],
        }),
      ),
    ).toMatch(/^已入馆（\d{2}:\d{2}），不能重复核销$/);
    const rest = ok(await post(`${M}/AppointOrder/finishAppoint`, admin, { idNumber: b.idNumber }));
    expect(rest.status).toBe(2);
    expect((await orderRow(order.id)).status).toBe(2);
  });

  it('refuses an unknown code, another day, and a cancelled order', async () => {
    expect(refused(await post(`${M}/AppointOrder/finishAppoint`, admin, { verifyCode: 'nope' }))).toBe(
      '入馆码无效，未找到预约',
    );
    expect(refused(await post(`${M}/AppointOrder/finishAppoint`, admin, {}))).toBe(
      '请扫描入馆码或输入证件号',
    );
    const later = ok(await book(ticket(addDays(today, 3)), [adult()]));
    expect(
      refused(await post(`${M}/AppointOrder/finishAppoint`, admin, { verifyCode: later.verifyCode })),
    ).toContain('不是今天');
    const gone = ok(await book(ticket(today), [adult()]));
    ok(await post(`${M}/AppointOrder/cancel`, admin, { id: gone.id, reason: '不来了' }));
    expect(
      refused(await post(`${M}/AppointOrder/finishAppoint`, admin, { verifyCode: gone.verifyCode })),
    ).toBe('该预约已取消（不来了），不能入馆');
  });
});

describe('teams', () => {
  const team = (over: Record<string, unknown> = {}) => ({
    teamName: '实验小学四年级',
    unitName: '实验小学',
    // 其他: no letter or pledge needed (the documents' own test below is a school's).
    teamType: 5,
    leaderName: '陈老师',
    leaderPhone: '13900001111',
    leaderIdType: 1,
    leaderIdNumber: idFor('1985-05-05', serial++),
    ticketId: ticket(addDays(today, 2), '团队场'),
    visitorCount: 12,
    adultCount: 2,
    minorCount: 10,
    ...over,
  });

  it('takes team places, is approved or refused (places back), and gets its notice', async () => {
    const id = ticket(addDays(today, 2), '团队场');
    const a = ok(await post(`${M}/appointTeamOrder/save`, admin, team()));
    expect(a.status).toBe(0);
    expect(await ticketRow(id)).toMatchObject({ teamSurplus: 48, teamBooked: 12, surplusSum: 40 });
    expect(refused(await post(`${M}/appointTeamOrder/approve`, admin, { id: a.id, result: 2 }))).toBe(
      '请填写不通过原因',
    );
    ok(await post(`${M}/appointTeamOrder/approve`, admin, { id: a.id, result: 1, comment: '同意' }));
    ok(await post(`${M}/appointTeamOrder/notice`, admin, { id: a.id, noticeContent: '请 9:50 到东门集合' }));
    const d = ok(await get(`${M}/appointTeamOrder/detail?id=${a.id}`));
    expect(d.record).toMatchObject({ status: 1, noticeContent: '请 9:50 到东门集合' });
    expect(d.log.map((l: { action: string }) => l.action)).toEqual(['create', 'approvePass', 'notice']);
    // Not its day yet: the gate refuses.
    expect(
      refused(await post(`${M}/appointTeamOrder/finishAppoint`, admin, { id: a.id, actualCount: 12 })),
    ).toContain('只能在当天核销入馆');

    const b = ok(await post(`${M}/appointTeamOrder/save`, admin, team({ teamName: '第二批' })));
    ok(
      await post(`${M}/appointTeamOrder/approve`, admin, { id: b.id, result: 2, comment: '当日讲解员不足' }),
    );
    expect(await ticketRow(id)).toMatchObject({ teamSurplus: 48, teamBooked: 12 });
  });

  it('refuses a team too small, too few adults for its minors, too soon, or over the team places', async () => {
    expect(
      refused(
        await post(
          `${M}/appointTeamOrder/save`,
          admin,
          team({ visitorCount: 5, adultCount: 1, minorCount: 4 }),
        ),
      ),
    ).toBe('团队人数须在 10–50 人之间');
    expect(
      refused(await post(`${M}/appointTeamOrder/save`, admin, team({ adultCount: 1, minorCount: 11 }))),
    ).toBe('11 名未成年人至少需要 2 名成人带队（每名成人最多带 10 名）');
    expect(
      refused(await post(`${M}/appointTeamOrder/save`, admin, team({ adultCount: 2, minorCount: 9 }))),
    ).toBe('成人数与未成年人数之和须等于总人数 12');
    expect(
      refused(await post(`${M}/appointTeamOrder/save`, admin, team({ ticketId: ticket(today, '团队场') }))),
    ).toContain('团队须至少提前 1 天预约');
    const big = {
      visitorCount: 50,
      adultCount: 50,
      minorCount: 0,
      ticketId: ticket(addDays(today, 3), '团队场'),
    };
    ok(await post(`${M}/appointTeamOrder/save`, admin, team(big)));
    expect(refused(await post(`${M}/appointTeamOrder/save`, admin, team(big)))).toBe(
      '该场次团队名额仅剩 10 个，请选择其他场次',
    );
  });

  it('are entered and approved by the team grant only', async () => {
    const staff = await s.login('staff02');
    expect((await post(`${M}/appointTeamOrder/save`, staff, team())).body.code).toBe(1005);
    const r = ok(await post(`${M}/appointTeamOrder/save`, admin, team({ teamName: '权限测试' })));
    expect((await post(`${M}/appointTeamOrder/approve`, staff, { id: r.id, result: 1 })).body.code).toBe(
      1005,
    );
  });

  it("need a school's letter and pledge, and an explainer makes a volunteer session on approval", async () => {
    const day = addDays(today, 7);
    const exhibition = ok(
      await post(`${M}/v2/exhibition/add`, admin, {
        name: '古代青铜器展',
        hall: '一号展厅',
        startDate: today,
        explainMinutes: 40,
        explainTimes: [{ time: '10:00' }],
        status: 1,
      }),
    ).id as number;
    const school = team({ teamType: 1, ticketId: ticket(day, '团队场'), needExplain: true });
    // Each refusal names the field a person fixes.
    const noLetter = await post(`${M}/appointTeamOrder/save`, admin, school);
    expect(refused(noLetter)).toBe('学校团队须上传介绍信（PDF 或 JPG/PNG 图片）');
    expect(noLetter.body.result.fields).toEqual({
      letterFile: '学校团队须上传介绍信（PDF 或 JPG/PNG 图片）',
    });
    const doc = (name: string) => attachUpload(s, admin, 'appointTeamOrder', 'file', name);
    const withLetter = { ...school, letterFile: [await doc('介绍信.pdf')] };
    expect(refused(await post(`${M}/appointTeamOrder/save`, admin, withLetter))).toBe(
      '学校团队须上传安全承诺书（PDF 或 JPG/PNG 图片）',
    );
    const both = { ...withLetter, pledgeFile: [await doc('承诺书.pdf')] };
    expect(refused(await post(`${M}/appointTeamOrder/save`, admin, both))).toBe('需要讲解时请选择讲解展览');
    const wrongKind = await doc('名单.docx');
    expect(
      refused(
        await post(`${M}/appointTeamOrder/save`, admin, {
          ...both,
          explainExhibitionId: exhibition,
          letterFile: [wrongKind],
        }),
      ),
    ).toContain('介绍信');
    // Refusals leave nothing taken: the whole 60 team places are still there.
    expect(await ticketRow(ticket(day, '团队场'))).toMatchObject({ teamSurplus: 60 });

    const saved = ok(
      await post(`${M}/appointTeamOrder/save`, admin, {
        ...both,
        explainExhibitionId: exhibition,
        explainLanguage: 2,
      }),
    );
    const sessionOf = async (id: number) =>
      (await orderDetail('appointTeamOrder', id)).explainSessionId as number | null;
    expect(await sessionOf(saved.id)).toBeFalsy();
    ok(await post(`${M}/appointTeamOrder/approve`, admin, { id: saved.id, result: 1 }));
    const sessionId = (await sessionOf(saved.id))!;
    const session = ok(await get(`${M}/v2/exhibitionDetail/detail?id=${sessionId}`)).record;
    expect(session).toMatchObject({
      exhibitionId: exhibition,
      serviceDate: day,
      startTime: '23:58',
      endTime: '23:59',
      type: 2,
      quota: 1,
      recruitOpen: true,
      teamOrderId: saved.id,
      status: 0,
    });
    // A second team of the slot joins the session (one per exhibition, day and time).
    const second = ok(
      await post(`${M}/appointTeamOrder/save`, admin, {
        ...team({ ticketId: ticket(day, '团队场'), visitorCount: 40, adultCount: 40, minorCount: 0 }),
        needExplain: true,
        explainExhibitionId: exhibition,
      }),
    );
    ok(await post(`${M}/appointTeamOrder/approve`, admin, { id: second.id, result: 1 }));
    expect(await sessionOf(second.id)).toBe(sessionId);
    expect(ok(await get(`${M}/v2/exhibitionDetail/detail?id=${sessionId}`)).record.quota).toBe(3);
    // Cancelling one team gives its explainers back; the last one cancels the session.
    ok(await post(`${M}/appointTeamOrder/cancel`, admin, { id: second.id, reason: '学校改期' }));
    expect(ok(await get(`${M}/v2/exhibitionDetail/detail?id=${sessionId}`)).record).toMatchObject({
      quota: 1,
      status: 0,
    });
    ok(await post(`${M}/appointTeamOrder/cancel`, admin, { id: saved.id, reason: '天气原因' }));
    expect(ok(await get(`${M}/v2/exhibitionDetail/detail?id=${sessionId}`)).record).toMatchObject({
      status: 3,
      cancelReason: '团队预约已取消',
    });
  });

  it('take their name lists from an xlsx: every bad row refused with 1004, then the list replaced', async () => {
    const day = addDays(today, 3);
    const r = ok(
      await post(
        `${M}/appointTeamOrder/save`,
        admin,
        team({ ticketId: ticket(day, '团队场'), visitorCount: 10, adultCount: 2, minorCount: 8 }),
      ),
    );
    const { orderNo } = await orderDetail('appointTeamOrder', r.id);
    const tpl = await template(s, admin, 'appointTeamVisitors');
    expect(tpl.ok && tpl.headers).toEqual(['预约号*', '姓名*', '证件类型', '证件号码*']);
    const people = [adult('带队甲'), adult('带队乙'), ...Array.from({ length: 8 }, () => child())];
    const line = (v: { name: string; idNumber: string }, no = orderNo) => [no, v.name, '', v.idNumber];
    const headers = ['预约号', '姓名', '证件类型', '证件号码'];
    // Bad rows: a wrong check digit, an unknown paper; each named by its row and column.
    const badId = people[3]!.idNumber.slice(0, 17) + (people[3]!.idNumber.endsWith('0') ? '1' : '0');
    const bad = await importFile(
      s,
      admin,
      'appointTeamVisitors',
      await xlsxOf(headers, [
        ...people.slice(0, 3).map((v) => line(v)),
        [orderNo, people[3]!.name, '', badId],
        [orderNo, people[4]!.name, '军官证', people[4]!.idNumber],
        ...people.slice(5).map((v) => line(v)),
      ]),
    );
    expect(bad.body.code).toBe(1004);
    expect(bad.body.result.errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([
      [5, '证件号码'],
      [6, '证件类型'],
    ]);
    // A list that does not match the team (one short) or a team that does not exist.
    const short = await importFile(
      s,
      admin,
      'appointTeamVisitors',
      await xlsxOf(headers, [...people.slice(0, 9).map((v) => line(v)), line(adult(), 'T000')]),
    );
    expect(short.body.result.lines).toEqual([
      '第 2 行：团队“实验小学四年级”的名单有 9 人，与总人数 10 不符',
      '第 11 行：团队预约号“T000”不存在，请核对',
    ]);
    expect(ok(await get(`${M}/appointTeamOrder/visitorList?id=${r.id}`))).toHaveLength(0);
    // The right list lands; imported again with one person changed, it replaces the first.
    const done = await importFile(
      s,
      admin,
      'appointTeamVisitors',
      await xlsxOf(
        headers,
        people.map((v) => line(v)),
      ),
    );
    expect(done.body.result).toMatchObject({ imported: 1, created: 1, replaced: 0 });
    const swapped = [...people.slice(0, 9), child('替补童')];
    const again = await importFile(
      s,
      admin,
      'appointTeamVisitors',
      await xlsxOf(
        headers,
        swapped.map((v) => line(v)),
      ),
    );
    expect(again.body.result).toMatchObject({ imported: 1, replaced: 1 });
    const list = ok(await get(`${M}/appointTeamOrder/visitorList?id=${r.id}`));
    expect(list.map((v: { name: string }) => v.name)).toContain('替补童');
    expect(list).toHaveLength(10);
    // The person taken off the list is free that day again: the ID books an individual ticket.
    ok(await book(ticket(day), [people[9]!, adult()]));
    // Only the team grant imports.
    const staff = await s.login('staff02');
    expect(
      (await importFile(s, staff, 'appointTeamVisitors', await xlsxOf(headers, [line(adult())]))).body.code,
    ).toBe(1005);
  });

  it('keeps its name list, one row per person, masked in visitorList', async () => {
    const people = [adult('领队甲'), adult('领队乙'), ...Array.from({ length: 10 }, () => child())];
    const r = ok(
      await post(
        `${M}/appointTeamOrder/save`,
        admin,
        team({ ticketId: ticket(addDays(today, 4), '团队场'), visitors: people }),
      ),
    );
    const list = ok(await get(`${M}/appointTeamOrder/visitorList?id=${r.id}`));
    expect(list).toHaveLength(12);
    expect(list.filter((v: { isMinor: boolean }) => v.isMinor)).toHaveLength(10);
    expect(list[0].idNumber).toContain('**********');
    expect(
      refused(
        await post(
          `${M}/appointTeamOrder/save`,
          admin,
          team({ ticketId: ticket(addDays(today, 5), '团队场'), visitors: people.slice(0, 3) }),
        ),
      ),
    ).toBe('人员名单有 3 人，与总人数 12 不符');
  });
});

describe('no-shows and the black list', () => {
  /** An order of one visitor on a past day, as booking made it then. */
  async function pastOrder(daysAgo: number, v: { name: string; idType: number; idNumber: string }) {
    const day = addDays(today, -daysAgo);
    const t = Date.now();
    const tpl = await s.db
      .selectFrom('appoint_setting_times')
      .select('id')
      .where('name', '=', '全天')
      .executeTakeFirstOrThrow();
    const row = await s.db
      .insertInto('appoint_ticket')
      .values({
        date: day,
        time_id: Number(tpl.id),
        start_time: '09:00',
        end_time: '11:00',
        total_sum: 10,
        surplus_sum: 9,
        booked_sum: 1,
        is_open: 1,
        create_time: t,
        create_by: null,
        update_time: t,
        update_by: null,
      })
      .onConflict((oc) => oc.columns(['date', 'time_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    const ticketId =
      row?.id ??
      (
        await s.db
          .selectFrom('appoint_ticket')
          .select('id')
          .where('date', '=', day)
          .where('time_id', '=', Number(tpl.id))
          .executeTakeFirstOrThrow()
      ).id;
    const order = await s.db
      .insertInto('appoint_order')
      .values({
        order_no: `P${day.replaceAll('-', '')}${serial++}`,
        ticket_id: Number(ticketId),
        date: day,
        start_time: '09:00',
        end_time: '11:00',
        contact_name: v.name,
        contact_phone: '13700000000',
        visitor_count: 1,
        status: 1,
        verify_code: `past-${serial++}`,
        cancel_time: null,
        finish_time: null,
        create_time: t,
        create_by: null,
        update_time: t,
        update_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await s.db
      .insertInto('appoint_order_visitor')
      .values({
        order_id: Number(order.id),
        team_order_id: null,
        date: day,
        name: v.name,
        id_type: 1,
        id_number: v.idNumber,
        check_status: 0,
        check_time: null,
        day_key: `${day}|1|${v.idNumber}`,
        create_time: t,
        create_by: null,
        update_time: t,
        update_by: null,
      })
      .execute();
    return Number(order.id);
  }

  it('marks absent visitors 失约, blocks at the limit with its end date, and a release lets them book', async () => {
    const v = adult('吴失约');
    const first = await pastOrder(3, v);
    await pastOrder(2, v);
    const r = ok(await post(`${M}/AppointOrder/markNoShow`, admin, {}));
    expect(r.orders).toBeGreaterThanOrEqual(2);
    expect((await orderRow(first)).status).toBe(4);
    const list = ok(await get(`${M}/appointBlackList/pageList?keyword=${encodeURIComponent('吴失约')}`));
    expect(list.total).toBe(1);
    const until = addDays(today, 29);
    expect(list.list[0]).toMatchObject({
      reason: 1,
      auto: true,
      noShowCount: 2,
      startDate: today,
      endDate: until,
      status: 1,
    });
    expect(refused(await book(ticket(addDays(today, 1), '团队场'), [v]))).toBe(
      `参观人“吴失约”因多次失约，预约资格已被限制至 ${until}`,
    );
    // Running again adds nothing; releasing needs a reason, then booking works.
    expect(ok(await post(`${M}/AppointOrder/markNoShow`, admin, {})).blocked).toBe(0);
    const blockId = list.list[0].id;
    expect(refused(await post(`${M}/appointBlackList/release`, admin, { id: blockId }))).toContain(
      '解除原因',
    );
    ok(await post(`${M}/appointBlackList/release`, admin, { id: blockId, reason: '核实为系统故障' }));
    ok(await book(ticket(addDays(today, 1), '团队场'), [v]));
    // The count starts again after a block: the old no-shows do not block again.
    expect(ok(await post(`${M}/AppointOrder/markNoShow`, admin, {})).blocked).toBe(0);
  });

  it('leaves a partly admitted order 部分入馆 and marks only the absent visitor 失约', async () => {
    const here = adult('冯到了');
    const away = adult('冯没来');
    const id = await pastOrder(4, here);
    const t = Date.now();
    await s.db.updateTable('appoint_order').set({ status: 6 }).where('id', '=', id).execute();
    await s.db
      .updateTable('appoint_order_visitor')
      .set({ check_status: 1, check_time: t })
      .where('order_id', '=', id)
      .execute();
    const day = addDays(today, -4);
    await s.db
      .insertInto('appoint_order_visitor')
      .values({
        order_id: id,
        team_order_id: null,
        date: day,
        name: away.name,
        id_type: 1,
        id_number: away.idNumber,
        check_status: 0,
        check_time: null,
        day_key: `${day}|1|${away.idNumber}`,
        create_time: t,
        create_by: null,
        update_time: t,
        update_by: null,
      })
      .execute();
    ok(await post(`${M}/AppointOrder/markNoShow`, admin, {}));
    expect((await orderRow(id)).status).toBe(6);
    const rows = ok(await get(`${M}/AppointOrderVisitor/getList?orderId=${id}`)).list as {
      name: string;
      checkStatus: number;
    }[];
    expect(Object.fromEntries(rows.map((r) => [r.name, r.checkStatus]))).toEqual({ 冯到了: 1, 冯没来: 2 });
  });

  it('refuses a person put on the list by hand, and a team whose leader is listed', async () => {
    const v = adult('郑黄牛');
    ok(
      await post(`${M}/appointBlackList/save`, admin, {
        ...v,
        reason: 2,
        remark: '倒卖门票',
        startDate: today,
        endDate: addDays(today, 100),
      }),
    );
    expect(refused(await book(ticket(addDays(today, 1), '团队场'), [v]))).toBe(
      `参观人“郑黄牛”已被列入黑名单，预约资格已被限制至 ${addDays(today, 100)}，如有疑问请联系本馆`,
    );
    const r = await post(`${M}/appointTeamOrder/save`, admin, {
      teamName: '某旅行团',
      unitName: '某旅行社',
      teamType: 4,
      leaderName: v.name,
      leaderPhone: '13900002222',
      leaderIdType: 1,
      leaderIdNumber: v.idNumber,
      ticketId: ticket(addDays(today, 5), '团队场'),
      visitorCount: 10,
      adultCount: 10,
      minorCount: 0,
    });
    expect(refused(r)).toContain('领队已被列入黑名单');
  });
});

describe('statistics (dayStat … yearStat)', () => {
  it('counts places, bookings, admissions, cancellations and teams by slot, day and month', async () => {
    const day = addDays(today, 6);
    const id = ticket(day, '团队场');
    const a = adult('统计甲');
    const first = ok(await book(id, [a, child('统计童')]));
    const second = ok(await book(id, [adult('统计乙')]));
    ok(await post(`${M}/AppointOrder/cancel`, admin, { id: second.id, reason: '改期' }));
    const team = ok(
      await post(`${M}/appointTeamOrder/save`, admin, {
        teamName: '统计参观团',
        unitName: '统计单位',
        teamType: 5,
        leaderName: '统计领队',
        leaderPhone: '13900003333',
        leaderIdType: 1,
        leaderIdNumber: idFor('1980-01-01', serial++),
        ticketId: id,
        visitorCount: 10,
        adultCount: 10,
        minorCount: 0,
      }),
    );
    ok(await post(`${M}/appointTeamOrder/approve`, admin, { id: team.id, result: 1 }));
    // As the gate would have written it on the day: the adult came.
    await s.db
      .updateTable('appoint_order_visitor')
      .set({ check_status: 1, check_time: Date.now() })
      .where('order_id', '=', first.id)
      .where('id_number', '=', a.idNumber)
      .execute();

    const d = ok(await get(`${M}/AppointOrder/dayStat?date=${day}`));
    const i = d.labels.indexOf('23:58–23:59');
    expect(i).toBeGreaterThanOrEqual(0);
    expect({
      capacity: d.capacity[i],
      booked: d.booked[i],
      entered: d.entered[i],
      cancelled: d.cancelled[i],
      noShow: d.noShow[i],
      teamPersons: d.teamPersons[i],
    }).toEqual({ capacity: 100, booked: 2, entered: 1, cancelled: 1, noShow: 0, teamPersons: 10 });
    expect(d.byProvince).toEqual([{ code: '11', name: '北京', count: 1 }]);
    const age = Number(day.slice(0, 4)) - 1990;
    const band = age < 60 ? '35–59岁' : '60岁及以上';
    expect(d.byAgeBand.find((b: { band: string }) => b.band === band).count).toBe(1);
    const male = Number(a.idNumber[16]) % 2 === 1;
    expect(d.byGender).toEqual([
      { gender: '男', count: male ? 1 : 0 },
      { gender: '女', count: male ? 0 : 1 },
    ]);

    const w = ok(await get(`${M}/AppointOrder/weekStat?date=${day}`));
    expect(w.labels).toHaveLength(7);
    const j = w.labels.indexOf(day);
    expect(w.teamPersons[j]).toBe(10);
    expect(w.booked[j]).toBeGreaterThanOrEqual(2);
    const m = ok(await get(`${M}/AppointOrder/monthStat?month=${day.slice(0, 7)}`));
    expect(m.labels[0]).toBe(`${day.slice(0, 7)}-01`);
    expect(m.cancelled[m.labels.indexOf(day)]).toBeGreaterThanOrEqual(1);
    const y = ok(await get(`${M}/AppointOrder/yearStat?year=${day.slice(0, 4)}`));
    expect(y.labels).toHaveLength(12);
    expect(y.teamPersons[Number(day.slice(5, 7)) - 1]).toBeGreaterThanOrEqual(10);
  });

  it('refuses a wrong day or month in Chinese, and readers without the grant', async () => {
    expect((await get(`${M}/AppointOrder/dayStat?date=2026-02-30`)).body.message).toBe(
      '日期须为有效日期，格式 yyyy-MM-dd（如 2026-12-01）',
    );
    expect((await get(`${M}/AppointOrder/monthStat?month=2026-13`)).body.message).toBe(
      '月份须为 yyyy-MM 格式（如 2026-12）',
    );
    expect((await get(`${M}/AppointOrder/monthStat?month=2026-02`)).body.result.labels).toHaveLength(28);
    const staff = await s.login('staff02');
    expect((await get(`${M}/AppointOrder/yearStat?year=2026`, staff)).body.code).toBe(1005);
  });
});
