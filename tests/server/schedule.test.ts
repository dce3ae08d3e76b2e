import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M, failure } from './util';

/*
 * Personal schedules, /applet/bsSchedule: each person sees and changes only their own items;
 * another person's id answers exactly as a missing one. Times are museum time.
 */

let s: TestServer;
let staff01: string;
let staff02: string;
const S = `${M}/applet/bsSchedule`;
const GONE = failure(404, '该日程不存在或已被删除');

beforeAll(async () => {
  s = await startServer();
  staff01 = await s.login('staff01');
  staff02 = await s.login('staff02');
});
afterAll(() => s.close());

const get = (path: string, token = staff01) => s.call('GET', `${S}${path}`, { token });
const post = (path: string, body: unknown, token = staff01, headers?: Record<string, string>) =>
  s.call('POST', `${S}${path}`, { token, body, headers });

const item = (extra: Record<string, unknown> = {}) => ({
  title: '藏品清点',
  startTime: '2026-03-05 09:00',
  endTime: '2026-03-05 10:30',
  location: '二号库房',
  remark: '带上清单',
  ...extra,
});
async function save(body: unknown, token = staff01): Promise<number> {
  const res = await post('/save', body, token);
  expect(res.body.success, JSON.stringify(res.body)).toBe(true);
  return res.body.result.id as number;
}
async function titles(query: string, token = staff01): Promise<string[]> {
  const res = await get(`/list?${query}`, token);
  expect(res.body.success, JSON.stringify(res.body)).toBe(true);
  return res.body.result.list.map((i: { title: string }) => i.title);
}

describe('own items', () => {
  let id: number;

  it('saves one and reads it back by day and by id', async () => {
    id = await save(item());
    const res = await get('/list?date=2026-03-05');
    expect(res.body).toEqual({
      success: true,
      code: 0,
      message: '成功',
      result: {
        list: [
          {
            id,
            title: '藏品清点',
            startTime: '2026-03-05 09:00',
            endTime: '2026-03-05 10:30',
            allDay: false,
            location: '二号库房',
            remark: '带上清单',
          },
        ],
      },
    });
    expect((await get(`/detail?id=${id}`)).body.result).toEqual(res.body.result.list[0]);
  });

  it('lists the items overlapping the day, by start', async () => {
    await save(item({ title: '早会', startTime: '2026-03-05 08:00', endTime: '2026-03-05 08:30' }));
    await save(item({ title: '跨夜布展', startTime: '2026-03-04 22:00', endTime: '2026-03-05 01:00' }));
    await save(item({ title: '到零点', startTime: '2026-03-04 20:00', endTime: '2026-03-05 00:00' }));
    await save(item({ title: '零点提醒', startTime: '2026-03-05 00:00', endTime: '2026-03-05 00:00' }));
    await save(item({ title: '次日', startTime: '2026-03-06 00:00', endTime: '2026-03-06 09:00' }));
    expect(await titles('date=2026-03-05')).toEqual(['跨夜布展', '零点提醒', '早会', '藏品清点']);
    expect(await titles('date=2026-03-04')).toEqual(['到零点', '跨夜布展']);
    expect(await titles('from=2026-03-04&to=2026-03-06')).toEqual([
      '到零点',
      '跨夜布展',
      '零点提醒',
      '早会',
      '藏品清点',
      '次日',
    ]);
  });

  it('stores an all-day item as its whole days', async () => {
    const allDay = await save(
      item({
        title: '闭馆检修',
        allDay: true,
        startTime: '2026-03-10 14:00',
        endTime: '2026-03-11 09:00',
      }),
    );
    const res = await get(`/detail?id=${allDay}`);
    expect(res.body.result).toMatchObject({
      allDay: true,
      startTime: '2026-03-10 00:00',
      endTime: '2026-03-11 23:59',
    });
    expect(await titles('date=2026-03-11')).toEqual(['闭馆检修']);
    // Same day, earlier clock on the end: fine for an all-day item, whose days are what count.
    const sameDay = item({ allDay: true, startTime: '2026-03-12 18:00', endTime: '2026-03-12 08:00' });
    expect((await post('/save', sameDay)).body.success).toBe(true);
  });

  it('updates and deletes it (the spec GET with the token header, and POST)', async () => {
    const res = await post('/update', item({ id, title: '藏品清点（改）', endTime: '2026-03-05 11:00' }));
    expect(res.body).toEqual({ success: true, code: 0, message: '成功', result: {} });
    expect((await get(`/detail?id=${id}`)).body.result).toMatchObject({
      title: '藏品清点（改）',
      endTime: '2026-03-05 11:00',
    });

    const cookieOnly = await s.call('GET', `${S}/delete?id=${id}`, {
      headers: { cookie: `token=${staff01}` },
    });
    expect(cookieOnly.body).toEqual(failure(1005, '此操作须在馆务云页面中进行，请刷新页面后重试'));
    expect((await get(`/delete?id=${id}`)).body.success).toBe(true);
    expect((await get(`/detail?id=${id}`)).body).toEqual(GONE);
    expect((await get(`/delete?id=${id}`)).body).toEqual(GONE);

    const other = await save(item({ title: '临时' }));
    expect((await post('/delete', { id: other })).body.success).toBe(true);
    expect((await post('/delete', { id: other })).body).toEqual(GONE);
    expect(await titles('date=2026-03-05')).not.toContain('临时');
  });

  it('applies a replayed save (same Idempotency-Key) once', async () => {
    const key = randomUUID();
    const body = item({ title: '离线新建', startTime: '2026-04-01 09:00', endTime: '2026-04-01 10:00' });
    const first = await post('/save', body, staff01, { 'idempotency-key': key });
    const again = await post('/save', body, staff01, { 'idempotency-key': key });
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await titles('date=2026-04-01')).toEqual(['离线新建']);
  });
});

