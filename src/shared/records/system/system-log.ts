import type { RecordDetail, RecordPage } from '../api';
import { defineRecord, f, type RecordDef } from '../define';
import { LOG_RESULTS, type LogOptions, type LogRow } from '../../api/syslog';
import { parseMuseumTime } from '../../rules/museum-time';

/**
 * 系统日志 (/system/log) on the records engine's generic list page, read-only.
 *
 * **Decision: an adapter, not a generic-server definition.** The log's server side (README
 * "System log", server/modules/syslog) came before the engine, and serving it from a `log`
 * definition would lose what it does that the engine does not: its table has no base columns
 * (and a log of millions of rows should not carry four it never uses); entries are written in
 * batches off the request path, so each read first flushes the writer; the address filter
 * matches the start of an address (`192.168.1.` finds the subnet) and the person filter part of
 * a name (a failed sign-in's account is only a name); a date alone as the end means that whole
 * day; the export streams up to 100,000 rows a page at a time by keyset, where the engine's
 * export reads at most 10,000 through its list; `sysLog/options` offers the modules the log
 * holds. So the calls stay as documented (sysLog/pageList, detail, options, export) and this
 * definition describes them to the generic UI: its fields are the list's columns, filters and
 * the detail, and `adapter` maps the engine's words onto the calls' and their answers back. It
 * is not in RECORDS (the generic server never serves it); tests/server/syslog-page.test.ts runs
 * the adapter against the real calls.
 *
 * Filters: time range (`timeFrom`/`timeTo` → `startTime`/`endTime`), person (`userName`, part
 * of the name), module and action (choices from sysLog/options), result, address (`ip`, its
 * start). Newest first; paging; the detail drawer shows the redacted parameters.
 */

/** The log's fields as the page shows them (keys are LogRow's). */
export const systemLog: RecordDef = defineRecord({
  name: 'systemLog',
  title: '系统日志',
  shape: 'log',
  table: 'system_log',
  base: '/sysLog',
  calls: { list: 'GET pageList', detail: 'GET detail', export: 'GET export' },
  fields: {
    time: f.datetime('时间', { list: true, filter: 'range', seconds: true, width: 170 }),
    userName: f.text('操作人', { list: true, filter: 'eq', width: 110, placeholder: '姓名或登录账号' }),
    module: f.text('模块', { list: true, filter: 'eq', width: 110 }),
    action: f.text('操作', { list: true, filter: 'eq', width: 100 }),
    result: f.status(
      '结果',
      [
        { value: 1, label: LOG_RESULTS[1], color: 'green' },
        { value: 0, label: LOG_RESULTS[0], color: 'red' },
      ],
      { list: true, filter: 'eq', width: 80 },
    ),
    ip: f.text('地址', { list: true, filter: 'eq', width: 140, placeholder: '地址开头，如 192.168.1.' }),
    path: f.text('请求路径', { list: true, max: 300 }),
    errorMessage: f.text('失败原因', { max: 500 }),
    method: f.text('请求方式'),
    targetTable: f.text('对象表'),
    targetId: f.text('对象编号', { max: 200 }),
    userId: f.int('人员编号'),
    durationMs: f.int('耗时（毫秒）'),
    userAgent: f.textarea('客户端', { max: 300 }),
    params: f.textarea('请求参数（已脱敏）', { max: 100_000 }),
  },
  access: { read: 'system.log', write: 'system.log' },
  order: [
    ['time', 'desc'],
    ['id', 'desc'],
  ],
  describe: (r) => `${String(r.action ?? '')} · ${String(r.userName || '匿名访问')}`,
  adapter: {
    query: logQuery,
    page: (answer) => logPage(answer as { list: LogRow[]; total: number }),
    detail: (answer) => logDetail(answer as LogRow),
    choices: {
      call: 'GET options',
      pick: (answer) => {
        const o = answer as LogOptions;
        const items = (xs: readonly string[]) => xs.map((x) => ({ value: x, label: x }));
        return { module: items(o.modules), action: items(o.actions) };
      },
    },
  },
});

/** The filters the calls take besides the range: sent under the same names. */
const SAME = ['userName', 'module', 'action', 'result', 'ip', 'currentPage', 'pageCount'] as const;

/** The engine's list query in sysLog/pageList's (and export's) words. */
export function logQuery(q: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of SAME) if (q[k] !== undefined && q[k] !== '') out[k] = q[k];
  if (q.timeFrom) out.startTime = q.timeFrom;
  if (q.timeTo) out.endTime = q.timeTo;
  return out;
}

/** One entry as a row of the engine: times as epoch ms, the parameters as readable JSON text. */
export function logRecord(r: LogRow): RecordPage['list'][number] {
  const time = parseMuseumTime(r.time) ?? 0;
  return {
    ...r,
    time,
    params: r.params === null || r.params === undefined ? '' : JSON.stringify(r.params, null, 2),
    // A log entry has no editor: its who and when are its own fields.
    createTime: time,
    updateTime: time,
    createBy: r.userId,
    updateBy: null,
  };
}

const namesOf = (rows: readonly LogRow[]) => ({
  users: Object.fromEntries(rows.flatMap((r) => (r.userId === null ? [] : [[String(r.userId), r.userName]]))),
  depts: {},
});

export function logPage(answer: { list: LogRow[]; total: number }): RecordPage {
  return { list: answer.list.map(logRecord), total: answer.total, names: namesOf(answer.list) };
}

export function logDetail(answer: LogRow): RecordDetail {
  return { record: logRecord(answer), names: namesOf([answer]), log: [] };
}
