import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateList } from '../../src/shared/api/reservation-gate';
import {
  addDays,
  formatMuseumMinute,
  museumDate,
  parseMuseumMinute,
} from '../../src/shared/rules/museum-time';
import { startServer, type TestServer } from './harness';
import { M } from './util';
import { idFor, jsonCalls } from './volunteer-util';
import { ALL_DAY_SETTINGS, clearOfDayEnd, DAY_END_WAIT_MS } from './reservation-util';

/**
 * The gate tablet (README "Visitor reservations" › 入馆核验): today's list with hashes instead of
 * entry codes and ID numbers, the gate's own grant, finishAppoint by the order's id with the
 * device's clock (placed at the device's moment, refused outside the arrival window or the
 * day), a replay with the same Idempotency-Key answered once, and the words of the conflicts a
 * tablet keeps (cancelled meanwhile, admitted at another gate). The booking's and the gate's
 * other rules are reservations.test.ts's.
 *
 * Times are the real clock's, as there: 全天 (00:00–23:58) holds now, 晚场 (23:58–23:59) is
 * always ahead except in the museum day's last half hour.
 */

let s: TestServer;
let admin: string;
/** staff03 holds only 入馆核验 (order.gate); staff04 holds nothing of 预约管理. */
let gate: string;
let nobody: string;
const { post, ok, refused } = jsonCalls(() => s);
const get = (path: string, token = admin) => s.call('GET', path, { token });
const sha = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');
const FINISH = `${M}/AppointOrder/finishAppoint`;
const LIST = `${M}/AppointOrder/gateList`;

let today: string;
const tickets = new Map<string, number>();
const ticket = (day: string, name = '全天') => tickets.get(`${day}|${name}`)!;
let serial = 300;
const adult = (name: string) => ({ name, idType: 1, idNumber: idFor('1988-06-01', serial++) });
let phone = 13700000000;
const book = (ticketId: number, visitors: object[]) =>
  post(`${M}/AppointOrder/book`, admin, {
    ticketId,
    contactName: '钱联系',
    contactPhone: String(phone++),
    visitors,
  });
async function visitorsOf(orderId: number) {
  const list = ok(await get(`${M}/AppointOrderVisitor/getList?orderId=${orderId}`)).list as {
    id: number;
    name: string;
    checkTime: number | null;
  }[];
  // In the order they were booked (the list shows the newest first).
  return list.sort((a, b) => a.id - b.id);
}
async function visitorRow(id: number) {
  return s.db.selectFrom('appoint_order_visitor').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
const gateList = async (token = gate) => ok(await get(LIST, token)) as GateList;

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
  for (const [name, startTime, endTime] of [
    ['全天', '00:00', '23:58'],
    ['晚场', '23:58', '23:59'],
  ])
    ok(
      await post(`${M}/AppointSettingTimes/save`, admin, {
        name,
        startTime,
        endTime,
        capacity: 20,
        weekdays: '1,2,3,4,5,6,7',
        enabled: true,
      }),
    );
  ok(await post(`${M}/AppointTicket/generate`, admin, { days: 3 }));
  const list = ok(await get(`${M}/AppointTicket/getList?pageCount=200`));
  const names = list.names.refs.appointSettingTimes as Record<string, string>;
  for (const t of list.list) tickets.set(`${t.date}|${names[String(t.timeId)]}`, t.id);

  // A role with the gate's grant only, given to staff03.
  const role = ok(await post(`${M}/sysRole/save`, admin, { code: 'gateStaff', name: '检票员', remark: '' }));
  ok(await post(`${M}/sysRole/setMenus`, admin, { roleId: role.roleId, menuKeys: ['order.gate'] }));
  const staff03 = await s.db
    .selectFrom('user')
    .select('id')
    .where('account', '=', 'staff03')
    .executeTakeFirstOrThrow();
  await s.db.insertInto('user_role').values({ user_id: staff03.id, role_id: role.roleId }).execute();
  gate = await s.login('staff03');
  nobody = await s.login('staff04');
});
afterAll(async () => s?.close());

