import { z } from 'zod';
import { parseMuseumDate, parseMuseumTime } from '../rules/museum-time';
import { Id, absentIfEmpty } from './fields';

/**
 * The system log 系统日志 (issue 18; records-design §8 "System log"), read at
 * `/singleMuseum/sysLog/*` by administrators and the 审计员 role only. The server writes it (every
 * sign-in, sign-out and failed sign-in, every write, approval action, export, download through a
 * share and view of a full ID number); nobody edits or deletes an entry, and entries older than
 * LOG_RETENTION_DAYS (365 by default, never under 180) are pruned daily. README "System log".
 *
 * Calls (ours; the spec shows only the page /system/log):
 * - GET sysLog/pageList: filters below, `currentPage`/`pageCount`, newest first → {list, total}
 * - GET sysLog/detail?id → one entry
 * - GET sysLog/export: the same filters → an xlsx file (the export is logged itself)
 * - GET sysLog/options → the actions and modules the filters offer
 */

/** What was done. The spec's words (records-design §8). */
export const LOG_ACTIONS = [
  '登录',
  '登出',
  '登录失败',
  '新增',
  '修改',
  '删除',
  '审批',
  '导出',
  '下载',
  '查看证件号',
] as const;
export type LogAction = (typeof LOG_ACTIONS)[number];

/**
 * The modules an entry may name, in menu order: the filter offers these (and any other the log
 * holds). The server names a module by the call's path (server/modules/syslog/classify.ts);
 * a call it does not know is named by its first path segment until it is added there.
 */
export const LOG_MODULES = [
  '登录',
  '个人中心',
  '通知',
  '协作消息',
  '信息发布',
  '通讯录',
  '日程',
  '审批',
  '审批设置',
  '考勤',
  '项目',
  '附件',
  '网盘',
  '分享',
  '回收站',
  '在线文档',
  '存储管理',
  '数字资源',
  '志愿者',
  '图书',
  '内容管理',
  '文物修复',
  '预约',
  '数据字典',
  '批量导入',
  '业务数据',
  '工作动态',
  '人员管理',
  '组织架构',
  '角色设置',
  '系统日志',
] as const;

/** 1 成功, 0 失败. */
export const LOG_RESULTS = { 1: '成功', 0: '失败' } as const;

/** The shortest retention the server accepts: 网络安全法 §21 asks for at least six months. */
export const LOG_RETENTION_MIN_DAYS = 180;
export const LOG_RETENTION_DEFAULT_DAYS = 365;
/** The most rows one export holds; a wider filter is refused with a message saying so. */
export const LOG_EXPORT_MAX = 100_000;

/** One entry as the list, the detail and the export show it. */
export const LogRow = z.object({
  id: z.number(),
  /** 'yyyy-MM-dd HH:mm:ss', museum time: when the request arrived. */
  time: z.string(),
  /** null: nobody signed in (a failed sign-in, an anonymous share visitor). */
  userId: z.number().nullable(),
  /** The person's name when it happened; for a failed sign-in, the account name typed. */
  userName: z.string(),
  /** The client's address (behind a reverse proxy: the one it forwarded for, see TRUST_PROXY). */
  ip: z.string(),
  userAgent: z.string(),
  module: z.string(),
  action: z.string(),
  targetTable: z.string().nullable(),
  targetId: z.string().nullable(),
  method: z.string(),
  path: z.string(),
  /** The request's parameters with every secret redacted (README "System log: redaction"). */
  params: z.unknown(),
  result: z.union([z.literal(0), z.literal(1)]),
  errorMessage: z.string().nullable(),
  durationMs: z.number(),
});
export type LogRow = z.infer<typeof LogRow>;

