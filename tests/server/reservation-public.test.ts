import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, museumDate } from '../../src/shared/rules/museum-time';
import { startServer, type TestServer } from './harness';
import { M } from './util';
import { idFor, jsonCalls } from './volunteer-util';
import { ALL_DAY_SETTINGS, clearOfDayEnd, DAY_END_WAIT_MS } from './reservation-util';

/**
 * The visitor's side of reservations (README "Visitor reservations" › "The visitor's side"): the
 * public list of released tickets, one-time codes by phone (wrong, expired, too many tries, the
 * resend wait, the day's cap, the per-address limit), visitor sessions (bearer and cookie, never
 * a staff session), booking through the desk's rules with the verified phone, Idempotency-Key,
 * never seeing or cancelling another phone's booking, and the visitor's cancel with its deadline.
 *
 * Real clock: the slots are 全天 (00:00–23:58, already started today) and 夜场 (23:58–23:59, not
 * started), so today's rules hold whenever the suite runs but in the last two minutes of a day.
 * Codes come from the server's log (no SMS gateway), as README says; a code's age is moved in the
 * database to test expiry and the resend wait without waiting.
 */

let s: TestServer;
let admin: string;
const { post, ok, refused } = jsonCalls(() => s);
const P = `${M}/appointPublic`;
let today: string;
const tickets = new Map<string, number>();
const ticket = (day: string, name = '全天') => tickets.get(`${day}|${name}`)!;

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _enc, done) {
    logLines.push(chunk.toString());
    done();
  },
});

/** Each group of calls from its own address (TRUST_PROXY=127.0.0.1), so the per-address limits are theirs. */
let addr = 1;
const from = () => ({ 'x-forwarded-for': `10.1.${Math.floor(addr / 200)}.${addr++ % 200}` });
let phoneSeq = 13900000000;
const newPhone = () => String(phoneSeq++);
let serial = 300;
const adult = (name = '李参观') => ({ name, idType: 1, idNumber: idFor('1988-05-06', serial++) });

const pub = (
  method: 'GET' | 'POST',
  path: string,
  opts: { bearer?: string; body?: unknown; headers?: Record<string, string> } = {},
) =>
  s.call(method, `${P}${path}`, {
    body: opts.body,
    headers: {
      ...from(),
      ...(opts.bearer ? { authorization: `Bearer ${opts.bearer}` } : {}),
      ...opts.headers,
    },
  });

/** The code the log holds for a phone (the SMS hook's line; the phone itself is masked there). */
function codeInLog(phone: string): string {
  const masked = `${phone.slice(0, 3)}****${phone.slice(-4)}`;
  const line = logLines.filter((l) => l.includes('SMS 未配置网关') && l.includes(masked)).at(-1);
  expect(line, `an SMS line for ${masked}`).toBeTruthy();
  return /验证码是 (\d{6})/.exec(line!)![1]!;
}

/** A verified visitor: the code asked, read from the log, checked; answers the bearer token. */
async function visitor(phone = newPhone()): Promise<string> {
  ok(await pub('POST', '/sendCode', { body: { phone } }));
  const r = ok(await pub('POST', '/login', { body: { phone, smsCode: codeInLog(phone), wantToken: true } }));
  return r.token as string;
}

const settings = (extra: Record<string, unknown> = {}) =>
  post(`${M}/AppointSetting/save`, admin, {
    ...ALL_DAY_SETTINGS,
    notice: '请携带身份证件原件入馆。',
    ...extra,
  });

const slotOf = async (id: number) => {
  const list = ok(await pub('GET', '/tickets'));
  for (const d of list.days) for (const x of d.slots) if (x.id === id) return x;
  return undefined;
};

// Today's tickets are booked throughout: not in the museum day's last minutes.
beforeAll(() => clearOfDayEnd(), DAY_END_WAIT_MS);
beforeAll(async () => {
  s = await startServer(
    { RATE_LIMIT_PER_MINUTE: '1000000', TRUST_PROXY: '127.0.0.1' },
    { logger: { level: 'info', stream: logStream } },
  );
  admin = await s.login('admin');
  today = museumDate(Date.now());
  ok(await settings());
  for (const [name, startTime, endTime] of [
    ['全天', '00:00', '23:58'],
    ['夜场', '23:58', '23:59'],
  ])
    ok(
      await post(`${M}/AppointSettingTimes/save`, admin, {
        name,
        startTime,
        endTime,
        capacity: 10,
        weekdays: '1,2,3,4,5,6,7',
        enabled: true,
      }),
    );
  ok(await post(`${M}/AppointTicket/generate`, admin, { days: 9 }));
  const list = ok(await s.call('GET', `${M}/AppointTicket/getList?pageCount=200`, { token: admin }));
  const names = list.names.refs.appointSettingTimes as Record<string, string>;
  for (const t of list.list) tickets.set(`${t.date}|${names[String(t.timeId)]}`, t.id);
});
afterAll(async () => s?.close());