describe('the gate list', () => {
  it("holds today's orders only, with hashes instead of entry codes and ID numbers", async () => {
    const a = adult('钱今天');
    const b = adult('钱同行');
    const order = ok(await book(ticket(today), [a, b]));
    const later = ok(await book(ticket(addDays(today, 1)), [adult('钱明天')]));
    const res = await get(LIST, gate);
    const list = ok(res) as GateList;
    expect(list.date).toBe(today);
    expect(Math.abs(list.serverTime - Date.now())).toBeLessThan(60_000);
    expect(list.arrivalToleranceMinutes).toBe(15);
    const mine = list.orders.find((o) => o.id === order.id)!;
    expect(mine).toMatchObject({ orderNo: order.orderNo, status: 1, startTime: '00:00', endTime: '23:58' });
    expect(mine.codeHash).toBe(sha(order.verifyCode));
    expect(mine.visitors.map((v) => [v.name, v.idMasked, v.checkStatus])).toEqual([
      ['钱今天', `${a.idNumber.slice(0, 4)}**********${a.idNumber.slice(-4)}`, 0],
      ['钱同行', `${b.idNumber.slice(0, 4)}**********${b.idNumber.slice(-4)}`, 0],
    ]);
    expect(mine.visitors[0]!.idHash).toBe(sha(`${list.salt}|${a.idNumber}`));
    expect(list.orders.some((o) => o.id === later.id)).toBe(false);
    // Nothing of the full numbers or codes in the answer.
    const raw = JSON.stringify(res.body);
    expect(raw).not.toContain(order.verifyCode);
    expect(raw).not.toContain(a.idNumber);
    expect(raw).not.toContain(b.idNumber);
    expect(raw).not.toMatch(/verifyCode|idNumber|contactPhone/);
    // A fresh salt in every answer: a table of hashes cannot be computed once for all days.
    const again = await gateList();
    expect(again.salt).not.toBe(list.salt);
    expect(again.orders.find((o) => o.id === order.id)!.visitors[0]!.idHash).toBe(
      sha(`${again.salt}|${a.idNumber}`),
    );
  });

  it("is for the gate's grant or 个人预约's, and the gate's grant reads nothing else", async () => {
    expect(ok(await get(LIST, admin)).date).toBe(today);
    const r = await get(LIST, nobody);
    expect(r.body).toMatchObject({
      success: false,
      code: 1005,
      message: '无权限执行此操作，请联系管理员开通',
    });
    expect((await get(`${M}/AppointOrder/pageList`, gate)).body.code).toBe(1005);
    expect((await get(`${M}/AppointOrderVisitor/getList`, gate)).body.code).toBe(1005);
    const order = ok(await book(ticket(today), [adult('钱无权')]));
    expect((await post(FINISH, nobody, { orderId: order.id })).body.code).toBe(1005);
  });
});