/** The column titles of the list and the export, in order. */
export const LOG_COLUMNS: readonly { key: keyof LogRow; title: string }[] = [
  { key: 'time', title: '时间' },
  { key: 'userName', title: '操作人' },
  { key: 'userId', title: '人员编号' },
  { key: 'ip', title: '地址' },
  { key: 'module', title: '模块' },
  { key: 'action', title: '操作' },
  { key: 'result', title: '结果' },
  { key: 'targetTable', title: '对象表' },
  { key: 'targetId', title: '对象编号' },
  { key: 'method', title: '请求方式' },
  { key: 'path', title: '请求路径' },
  { key: 'params', title: '请求参数' },
  { key: 'errorMessage', title: '失败原因' },
  { key: 'durationMs', title: '耗时（毫秒）' },
  { key: 'userAgent', title: '客户端' },
];

const TIME_HINT = '格式应为 yyyy-MM-dd 或 yyyy-MM-dd HH:mm:ss';

/**
 * A filter time: 'yyyy-MM-dd', 'yyyy-MM-dd HH:mm' or 'yyyy-MM-dd HH:mm:ss', museum time. A date
 * alone means the start of that day, or as an end, the whole day (2026-03-01 to 2026-03-01 is
 * that day). Answers epoch ms.
 */
function filterTime(label: string, end: boolean) {
  return absentIfEmpty(
    z
      .string()
      .trim()
      .transform((v, ctx) => {
        const date = parseMuseumDate(v);
        const ms =
          date !== null
            ? date + (end ? 86_400_000 - 1 : 0)
            : parseMuseumTime(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(v) ? `${v}:${end ? '59' : '00'}` : v);
        if (ms === null) {
          ctx.addIssue({ code: 'custom', message: `${label}“${v.slice(0, 30)}”不正确，${TIME_HINT}` });
          return z.NEVER;
        }
        return ms;
      }),
  );
}

const filterFields = z.object({
  startTime: filterTime('开始时间', false),
  endTime: filterTime('结束时间', true),
  userId: absentIfEmpty(Id),
  /** Part of the name (or of the account typed at a failed sign-in). */
  userName: absentIfEmpty(z.string().trim().max(50, '姓名最多 50 个字')),
  module: absentIfEmpty(z.string().trim().max(30, '模块最多 30 个字')),
  action: absentIfEmpty(z.enum(LOG_ACTIONS, { message: `操作只能是${LOG_ACTIONS.join('、')}之一` })),
  result: absentIfEmpty(
    z.preprocess(
      (v) => (typeof v === 'string' ? Number(v) : v),
      z.union([z.literal(0), z.literal(1)], { message: '结果只能是 1（成功）或 0（失败）' }),
    ),
  ),
  /** The start of an address: 192.168.1. finds the whole subnet; a full address finds itself. */
  ip: absentIfEmpty(
    z
      .string()
      .trim()
      .max(64, '地址最多 64 个字符')
      .regex(/^[0-9A-Fa-f.:]+$/, '地址只能包含数字、字母 a–f、点和冒号，例如 192.168.1.20'),
  ),
});
const inOrder = (f: { startTime?: number; endTime?: number }) =>
  f.startTime === undefined || f.endTime === undefined || f.startTime <= f.endTime;
const ORDER = { message: '开始时间不能晚于结束时间', path: ['startTime'] };

/** The filters, shared by the list and the export. */
export const LogFilter = filterFields.refine(inOrder, ORDER);
export type LogFilter = z.output<typeof LogFilter>;

export const LogListQuery = filterFields
  .extend({
    currentPage: z.coerce.number().int().min(1).default(1),
    pageCount: z.coerce.number().int().min(1).max(200).default(20),
  })
  .refine(inOrder, ORDER);
export type LogListQuery = z.output<typeof LogListQuery>;

export const LogDetailQuery = z.object({ id: Id });

export const LogOptions = z.object({
  actions: z.array(z.string()),
  /** Every module the log has entries for, and the known ones, in catalogue order. */
  modules: z.array(z.string()),
});
export type LogOptions = z.infer<typeof LogOptions>;

/** The export's file name: 系统日志_20260301120000.xlsx. */
export const logExportName = (stamp: string) => `系统日志_${stamp}.xlsx`;