describe('the public ticket list', () => {
  it('shows only released days, with places, closed slots and their reason, and the notice', async () => {
    ok(
      await post(`${M}/AppointTicket/openOrClose`, admin, {
        id: ticket(addDays(today, 2), '夜场'),
        open: false,
        reason: '设备检修',
      }),
    );
    ok(
      await post(`${M}/AppointTicket/updateSurplusSum`, admin, {
        id: ticket(addDays(today, 3), '夜场'),
        surplusSum: 0,
        reason: '测试约满',
      }),
    );
    // No session of any kind.
    const list = ok(await pub('GET', '/tickets'));
    const dates = list.days.map((d: { date: string }) => d.date);
    expect(dates[0]).toBe(today);
    expect(dates).toContain(addDays(today, 7));
    expect(dates).not.toContain(addDays(today, 8));
    expect(list.settings).toMatchObject({
      notice: '请携带身份证件原件入馆。',
      maxPersonsPerOrder: 5,
      cancelDeadline: '15:00',
      advanceDays: 7,
    });
    expect(await slotOf(ticket(addDays(today, 2), '夜场'))).toMatchObject({
      state: 'closed',
      note: '已关闭：设备检修',
    });
    expect(await slotOf(ticket(addDays(today, 3), '夜场'))).toMatchObject({
      state: 'full',
      note: '已约满',
      surplusSum: 0,
    });
    expect(await slotOf(ticket(addDays(today, 1)))).toMatchObject({
      state: 'open',
      surplusSum: 10,
      startTime: '00:00',
    });
  });

  it('keeps day D hidden until releaseTime on D − advanceDays, and says when it opens', async () => {
    ok(await settings({ releaseTime: '23:59' }));
    const list = ok(await pub('GET', '/tickets'));
    const dates = list.days.map((d: { date: string }) => d.date);
    expect(dates).not.toContain(addDays(today, 7));
    expect(dates).toContain(addDays(today, 6));
    expect(list.nextRelease).toEqual({ date: addDays(today, 7), at: `${today} 23:59` });
    ok(await settings());
  });
});

