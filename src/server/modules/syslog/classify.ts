import { DRIVE_PREFIX, MUSEUM_PREFIX } from '../../../shared/api/envelope';
import type { LogAction } from '../../../shared/api/syslog';

/**
 * Which calls the system log records, and as what: one table, read by the capture hook
 * (syslog.plugin.ts) for every API request, so a module added later is logged the day its routes
 * exist. The rules, in order:
 *
 * 1. A route's own `config.audit` wins: `false` keeps it out, `{ action, module, table }` says
 *    what it is (for a call whose name says nothing).
 * 2. Sign-in is 登录 (登录失败 when refused), sign-out 登出.
 * 3. A call whose path has `export` in it is 导出.
 * 4. A download through a share (`filetransfer/downloadfile` with `shareBatchNum`) is 下载.
 * 5. Agreeing, refusing, withdrawing and transferring a request (`workflowInst/approval`,
 *    `cancel`, `deliver`) are 审批.
 * 6. Chunked uploads are one entry per file: the call that completes the file (or fails), not
 *    every chunk.
 * 7. Every other POST, PUT, PATCH and DELETE is a write, unless its name says it reads (list,
 *    get…, detail, data, count, find, load, search, query, check…, preview…). A GET is a write
 *    only when the route declares `config.mutation` (a GET that changes something must: the
 *    session check then demands the token header) or is a spec GET `…/delete`.
 * 8. A write's name says which: delete/remove/clear → 删除; add/save/create/upload/start/copy/
 *    share/import… → 新增; anything else → 修改.
 *
 * The module and the table come from the path (longest prefix first); an unknown path is named by
 * its first segment, so nothing goes unlogged while its name is added here.
 */

/** What a route may say about itself (`config: { audit: … }`). */
export type AuditRouteConfig = false | { action?: LogAction; module?: string; table?: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The system log's view of this route (server/modules/syslog/classify.ts). */
    audit?: AuditRouteConfig;
  }
}

export interface RequestFacts {
  method: string;
  /** The route's URL as registered, prefix included (`/singleMuseum/sysUser/save`). */
  route: string;
  query: Record<string, unknown> | undefined;
  body: unknown;
  /** `config.mutation`: a GET that changes something. */
  mutation: boolean;
  audit: AuditRouteConfig | undefined;
}

export interface Kind {
  action: LogAction;
  module: string;
  table: string | null;
  /** Logged only once the answer says the file is complete (`done`), or the call failed. */
  onlyWhenDone?: boolean;
}

type Place = [prefix: string, module: string, table: string | null];

/** Museum calls by path prefix (after /singleMuseum). */
const MUSEUM: Place[] = [
  ['/login', '登录', 'user'],
  ['/personal', '个人中心', 'user'],
  ['/notice', '通知', 'notice'],
  ['/sysCooperation', '协作消息', 'cooperation'],
  ['/infoPublish', '信息发布', 'announcement'],
  ['/bs/bsAddressBook', '通讯录', 'address_book'],
  ['/bs/bsDataDownload', '下载中心', 'download_doc'],
  ['/bs/bsDutyRoster', '值班表', 'duty_roster'],
  ['/applet/bsSchedule', '日程', 'schedule'],
  // 观众记录's typed counts (issue 24, README "Dashboards and the workbench").
  ['/applet/tourRecord', '观众统计', 'tour_record'],
  ['/workflowInst', '审批', 'approval_request'],
  ['/workflowActvity', '审批', 'approval_request'],
  ['/workflowTemplate', '审批设置', 'approval_template'],
  ['/workflowConfig', '审批设置', 'approval_template'],
  ['/attendance', '考勤', null],
  ['/project', '项目', 'project'],
  ['/projectBlock', '项目', 'project_block'],
  ['/projectTask', '项目', 'project_task'],
  ['/projectUser', '项目', 'project_user'],
  ['/projectFile', '项目', 'project_task_file'],
  ['/attach', '附件', 'attachment'],
  ['/bsDigitalassetsInfo', '数字资源', null],
  ['/v2', '志愿者', null],
  ['/book', '图书', null],
  ['/repair', '文物修复', null],
  ['/bs', '内容管理', null],
  ['/applet', '内容管理', null],
  ['/collectDict', '数据字典', null],
  ['/scheme', '批量导入', null],
  ['/businessData', '业务数据', null],
  ['/wkDynamic', '工作动态', null],
  ['/sysUser', '人员管理', 'user'],
  ['/sysDept', '组织架构', 'department'],
  ['/sysRole', '角色设置', 'role'],
  ['/sysLog', '系统日志', 'system_log'],
  ['/sysUserPending', '人员审核', 'staff_registration'],
  ['/bs/bsMuseumFloor', '馆区地图', 'museum_floor'],
  ['/bs/bsMuseumHall', '馆区地图', 'museum_hall'],
  ['/register', '注册', 'staff_registration'],
];

/** Drive calls by path prefix (after /wangpan). */
const DRIVE: Place[] = [
  ['/share', '分享', 'share'],
  ['/recoveryfile', '回收站', 'recovery'],
  ['/office', '在线文档', 'user_file'],
  ['/admin', '存储管理', 'storage_quota'],
  ['/file', '网盘', 'user_file'],
  ['/filetransfer', '网盘', 'user_file'],
];