describe('finishAppoint from the gate tablet', () => {
  it('admits by the order id at the moment the device recorded, corrected by its offset', async () => {
    const order = ok(await book(ticket(today), [adult('钱离线'), adult('钱离线二')]));
    const [v1, v2] = await visitorsOf(order.id);
    const deviceTime = Date.now() - 120_000;
    const r = ok(
      await post(FINISH, gate, {
        orderId: order.id,
        visitorIds: [v1!.id],
        deviceTime,
        serverOffsetMs: 30_000,
      }),
    );
    expect(r).toMatchObject({ admitted: [v1!.id], status: 6, already: [] });
    expect(Number((await visitorRow(v1!.id)).check_time)).toBe(deviceTime + 30_000);
    // A clock ahead of the server's never admits in the future.
    const before = Date.now();
    ok(await post(FINISH, gate, { orderId: order.id, visitorIds: [v2!.id], deviceTime: before + 3_600_000 }));
    const placed = Number((await visitorRow(v2!.id)).check_time);
    expect(placed).toBeGreaterThanOrEqual(before);
    expect(placed).toBeLessThanOrEqual(Date.now());
    const list = await gateList();
    expect(list.orders.find((o) => o.id === order.id)).toMatchObject({ status: 2 });
  });

  it('refuses a device time outside the arrival window or on another day, saying the time recorded', async () => {
    const order = ok(await book(ticket(today, '晚场'), [adult('钱太早')]));
    const early = parseMuseumMinute(`${today} 00:05`)!;
    expect(refused(await post(FINISH, gate, { orderId: order.id, deviceTime: early }))).toBe(
      '未到入馆时间：该场次 23:43 起可入馆（本机记录的入馆时间 00:05）',
    );
    const now = ok(await book(ticket(today), [adult('钱昨天')]));
    const yesterday = Date.now() - 86_400_000;
    expect(refused(await post(FINISH, gate, { orderId: now.id, deviceTime: yesterday }))).toBe(
      `该预约的参观日期是 ${today}，本机记录的入馆时间是 ${formatMuseumMinute(yesterday)}，不在当天`,
    );
    // Nothing was admitted by the refusals.
    expect((await visitorsOf(now.id))[0]!.checkTime).toBeNull();
  });

  it('refuses bad input in words a person can act on', async () => {
    expect(refused(await post(FINISH, gate, { orderId: 99_999_999 }))).toBe('该预约不存在或已删除');
    expect(refused(await post(FINISH, gate, { orderId: 1, deviceTime: 'abc' }))).toContain(
      '设备时间必须是数字',
    );
    expect(refused(await post(FINISH, gate, { orderId: 1, serverOffsetMs: 9e12 }))).toContain('时钟偏差');
    expect(refused(await post(FINISH, gate, {}))).toBe('请扫描入馆码或输入证件号');
  });

  it('answers a replay with the same Idempotency-Key once, and a second check-in with its reason', async () => {
    const order = ok(await book(ticket(today), [adult('钱重放')]));
    const [v] = await visitorsOf(order.id);
    const body = {
      orderId: order.id,
      visitorIds: [v!.id],
      deviceTime: Date.now() - 60_000,
      serverOffsetMs: 0,
    };
    const key = { 'Idempotency-Key': `gate-${order.id}-${v!.id}` };
    const first = await post(FINISH, gate, body, key);
    const at = Number((await visitorRow(v!.id)).check_time);
    const replay = await post(FINISH, gate, body, key);
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(Number((await visitorRow(v!.id)).check_time)).toBe(at);
    const log = ok(await get(`${M}/AppointOrder/detail?id=${order.id}`)).log as { action: string }[];
    expect(log.filter((l) => l.action === 'finishAppoint')).toHaveLength(1);
    // The same check-in under another key (another tablet) is refused with the first time.
    expect(refused(await post(FINISH, gate, { ...body, deviceTime: Date.now() }))).toBe(
      `已入馆（${formatMuseumMinute(at).slice(11)}），不能重复核销`,
    );
  });

  it('keeps the words of a replay refused meanwhile: cancelled, or admitted at another gate', async () => {
    const gone = ok(await book(ticket(today), [adult('钱取消')]));
    ok(await post(`${M}/AppointOrder/cancel`, admin, { id: gone.id, reason: '临时有事' }));
    expect(refused(await post(FINISH, gate, { orderId: gone.id, deviceTime: Date.now() - 300_000 }))).toBe(
      '该预约已取消（临时有事），不能入馆',
    );
    const list = await gateList();
    expect(list.orders.find((o) => o.id === gone.id)).toMatchObject({ status: 3, cancelReason: '临时有事' });

    // Two of one order: the east gate admits one by the code online; the tablet's offline
    // check-in of both then admits the other and names the one already in.
    const order = ok(await book(ticket(today), [adult('钱东门'), adult('钱西门')]));
    const [east, west] = await visitorsOf(order.id);
    ok(await post(FINISH, admin, { verifyCode: order.verifyCode, visitorIds: [east!.id] }));
    const at = Number((await visitorRow(east!.id)).check_time);
    const r = ok(
      await post(FINISH, gate, {
        orderId: order.id,
        visitorIds: [east!.id, west!.id],
        deviceTime: Date.now() - 1000,
      }),
    );
    expect(r).toMatchObject({
      admitted: [west!.id],
      status: 2,
      already: [{ id: east!.id, name: '钱东门', checkTime: at }],
    });
    expect(refused(await post(FINISH, gate, { orderId: order.id, visitorIds: [east!.id] }))).toBe(
      `已入馆（${formatMuseumMinute(at).slice(11)}），不能重复核销`,
    );
  });
});