describe('one-time codes', () => {
  it('refuse a bad phone and a malformed code with words', async () => {
    const r = await pub('POST', '/sendCode', { body: { phone: '12345' } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('手机号须为 11 位中国大陆手机号');
    const c = await pub('POST', '/login', { body: { phone: newPhone(), smsCode: '12ab' } });
    expect(c.body.message).toContain('验证码须为短信中的 6 位数字');
    expect(refused(await pub('POST', '/login', { body: { phone: newPhone(), smsCode: '123456' } }))).toBe(
      '请先获取验证码',
    );
  });

  it('are kept hashed, wait 60 s before another, allow 5 tries, and sign in once', async () => {
    const phone = newPhone();
    expect(ok(await pub('POST', '/sendCode', { body: { phone } }))).toEqual({
      resendSeconds: 60,
      expiresInSeconds: 300,
    });
    const code = codeInLog(phone);
    const row = await s.db
      .selectFrom('appoint_visitor_code')
      .selectAll()
      .where('phone', '=', phone)
      .executeTakeFirstOrThrow();
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hash).not.toContain(code);
    expect(refused(await pub('POST', '/sendCode', { body: { phone } }))).toMatch(
      /^验证码已发送，请 \d+ 秒后再重新获取$/,
    );
    const wrong = code === '000000' ? '000001' : '000000';
    expect(refused(await pub('POST', '/login', { body: { phone, smsCode: wrong } }))).toBe(
      '验证码不正确，还可以再试 4 次',
    );
    for (let i = 0; i < 3; i++) refused(await pub('POST', '/login', { body: { phone, smsCode: wrong } }));
    expect(refused(await pub('POST', '/login', { body: { phone, smsCode: wrong } }))).toBe(
      '验证码错误次数过多，请重新获取验证码',
    );
    // Even the right code is refused now: a new one is needed.
    expect(refused(await pub('POST', '/login', { body: { phone, smsCode: code } }))).toBe(
      '验证码错误次数过多，请重新获取验证码',
    );
    // After the wait a new code replaces it; the old one no longer works.
    await s.db
      .updateTable('appoint_visitor_code')
      .set({ sent_at: Date.now() - 61_000 })
      .where('phone', '=', phone)
      .execute();
    ok(await pub('POST', '/sendCode', { body: { phone } }));
    const fresh = codeInLog(phone);
    const r = ok(await pub('POST', '/login', { body: { phone, smsCode: fresh, wantToken: true } }));
    expect(r.phone).toBe(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
    expect(r.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Used once.
    expect(refused(await pub('POST', '/login', { body: { phone, smsCode: fresh } }))).toBe('请先获取验证码');
  });

  it('expire after 5 minutes', async () => {
    const phone = newPhone();
    ok(await pub('POST', '/sendCode', { body: { phone } }));
    const code = codeInLog(phone);
    await s.db
      .updateTable('appoint_visitor_code')
      .set({ expires_at: Date.now() - 1 })
      .where('phone', '=', phone)
      .execute();
    expect(refused(await pub('POST', '/login', { body: { phone, smsCode: code } }))).toBe(
      '验证码已过期，请重新获取',
    );
  });

  it('are at most 10 a day per phone and 5 a minute per address', async () => {
    const phone = newPhone();
    ok(await pub('POST', '/sendCode', { body: { phone } }));
    await s.db
      .updateTable('appoint_visitor_code')
      .set({ sent_at: Date.now() - 61_000, day_count: 10 })
      .where('phone', '=', phone)
      .execute();
    expect(refused(await pub('POST', '/sendCode', { body: { phone } }))).toBe(
      '该手机号今天获取验证码已达 10 次，请明天再试',
    );
    const one = { 'x-forwarded-for': '10.200.0.1' };
    for (let i = 0; i < 5; i++)
      ok(await pub('POST', '/sendCode', { body: { phone: newPhone() }, headers: one }));
    const r = await pub('POST', '/sendCode', { body: { phone: newPhone() }, headers: one });
    expect(r.status).toBe(429);
    expect(r.body.message).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
  });
});

describe('visitor sessions', () => {
  it('are needed for a visitor call, and are not staff sessions (nor the reverse)', async () => {
    for (const bearer of [undefined, 'made-up-token', admin]) {
      const r = await pub('GET', '/orderList', { bearer });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({
        success: false,
        code: 1020,
        message: '请先用手机号验证码验证身份（验证有效期 2 小时）',
      });
    }
    const token = await visitor();
    expect((await s.call('GET', `${M}/AppointOrder/pageList`, { token })).status).toBe(999);
    expect(ok(await pub('GET', '/orderList', { bearer: token }))).toEqual([]);
    // Signed out: the token no longer opens anything.
    ok(await pub('POST', '/logout', { bearer: token }));
    expect((await pub('GET', '/me', { bearer: token })).status).toBe(401);
  });

  it('live in an HttpOnly, SameSite=Strict cookie on these calls only, with no token in the page answer', async () => {
    const phone = newPhone();
    ok(await pub('POST', '/sendCode', { body: { phone } }));
    const r = await pub('POST', '/login', { body: { phone, smsCode: codeInLog(phone) } });
    expect(r.body.result.token).toBeUndefined();
    const cookie = r.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^visitor_token=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('Path=/singleMuseum/appointPublic');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toMatch(/Max-Age=7200/);
    const me = ok(await pub('GET', '/me', { headers: { cookie: cookie.split(';')[0]! } }));
    expect(me.phone).toBe(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
    // Expired sessions are refused.
    await s.db
      .updateTable('appoint_visitor_session')
      .set({ expires_at: Date.now() - 1 })
      .where('phone', '=', phone)
      .execute();
    expect((await pub('GET', '/me', { headers: { cookie: cookie.split(';')[0]! } })).status).toBe(401);
  });
});

describe('booking as a visitor', () => {
  it('uses the verified phone and the desk’s rules, and takes the places', async () => {
    const phone = newPhone();
    const token = await visitor(phone);
    const id = ticket(addDays(today, 1));
    const before = (await slotOf(id))!.surplusSum;
    const made = ok(
      await pub('POST', '/book', {
        bearer: token,
        // A contactPhone in the body is not read: the contact is the verified phone.
        body: {
          ticketId: id,
          contactName: '李联系',
          contactPhone: '13000000000',
          visitors: [adult(), adult('李二')],
        },
      }),
    );
    expect(made.orderNo).toMatch(/^P\d{16}$/);
    expect((await slotOf(id))!.surplusSum).toBe(before - 2);
    const row = await s.db
      .selectFrom('appoint_order')
      .selectAll()
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ contact_phone: phone, channel: 2, status: 1, verify_code: made.verifyCode });
    const detail = ok(await pub('GET', `/orderDetail?id=${made.id}`, { bearer: token }));
    expect(detail).toMatchObject({
      verifyCode: made.verifyCode,
      statusLabel: '已预约',
      visitorCount: 2,
      canCancel: true,
    });
    expect(detail.visitors[0].idNumber).toMatch(/^1101\*{10}\d{3}[\dX]$/);
    // The mini-program's channel.
    const mini = ok(
      await pub('POST', '/book', {
        bearer: token,
        body: { ticketId: id, contactName: '李联系', channel: 1, visitors: [adult()] },
      }),
    );
    expect(
      (
        await s.db
          .selectFrom('appoint_order')
          .select('channel')
          .where('id', '=', mini.id)
          .executeTakeFirstOrThrow()
      ).channel,
    ).toBe(1);
    const desk = await pub('POST', '/book', {
      bearer: token,
      body: { ticketId: id, contactName: '李联系', channel: 3, visitors: [adult()] },
    });
    expect(desk.body.message).toContain('预约渠道只能是 1（小程序）或 2（官网）');
    // The system log names the visitor by the masked phone.
    await expect
      .poll(async () =>
        s.db
          .selectFrom('system_log')
          .select(['user_name', 'action', 'module', 'target_table', 'result'])
          .where('target_id', '=', String(made.id))
          .where('target_table', '=', 'appoint_order')
          .execute(),
      )
      .toEqual([
        {
          user_name: `访客 ${phone.slice(0, 3)}****${phone.slice(-4)}`,
          action: '新增',
          module: '预约',
          target_table: 'appoint_order',
          result: 1,
        },
      ]);
  });

  it('gives the guards’ words: size, IDs, the same ID twice a day, release, closed', async () => {
    const token = await visitor();
    const id = ticket(addDays(today, 4));
    const book = (body: Record<string, unknown>) =>
      pub('POST', '/book', { bearer: token, body: { ticketId: id, contactName: '张联系', ...body } });
    expect(refused(await book({ visitors: [adult(), adult(), adult(), adult(), adult(), adult()] }))).toBe(
      '每单最多预约 5 人',
    );
    const bad = await book({ visitors: [{ name: '张错', idType: 1, idNumber: '110105198805060001' }] });
    expect(bad.body.message).toContain('参观人“张错”的证件号');
    const passport = await book({ visitors: [{ name: 'Tom', idType: 2, idNumber: 'E1' }] });
    expect(passport.body.message).toContain('证件号须为 5–30 位字母或数字');
    const v = adult('张一');
    ok(await book({ visitors: [v] }));
    expect(refused(await book({ visitors: [v] }))).toMatch(
      /^参观人“张一”（1101\*+\d{3}[\dX]）.* 已有预约，同一证件每天只能预约一次$/,
    );
    expect(refused(await book({ ticketId: ticket(addDays(today, 8)), visitors: [adult()] }))).toMatch(
      /的门票将于 .* 开放预约$/,
    );
    expect(refused(await book({ ticketId: ticket(addDays(today, 2), '夜场'), visitors: [adult()] }))).toBe(
      '该场次已关闭：设备检修，请选择其他场次',
    );
    expect(refused(await book({ ticketId: 999_999, visitors: [adult()] }))).toBe(
      '该场次不存在或已删除，请刷新后重试',
    );
    const noVisitors = await book({ visitors: [] });
    expect(noVisitors.body.message).toContain('请至少填写一位参观人');
  });

  it('honours Idempotency-Key: a replay answers the first booking and books nothing', async () => {
    const token = await visitor();
    const id = ticket(addDays(today, 5));
    const body = { ticketId: id, contactName: '赵联系', visitors: [adult()] };
    const key = { 'idempotency-key': 'visit-key-0001' };
    const first = await pub('POST', '/book', { bearer: token, body, headers: key });
    const again = await pub('POST', '/book', { bearer: token, body, headers: key });
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body.result).toEqual(first.body.result);
    expect(ok(await pub('GET', '/orderList', { bearer: token }))).toHaveLength(1);
    const bad = await pub('POST', '/book', { bearer: token, body, headers: { 'idempotency-key': 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Idempotency-Key 格式不正确');
  });
});

describe('another phone’s booking', () => {
  it('is never listed, shown or cancelled: the same words as a missing one', async () => {
    const mine = await visitor();
    const theirs = await visitor();
    const made = ok(
      await pub('POST', '/book', {
        bearer: mine,
        body: { ticketId: ticket(addDays(today, 6)), contactName: '周', visitors: [adult()] },
      }),
    );
    expect(ok(await pub('GET', '/orderList', { bearer: theirs }))).toEqual([]);
    expect(refused(await pub('GET', `/orderDetail?id=${made.id}`, { bearer: theirs }))).toBe('预约不存在');
    expect(refused(await pub('POST', '/cancel', { bearer: theirs, body: { id: made.id } }))).toBe(
      '预约不存在',
    );
    expect(refused(await pub('GET', `/orderDetail?id=99999999`, { bearer: theirs }))).toBe('预约不存在');
    expect((await pub('GET', `/orderDetail?id=abc`, { bearer: theirs })).body.message).toContain(
      '必须是数字',
    );
    // Still standing for its owner.
    expect(ok(await pub('GET', `/orderDetail?id=${made.id}`, { bearer: mine })).status).toBe(1);
  });
});

describe('the visitor’s cancel', () => {
  it('gives the places and IDs back, and shows no entry code afterwards', async () => {
    const token = await visitor();
    const id = ticket(addDays(today, 1), '夜场');
    const v = adult('吴参观');
    const before = (await slotOf(id))!.surplusSum;
    const made = ok(
      await pub('POST', '/book', { bearer: token, body: { ticketId: id, contactName: '吴', visitors: [v] } }),
    );
    expect((await slotOf(id))!.surplusSum).toBe(before - 1);
    ok(await pub('POST', '/cancel', { bearer: token, body: { id: made.id } }));
    expect((await slotOf(id))!.surplusSum).toBe(before);
    const d = ok(await pub('GET', `/orderDetail?id=${made.id}`, { bearer: token }));
    expect(d).toMatchObject({ status: 3, statusLabel: '已取消', verifyCode: null, canCancel: false });
    expect(refused(await pub('POST', '/cancel', { bearer: token, body: { id: made.id } }))).toBe(
      '该预约已取消，不能取消',
    );
    // The ID may book that day again.
    ok(
      await pub('POST', '/book', { bearer: token, body: { ticketId: id, contactName: '吴', visitors: [v] } }),
    );
    const log = await s.db
      .selectFrom('bs_status_log')
      .selectAll()
      .where('record_id', '=', made.id)
      .where('action', '=', 'cancel')
      .execute();
    expect(log).toHaveLength(1);
  });

  it('is refused once the slot has started, and after the deadline on the visit day', async () => {
    const token = await visitor();
    const started = ok(
      await pub('POST', '/book', {
        bearer: token,
        body: { ticketId: ticket(today), contactName: '郑', visitors: [adult()] },
      }),
    );
    expect(refused(await pub('POST', '/cancel', { bearer: token, body: { id: started.id } }))).toBe(
      '场次已开始，不能取消预约',
    );
    ok(await settings({ cancelDeadline: '00:00' }));
    const late = ok(
      await pub('POST', '/book', {
        bearer: token,
        body: { ticketId: ticket(today, '夜场'), contactName: '郑', visitors: [adult()] },
      }),
    );
    const list = ok(await pub('GET', '/orderList', { bearer: token }));
    expect(list.find((o: { id: number }) => o.id === late.id)).toMatchObject({
      canCancel: false,
      cancelNote: '已过取消截止时间（参观当日 00:00），不能取消预约',
    });
    expect(refused(await pub('POST', '/cancel', { bearer: token, body: { id: late.id } }))).toBe(
      '已过取消截止时间（参观当日 00:00），不能取消预约',
    );
    ok(await settings());
  });

  it('counts as a no-show when the setting says so', async () => {
    ok(await settings({ cancelCountsAsNoShow: true }));
    const token = await visitor();
    const made = ok(
      await pub('POST', '/book', {
        bearer: token,
        body: { ticketId: ticket(addDays(today, 2)), contactName: '孙', visitors: [adult()] },
      }),
    );
    ok(await pub('POST', '/cancel', { bearer: token, body: { id: made.id } }));
    const v = await s.db
      .selectFrom('appoint_order_visitor')
      .select(['check_status', 'day_key'])
      .where('order_id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(v).toEqual({ check_status: 2, day_key: null });
    ok(await settings());
  });
});