const byLength = (a: Place, b: Place) => b[0].length - a[0].length;
MUSEUM.sort(byLength);
DRIVE.sort(byLength);

function placeOf(route: string): { module: string; table: string | null } {
  const [prefix, places] = route.startsWith(DRIVE_PREFIX) ? [DRIVE_PREFIX, DRIVE] : [MUSEUM_PREFIX, MUSEUM];
  const rest = route.slice(prefix.length);
  for (const [p, module, table] of places) {
    if (rest === p || rest.startsWith(`${p}/`)) return { module, table };
  }
  // The reservation calls are named AppointOrder, appointTeamOrder, AppointSetting…
  if (/^\/appoint/i.test(rest)) return { module: '预约', table: null };
  if (prefix === DRIVE_PREFIX) return { module: '网盘', table: null };
  return { module: rest.split('/')[1] || '其他', table: null };
}

/**
 * Names of POST calls that read (the spec posts many of its reads), lowercased. Kept narrow: a
 * write mistaken for a read would go unlogged, a read mistaken for a write only adds an entry.
 */
const READS =
  /^(list|data|detail|get|page|count|find|load|search|query|preview|taskget|copytouserlist|condition|checkfileinproject)/;
/** On the name as written: camelCase `…Del`, `del…` only as a word (not `model`, `delay`). */
const DELETES = /[Dd]elete|[Rr]emove|^del([A-Z]|$)|Del$|^clear|^cancelshare/;
/** Lowercased; `address…` and `news…` are not additions. */
const CREATES =
  /^(add(?!ress)|save|create|upload|new(?!s)|start|import|copy|batchcopy|share|fromdrive|movefromdrive|unzip|comment|insert|register|apply|poster)/;
const APPROVALS = new Set(['approval', 'cancel', 'deliver']);
const REGISTRATION_DECISIONS = new Set(['approve', 'refuse']);

/** 删除, 新增 or 修改, by the call's last path segment. */
export function verbAction(method: string, segment: string): LogAction {
  if (method === 'DELETE' || DELETES.test(segment)) return '删除';
  if (CREATES.test(segment.toLowerCase())) return '新增';
  return '修改';
}

const DRIVE_UPLOAD = `${DRIVE_PREFIX}/filetransfer/uploadfile`;
const ATTACH_UPLOAD = `${MUSEUM_PREFIX}/attach/chunk`;

/** What a request is for the system log, or null when it is not logged (see the file's comment). */
export function classify(f: RequestFacts): Kind | null {
  if (f.audit === false) return null;
  const place = placeOf(f.route);
  const segments = f.route.split('/').filter(Boolean);
  const last = segments.at(-1) ?? '';
  const own = f.audit || undefined;
  const kind = (action: LogAction, extra: Partial<Kind> = {}): Kind => ({
    action,
    module: own?.module ?? extra.module ?? place.module,
    table: own?.table ?? (extra.table !== undefined ? extra.table : place.table),
    ...(extra.onlyWhenDone ? { onlyWhenDone: true } : {}),
  });
  if (own?.action) return kind(own.action);

  if (f.route === `${MUSEUM_PREFIX}/login/webLogin`) return kind('登录');
  if (f.route === `${MUSEUM_PREFIX}/login/logout`) return kind('登出');
  if (segments.some((s) => /export/i.test(s))) return kind('导出');
  if (f.route === `${DRIVE_PREFIX}/filetransfer/downloadfile`) {
    const share = f.query?.shareBatchNum;
    return typeof share === 'string' && share !== '' ? kind('下载', { module: '分享' }) : null;
  }
  if (f.route.startsWith(`${MUSEUM_PREFIX}/workflowInst/`) && APPROVALS.has(last)) return kind('审批');
  // Deciding a self-registration (人员审核's 通过 and 拒绝) is an approval too.
  if (f.route.startsWith(`${MUSEUM_PREFIX}/sysUserPending/`) && REGISTRATION_DECISIONS.has(last))
    return kind('审批');
  // The Document Server reports editing all along; only a save (status 2, or 6 force-save) writes.
  if (f.route === `${DRIVE_PREFIX}/office/callback`) {
    const status = (f.body as { status?: unknown } | undefined)?.status;
    return status === 2 || status === 6 ? kind('修改') : null;
  }
  if (f.route === DRIVE_UPLOAD || f.route === ATTACH_UPLOAD) {
    if (f.method === 'DELETE') return kind('删除');
    // The drive's GET test request completes a file the server already holds (instant upload).
    if (f.method === 'POST' || f.route === DRIVE_UPLOAD) return kind('新增', { onlyWhenDone: true });
    return null;
  }

  if (f.method === 'GET' || f.method === 'HEAD') {
    if (!f.mutation && !/^(delete|remove)/i.test(last)) return null;
    return kind(verbAction(f.method, last));
  }
  if (f.method === 'OPTIONS') return null;
  if (f.method !== 'DELETE' && READS.test(last.toLowerCase())) return null;
  return kind(verbAction(f.method, last));
}
