import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DRIVE_PREFIX, MUSEUM_PREFIX, SESSION_EXPIRED_STATUS } from '../../../shared/api/envelope';
import type { LogAction } from '../../../shared/api/syslog';
import { classify } from './classify';
import { rowOf, whoOf, type Syslog, type Who } from './syslog.service';

/**
 * The capture hook of the system log: every API request is looked at once its answer has been
 * sent (onResponse), classified (classify.ts) and, when it is a write, a sign-in or sign-out, an
 * approval action, an export or a download through a share, queued for the writer with who,
 * where from, what, the redacted parameters, the result and the time taken. Nothing here waits
 * on the database or throws into a request: the answer is already on its way when the entry is
 * made, and a failure to make one is reported in the server's log.
 *
 * A route that knows more than its path says (the record it created, another target) adds it
 * with `noteAudit(req, …)`; what happens outside any write call (a full ID number shown) is
 * written with `app.audit.idViewed(req, …)` / `app.audit.record(req, …)`.
 */

/** What a route adds to its own entry. */
export interface AuditNote {
  action?: LogAction;
  module?: string;
  table?: string;
  targetId?: string | number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The system log, for modules that write entries themselves (syslog.service.ts). */
    audit: Syslog;
  }
  interface FastifyRequest {
    auditNote: AuditNote | null;
    /** The answer's JSON text (small ones only), read for the result after it is sent. */
    auditPayload: string | null;
    /** A multipart request's fields as the multipart parser collected them. */
    auditForm: Record<string, unknown> | null;
  }
}

/** Adds to the entry this request will make (a created record's id, a more exact target). */
export function noteAudit(req: FastifyRequest, note: AuditNote): void {
  req.auditNote = { ...req.auditNote, ...note };
}

/** Answers longer than this are not read for their result (lists; nothing logged answers so much). */
const ANSWER_MAX = 64 * 1024;

interface Answer {
  success: boolean;
  message: string;
  data: unknown;
}

function answerOf(payload: string | null): Answer | null {
  if (!payload || payload[0] !== '{') return null;
  try {
    const a = JSON.parse(payload) as Record<string, unknown>;
    if (typeof a.success !== 'boolean') return null;
    return {
      success: a.success,
      message: typeof a.message === 'string' ? a.message : '',
      data: a.data ?? a.result ?? null,
    };
  } catch {
    return null;
  }
}

/** Keys that name what a call acts on, most telling first; then any other `…Id`/`…Ids` key. */
const TARGET_KEYS = [
  'id',
  'userFileId',
  'userFileIds',
  'files',
  'actvityId',
  'kidId',
  'taskId',
  'blockId',
  'projectId',
  'roleId',
  'userId',
  'deptId',
  'noticeId',
  'cooperationId',
  'attachmentId',
  'templateId',
  'recoveryFileId',
  'recoveryFileIds',
  'commentId',
  'uploadId',
];

function idText(v: unknown): string | null {
  if (typeof v === 'string' && v.startsWith('[')) {
    // The spec's lists as JSON text: '[{"userFileId":5}]'.
    try {
      return idText(JSON.parse(v));
    } catch {
      return null;
    }
  }
  if (typeof v === 'number' || (typeof v === 'string' && v !== '' && v.length <= 200)) return String(v);
  if (Array.isArray(v)) {
    const ids = v
      .map((x) =>
        x && typeof x === 'object' ? Object.values(x as Record<string, unknown>).find((y) => idText(y)) : x,
      )
      .map(idText)
      .filter((x): x is string => x !== null);
    return ids.length ? ids.join(',') : null;
  }
  return null;
}

/** The id an answer names: a created record's (`{id}`, `{userFileId}`, a bare number). */
function answerId(data: unknown): string | null {
  if (typeof data === 'number') return String(data);
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const d = data as Record<string, unknown>;
    if (typeof d.id === 'number') return String(d.id);
    for (const [k, v] of Object.entries(d)) if (/Id$/.test(k) && typeof v === 'number') return String(v);
    // A share is named by its link's batch number.
    if (typeof d.shareBatchNum === 'string') return d.shareBatchNum;
  }
  return null;
}

/**
 * The id a call acts on. A creation names the new record in its answer, so that comes first
 * (its parameters name only where it goes: parentId, filePath); any other call names its record
 * in its parameters (the known id keys, then any other `…Id`/`…Ids`), else in its answer.
 */
export function targetOf(params: Record<string, unknown>, data: unknown, created: boolean): string | null {
  if (created) {
    const made = answerId(data);
    if (made) return made;
  }
  for (const k of TARGET_KEYS) {
    const t = idText(params[k]);
    if (t) return t;
  }
  for (const [k, v] of Object.entries(params)) {
    if (/Ids?$/.test(k)) {
      const t = idText(v);
      if (t) return t;
    }
  }
  return answerId(data);
}

/** Multipart fields as plain values; a file part is its name, never its bytes. */
function formValues(form: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(form)) {
    const parts = (Array.isArray(v) ? v : [v]) as { type?: string; value?: unknown; filename?: string }[];
    const values = parts.map((p) => (p?.type === 'file' ? `[文件] ${p.filename ?? ''}` : p?.value));
    out[k] = values.length === 1 ? values[0] : values;
  }
  return out;
}

