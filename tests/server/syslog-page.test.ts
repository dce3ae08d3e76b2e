import ExcelJS from 'exceljs';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogListQuery, type LogRow } from '../../src/shared/api/syslog';
import { RecordDetail, RecordPage } from '../../src/shared/records/api';
import { parseCall } from '../../src/shared/records/define';
import { listSchema } from '../../src/shared/records/schemas';
import { RECORDS } from '../../src/shared/records/index';
import { systemLog } from '../../src/shared/records/system/system-log';
import { parseMuseumTime } from '../../src/shared/rules/museum-time';
import * as repo from '../../src/server/modules/syslog/syslog.repo';
import { startServer, type TestServer } from './harness';
import { M } from './util';

/**
 * Issue 18, the 系统日志 page: the generic list page reads the log's own calls through the
 * definition's adapter (shared/records/system/system-log.ts explains why the calls stay
 * hand-written). Here the adapter runs against the real calls: every filter the page offers
 * is a parameter the calls take and filters as it says, answers read as the engine's page and
 * detail, the export takes the same query, and the filters' choices come from sysLog/options.
 */

let s: TestServer;
let admin: string;
const routes: RouteOptions[] = [];
const adapter = systemLog.adapter!;
const at = (t: string) => parseMuseumTime(t)!;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' }, { onRoute: (r) => void routes.push(r) });
  admin = await s.login('admin');
  const base = {
    user_id: null,
    user_name: '',
    ip: '127.0.0.1',
    user_agent: 'test',
    module: '网盘',
    action: '新增',
    target_table: null,
    target_id: null,
    method: 'POST',
    path: '/wangpan/file/createfile',
    params: null,
    result: 1,
    error_message: null,
    duration_ms: 3,
  } satisfies Omit<repo.NewLogRow, 'time'>;
  await repo.insertMany(s.db, [
    { ...base, time: at('2021-03-01 08:00:05'), user_id: 2, user_name: '李明', ip: '192.168.1.20' },
    {
      ...base,
      time: at('2021-03-01 09:15:30'),
      user_name: 'nobody',
      module: '登录',
      action: '登录失败',
      result: 0,
      ip: '10.0.0.5',
      error_message: '账号或密码错误，还可尝试 4 次',
      params: JSON.stringify({ username: 'nobody', password: '******' }),
    },
    {
      ...base,
      time: at('2021-03-02 10:00:00'),
      user_id: 3,
      user_name: '王芳',
      module: '审批',
      action: '审批',
      ip: '192.168.1.21',
    },
  ]);
});
afterAll(async () => s?.close());

/** The list call with an engine-style query, through the adapter, as the page sends it. */
async function page(engine: Record<string, unknown>) {
  const q = new URLSearchParams(
    Object.entries(
      adapter.query({
        currentPage: 1,
        pageCount: 20,
        timeFrom: '2021-03-01 00:00',
        timeTo: '2021-03-02 23:59',
        ...engine,
      }),
    ).map(([k, v]) => [k, String(v)]),
  );
  const r = await s.call('GET', `${M}/sysLog/pageList?${q}`, { token: admin });
  expect(r.body.success, JSON.stringify(r.body)).toBe(true);
  return RecordPage.parse(adapter.page(r.body.result));
}

