import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/index';
import { invalid, notFound } from '../../errors';
import { formatMuseumTime } from '../../../shared/rules/museum-time';
import {
  LOG_EXPORT_MAX,
  LOG_MODULES,
  LOG_ACTIONS,
  type LogAction,
  type LogFilter,
  type LogListQuery,
  type LogOptions,
  type LogRow,
} from '../../../shared/api/syslog';
import type { Selectable } from 'kysely';
import type { SystemLogTable } from '../../db/schema';
import { cleanText, paramsText } from './redact';
import * as repo from './syslog.repo';
import type { NewLogRow } from './syslog.repo';
import { createLogWriter, type LogWriter } from './writer';

/** Who did something, as an entry records them. */
export interface Who {
  userId: number | null;
  userName: string;
  ip: string;
  userAgent: string;
}

/** An entry a module writes itself (what the capture hook cannot see). */
export interface ExplicitEntry {
  action: LogAction;
  module: string;
  table?: string | null;
  targetId?: string | number | null;
  /** The call it happened in; defaults to the request's own when a request is given. */
  method?: string;
  path?: string;
  params?: unknown;
  result?: 0 | 1;
  errorMessage?: string | null;
  durationMs?: number;
}

/** The client address an entry records: req.ip (TRUST_PROXY-aware), IPv4-mapped IPv6 as IPv4. */
export function addressOf(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

/** The signed-in caller of a request (or nobody), with their address and browser. */
export function whoOf(req: FastifyRequest): Who {
  const ua = req.headers['user-agent'];
  return {
    userId: req.user?.id ?? null,
    userName: req.user?.userName ?? '',
    ip: addressOf(req.ip),
    userAgent: typeof ua === 'string' ? ua : '',
  };
}

const isRequest = (x: FastifyRequest | Who): x is FastifyRequest => 'raw' in x;

/** A row ready to insert, every text bounded to its column and cleaned of control characters. */
export function rowOf(
  who: Who,
  e: ExplicitEntry & { time: number; method: string; path: string },
): NewLogRow {
  return {
    time: e.time,
    user_id: who.userId,
    user_name: cleanText(who.userName, 100),
    ip: cleanText(who.ip, 64),
    user_agent: cleanText(who.userAgent, 300),
    module: cleanText(e.module, 30),
    action: e.action,
    target_table: e.table ? cleanText(e.table, 50) : null,
    target_id: e.targetId === null || e.targetId === undefined ? null : cleanText(String(e.targetId), 200),
    method: cleanText(e.method, 10),
    path: cleanText(e.path, 300),
    params: paramsText(e.params),
    result: e.result ?? 1,
    error_message: e.errorMessage ? cleanText(e.errorMessage, 500) : null,
    duration_ms: Math.max(0, Math.round(e.durationMs ?? 0)),
  };
}

function rowOut(r: Selectable<SystemLogTable>): LogRow {
  let params: unknown = null;
  if (r.params !== null) {
    try {
      params = JSON.parse(r.params);
    } catch {
      params = r.params;
    }
  }
  return {
    id: r.id,
    time: formatMuseumTime(Number(r.time)),
    userId: r.user_id,
    userName: r.user_name,
    ip: r.ip,
    userAgent: r.user_agent,
    module: r.module,
    action: r.action,
    targetTable: r.target_table,
    targetId: r.target_id,
    method: r.method,
    path: r.path,
    params,
    result: r.result === 1 ? 1 : 0,
    errorMessage: r.error_message,
    durationMs: r.duration_ms,
  };
}

export interface SyslogOptions {
  db: Db;
  /** The server's log, for what must not reach a user (a failed write). */
  report: (message: string, detail: Record<string, unknown>) => void;
  /** Rows one export may hold (LOG_EXPORT_MAX; tests lower it). */
  exportMax?: number;
  /** The writer's queue bound and pause (tests). */
  writer?: { maxPending?: number; delayMs?: number };
}

/**
 * The system log: its writer (fed by the capture hook and by modules' explicit entries), the
 * reads behind /sysLog/*, and the prune the daily job runs.
 */
export function createSyslog(opts: SyslogOptions) {
  const { db } = opts;
  const writer: LogWriter<NewLogRow> = createLogWriter<NewLogRow>({
    insert: (rows) => repo.insertMany(db, rows),
    report: opts.report,
    ...opts.writer,
  });
  const exportMax = opts.exportMax ?? LOG_EXPORT_MAX;

  /** Queues an entry a module writes itself; never throws into its caller. */
  function record(from: FastifyRequest | Who, e: ExplicitEntry): void {
    try {
      const who = isRequest(from) ? whoOf(from) : from;
      const req = isRequest(from) ? from : null;
      writer.push(
        rowOf(who, {
          ...e,
          time: Date.now(),
          method: e.method ?? req?.method ?? '',
          path: e.path ?? req?.url.split('?')[0] ?? '',
        }),
      );
    } catch (err) {
      opts.report('system log entry refused', { err });
    }
  }

  return {
    writer,
    record,

    /**
     * A full ID number was shown or exported (records-design §1: lists mask them; each view of
     * a full one is logged). Modules holding ID numbers (volunteers, reservations) call this
     * when they answer one unmasked.
     */
    idViewed(
      from: FastifyRequest | Who,
      target: { module: string; table: string; id: string | number; params?: unknown },
    ): void {
      record(from, {
        action: '查看证件号',
        module: target.module,
        table: target.table,
        targetId: target.id,
        params: target.params,
      });
    },

    async list(q: LogListQuery): Promise<{ list: LogRow[]; total: number }> {
      await writer.flush();
      const { currentPage, pageCount, ...f } = q;
      const [total, rows] = await Promise.all([
        repo.count(db, f),
        repo.page(db, f, (currentPage - 1) * pageCount, pageCount),
      ]);
      return { list: rows.map(rowOut), total };
    },

    async detail(id: number): Promise<LogRow> {
      await writer.flush();
      const r = await repo.find(db, id);
      if (!r) throw notFound('该日志不存在，请刷新后重试');
      return rowOut(r);
    },

    async options(): Promise<LogOptions> {
      await writer.flush();
      const held = await repo.modules(db);
      const known: readonly string[] = LOG_MODULES;
      const extra = held.filter((m) => !known.includes(m)).sort();
      return { actions: [...LOG_ACTIONS], modules: [...known, ...extra] };
    },

    /**
     * The rows of an export, newest first, a page at a time (bounded memory), after checking the
     * filter holds at most `exportMax` of them.
     */
    async exportRows(f: LogFilter): Promise<AsyncGenerator<LogRow[]>> {
      await writer.flush();
      const total = await repo.count(db, f);
      if (total > exportMax) {
        throw invalid(
          `符合条件的日志共 ${total} 条，超过单次导出上限 ${exportMax} 条，请缩小时间范围或增加筛选条件后再导出`,
        );
      }
      return (async function* pages() {
        let after: { time: number; id: number } | null = null;
        for (;;) {
          const rows = await repo.pageAfter(db, f, after, 1000);
          if (!rows.length) return;
          yield rows.map(rowOut);
          const last = rows[rows.length - 1]!;
          after = { time: Number(last.time), id: last.id };
          if (rows.length < 1000) return;
        }
      })();
    },

    /** The daily job: entries older than `retentionDays` go. Answers how many. */
    prune: (retentionDays: number, now = Date.now()) => pruneSystemLog(db, retentionDays, now),
  };
}
export type Syslog = ReturnType<typeof createSyslog>;

/**
 * The retention job, a plain function the scheduler calls (once a day; on several instances,
 * once for all): deletes entries older than `retentionDays` days before `now`.
 */
export function pruneSystemLog(db: Db, retentionDays: number, now = Date.now()): Promise<number> {
  return repo.pruneOlderThan(db, now - retentionDays * 86_400_000);
}