describe("another person's items", () => {
  it('are invisible, and their ids answer as missing for read, update and delete', async () => {
    const mine = await save(
      item({ title: '私人安排', startTime: '2026-05-01 09:00', endTime: '2026-05-01 10:00' }),
    );
    expect(await titles('date=2026-05-01', staff02)).toEqual([]);
    expect((await get(`/detail?id=${mine}`, staff02)).body).toEqual(GONE);
    expect((await post('/update', item({ id: mine, title: '被改' }), staff02)).body).toEqual(GONE);
    expect((await post('/delete', { id: mine }, staff02)).body).toEqual(GONE);
    expect((await get(`/delete?id=${mine}`, staff02)).body).toEqual(GONE);
    expect(await titles('date=2026-05-01')).toEqual(['私人安排']);
  });

  it('needs a session at all', async () => {
    expect((await s.call('GET', `${S}/list?date=2026-05-01`)).status).toBe(999);
    expect((await s.call('POST', `${S}/save`, { body: item() })).status).toBe(999);
  });
});

describe('validation', () => {
  it('refuses bad items with messages that say what to fix', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '' }, '请输入日程标题'],
      [{ title: '   ' }, '请输入日程标题'],
      [{ title: undefined }, '请输入日程标题'],
      [{ title: '题'.repeat(51) }, '日程标题不能超过 50 个字符'],
      [{ title: 'a\u0007b' }, '日程标题不能包含控制字符'],
      [{ endTime: '2026-03-05 08:59' }, '结束时间不能早于开始时间'],
      [{ allDay: true, endTime: '2026-03-04 23:00' }, '结束时间不能早于开始时间'],
      [{ startTime: '' }, '请选择开始时间'],
      [{ startTime: '2026-03-05 25:00' }, '开始时间格式应为 yyyy-MM-dd HH:mm'],
      [{ endTime: '2026-02-30 10:00' }, '结束时间格式应为 yyyy-MM-dd HH:mm'],
      [{ endTime: '2026/03/05 10:00' }, '结束时间格式应为 yyyy-MM-dd HH:mm'],
      [{ location: '地'.repeat(51) }, '地点不能超过 50 个字符'],
      [{ remark: '备'.repeat(501) }, '备注不能超过 500 个字符'],
    ];
    for (const [extra, message] of cases) {
      const res = await post('/save', item(extra));
      expect(res.status, message).toBe(400);
      expect(res.body, message).toEqual(failure(400, message));
    }
    // Exactly at the limits is fine.
    expect(
      (await post('/save', item({ title: '题'.repeat(50), remark: '备'.repeat(500) }))).body.success,
    ).toBe(true);
  });

  it('refuses bad ids', async () => {
    for (const id of [0, -1, 'abc']) {
      expect((await get(`/detail?id=${id}`)).status).toBe(400);
      expect((await get(`/delete?id=${id}`)).status).toBe(400);
      expect((await post('/delete', { id })).status).toBe(400);
      const res = await post('/update', item({ id }));
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await post('/update', item({ id: 999999 }))).body).toEqual(GONE);
    expect((await post('/update', item())).status).toBe(400);
  });

  it('limits list ranges', async () => {
    const refused = async (query: string, message: string) => {
      const res = await get(`/list?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toEqual(failure(400, message));
    };
    await refused('', '请指定日期');
    await refused('date=2026-02-30', '日期格式应为 yyyy-MM-dd');
    await refused('date=today', '日期格式应为 yyyy-MM-dd');
    await refused('from=2026-03-01', '请同时指定开始日期和结束日期');
    await refused('date=2026-03-01&from=2026-03-01&to=2026-03-02', '请只指定日期，或只指定开始和结束日期');
    await refused('from=2026-03-02&to=2026-03-01', '结束日期不能早于开始日期');
    await refused('from=2026-03-01&to=2026-05-02', '查询范围不能超过 62 天');
    // 62 days inclusive is the limit itself.
    expect((await get('/list?from=2026-03-01&to=2026-05-01')).body.success).toBe(true);
  });
});