describe('the 系统日志 page over the log’s own calls', () => {
  it('is no record the generic server serves; its calls are the log’s registered GETs', () => {
    expect(RECORDS).not.toContain(systemLog);
    expect(systemLog.calls.create ?? systemLog.calls.update ?? systemLog.calls.remove).toBeUndefined();
    const registered = new Set(routes.map((r) => `${String(r.method)} ${r.url}`));
    for (const call of [...Object.values(systemLog.calls), adapter.choices!.call]) {
      const { method, name } = parseCall(call!);
      expect(registered, call).toContain(`${method} ${M}${systemLog.base}/${name}`);
    }
  });

  it('sends every filter the page offers as a parameter the list call takes', () => {
    const engine = listSchema(systemLog).shape;
    const filters = Object.keys(engine).filter((k) => !['orderBy', 'order', 'keyword'].includes(k));
    const sample = Object.fromEntries(
      filters.map((k) => [k, k.startsWith('time') ? '2021-03-01 00:00' : '1']),
    );
    const sent = Object.keys(adapter.query(sample));
    expect(sent.sort()).toEqual(
      [
        'currentPage',
        'pageCount',
        'startTime',
        'endTime',
        'userName',
        'module',
        'action',
        'result',
        'ip',
      ].sort(),
    );
    for (const k of sent) expect(Object.keys(LogListQuery.shape), k).toContain(k);
  });

  it('lists newest first, as engine rows with times to the second and names', async () => {
    const p = await page({});
    expect(p.total).toBe(3);
    expect(p.list.map((r) => r.userName)).toEqual(['王芳', 'nobody', '李明']);
    expect(p.list[0]).toMatchObject({
      time: at('2021-03-02 10:00:00'),
      createTime: at('2021-03-02 10:00:00'),
    });
    expect(p.list[1]!.time).toBe(at('2021-03-01 09:15:30'));
    expect(p.names.users).toEqual({ '2': '李明', '3': '王芳' });
  });

  it('filters by the time range, person, module, action, result and address as the page offers them', async () => {
    const names = async (q: Record<string, unknown>) => (await page(q)).list.map((r) => r.userName);
    expect(await names({ timeFrom: '2021-03-01 00:00', timeTo: '2021-03-01 23:59' })).toEqual([
      'nobody',
      '李明',
    ]);
    expect(await names({ timeFrom: '2021-03-01 09:00' })).toEqual(['王芳', 'nobody']);
    expect(await names({ userName: '王' })).toEqual(['王芳']);
    expect(await names({ userName: 'nob' })).toEqual(['nobody']);
    expect(await names({ module: '登录' })).toEqual(['nobody']);
    expect(await names({ action: '审批' })).toEqual(['王芳']);
    expect(await names({ result: '0' })).toEqual(['nobody']);
    expect(await names({ result: 1 })).toEqual(['王芳', '李明']);
    expect(await names({ ip: '192.168.1.' })).toEqual(['王芳', '李明']);
    expect(await names({ ip: '10.' })).toEqual(['nobody']);
    // A cleared filter, as the page sends it, filters nothing.
    expect(await names({ userName: undefined, module: '', ip: '' })).toHaveLength(3);
    // Paging.
    const first = await page({ pageCount: 2, currentPage: 1 });
    const second = await page({ pageCount: 2, currentPage: 2 });
    expect([...first.list, ...second.list].map((r) => r.userName)).toEqual(['王芳', 'nobody', '李明']);
    expect(second.total).toBe(3);
  });

  it('opens the detail with the redacted parameters as readable text', async () => {
    const row = (await page({ module: '登录' })).list[0]!;
    const r = await s.call('GET', `${M}/sysLog/detail?id=${row.id}`, { token: admin });
    const d = RecordDetail.parse(adapter.detail(r.body.result as LogRow));
    expect(d.record).toMatchObject({
      userName: 'nobody',
      result: 0,
      errorMessage: '账号或密码错误，还可尝试 4 次',
    });
    expect(d.record.params).toBe(JSON.stringify({ username: 'nobody', password: '******' }, null, 2));
    expect(d.log).toEqual([]);
  });

  it('exports what the page filters, with the same query', async () => {
    const q = new URLSearchParams(
      Object.entries(
        adapter.query({ timeFrom: '2021-03-01 00:00', timeTo: '2021-03-02 23:59', result: '1' }),
      ).map(([k, v]) => [k, String(v)]),
    );
    const res = await fetch(`${s.url}${M}/sysLog/export?${q}`, { headers: { token: admin } });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(new Uint8Array(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(3);
    expect((ws.getRow(2).values as unknown[]).slice(1, 3)).toEqual(['2021-03-02 10:00:00', '王芳']);
  });

  it('offers the modules and actions the log knows as the filters’ choices', async () => {
    const r = await s.call('GET', `${M}/sysLog/options`, { token: admin });
    const choices = adapter.choices!.pick(r.body.result);
    expect(choices.action!.map((c) => c.value)).toContain('登录失败');
    expect(choices.module!.map((c) => c.value)).toEqual(
      expect.arrayContaining(['登录', '审批', '人员审核', '注册']),
    );
    expect(Object.keys(choices).every((k) => systemLog.fields[k]?.filter === 'eq')).toBe(true);
  });

  it('keeps the page to administrators and 审计员 (the calls’ own rule)', async () => {
    const staff = await s.login('staff09');
    const r = await s.call('GET', `${M}/sysLog/pageList`, { token: staff });
    expect(r.body).toMatchObject({ success: false, code: 1005 });
  });
});