/** The request's parameters: query, then body (JSON, form-encoded or multipart fields). */
function paramsOf(req: FastifyRequest): Record<string, unknown> {
  const q = req.query && typeof req.query === 'object' ? (req.query as Record<string, unknown>) : {};
  const b: unknown = req.auditForm ? formValues(req.auditForm) : req.body;
  if (b === undefined || b === null) return { ...q };
  if (typeof b === 'object' && !Array.isArray(b)) {
    const proto = Object.getPrototypeOf(b) as unknown;
    // A raw body (upload chunks, images) is bytes: never kept.
    if (proto !== Object.prototype && proto !== null) return { ...q };
    return { ...q, ...(b as Record<string, unknown>) };
  }
  return { ...q, body: typeof b === 'string' ? `[正文 ${b.length} 字]` : b };
}

const isApi = (url: string) => url.startsWith(MUSEUM_PREFIX) || url.startsWith(DRIVE_PREFIX);

/** The entry of one answered request, or null when it is not logged. */
function entryOf(req: FastifyRequest, reply: FastifyReply) {
  const route = req.routeOptions.url;
  if (!route || !isApi(route)) return null;
  const status = reply.statusCode;
  // Not run at all: refused by the flood guard (a flood must not fill the log) or for want of a
  // session (nothing was done, and nobody to name); a replay of an earlier write changes nothing.
  if (status === 429 || status === SESSION_EXPIRED_STATUS) return null;
  if (reply.getHeader('idempotent-replay')) return null;
  const cfg = req.routeOptions.config;
  const kind = classify({
    method: req.method,
    route,
    query: req.query as Record<string, unknown> | undefined,
    body: req.body,
    mutation: Boolean(cfg.mutation),
    audit: cfg.audit,
  });
  const note = req.auditNote;
  if (!kind && !note?.action) return null;

  const answer = answerOf(req.auditPayload);
  const ok = answer ? answer.success : status < 400;
  if (kind?.onlyWhenDone && ok && (answer?.data as { done?: unknown } | null)?.done !== true) return null;

  const params = paramsOf(req);
  let who: Who = whoOf(req);
  let action = note?.action ?? kind!.action;
  let targetId: string | number | null = note?.targetId ?? targetOf(params, answer?.data, action === '新增');
  if (action === '登录') {
    // Nobody is signed in yet: the answer names the person, or the body the account typed.
    const r = answer?.data as { userId?: unknown; userName?: unknown } | null;
    const typed = typeof params.username === 'string' ? params.username : '';
    who = ok
      ? { ...who, userId: Number(r?.userId) || null, userName: String(r?.userName ?? typed) }
      : { ...who, userName: typed };
    targetId = ok ? (who.userId ?? null) : null;
    if (!ok) action = '登录失败';
  }
  if (action === '登出') targetId = who.userId;
  const elapsed = reply.elapsedTime;
  return rowOf(who, {
    action,
    module: note?.module ?? kind?.module ?? '其他',
    table: note?.table ?? kind?.table ?? null,
    targetId,
    method: req.method,
    path: req.url.split('?')[0] ?? '',
    params,
    result: ok ? 1 : 0,
    errorMessage: ok ? null : answer?.message || `HTTP ${status}`,
    time: Math.round(Date.now() - elapsed),
    durationMs: elapsed,
  });
}

/**
 * Registers the capture hooks on the whole server (fastify-plugin: not encapsulated) and makes
 * `app.audit` available to every module. Register it before the modules' routes.
 */
export const syslogPlugin = fp(async function syslogPlugin(app: FastifyInstance, opts: { syslog: Syslog }) {
  const { syslog } = opts;
  app.decorate('audit', syslog);
  app.decorateRequest('auditNote', null);
  app.decorateRequest('auditPayload', null);
  app.decorateRequest('auditForm', null);

  // A multipart form is read by the route itself as a stream; the parts it reads carry the
  // fields collected so far (`part.fields`), which the entry reads once the answer is sent.
  app.addHook('preHandler', (req, _reply, done) => {
    if (req.method !== 'GET' && req.isMultipart?.()) {
      const keep = <T>(part: T): T => {
        const fields = (part as { fields?: Record<string, unknown> } | undefined)?.fields;
        if (fields) req.auditForm = fields;
        return part;
      };
      const file = req.file.bind(req);
      const files = req.files.bind(req);
      const parts = req.parts.bind(req);
      req.file = (async (...a: Parameters<typeof file>) => keep(await file(...a))) as typeof req.file;
      req.files = async function* (...a: Parameters<typeof files>) {
        for await (const p of files(...a)) yield keep(p);
      } as typeof req.files;
      req.parts = async function* (...a: Parameters<typeof parts>) {
        for await (const p of parts(...a)) yield keep(p);
      } as typeof req.parts;
    }
    done();
  });

  app.addHook('onSend', (req, _reply, payload, done) => {
    if (typeof payload === 'string' && payload.length <= ANSWER_MAX) req.auditPayload = payload;
    done(null, payload);
  });

  app.addHook('onResponse', (req, reply, done) => {
    try {
      const row = entryOf(req, reply);
      if (row) syslog.writer.push(row);
    } catch (err) {
      req.log.error({ err }, 'system log entry not made');
    }
    done();
  });

  app.addHook('onClose', async () => syslog.writer.close());
});
