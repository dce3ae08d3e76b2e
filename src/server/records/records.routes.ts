import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RecordDetail, RecordPage } from '../../shared/records/api';
import { Id } from '../../shared/api/fields';
import {
  dictKeysOf,
  f,
  listText,
  parseCall,
  plainValue,
  type Field,
  type RecordDef,
} from '../../shared/records/define';
import {
  IdQuery,
  createSchema,
  listSchema,
  transitionSchema,
  updateSchema,
} from '../../shared/records/schemas';
import { DONE } from '../plugins/envelope';
import { replayInstead } from '../plugins/idempotency';
import type { Syslog } from '../modules/syslog/syslog.service';
import { requireTokenHeader } from '../plugins/auth';
import type { RecordService } from './records.service';
import * as repo from './records.repo';
import type { Db } from '../db/index';
import { exportWorkbook, sendXlsx } from './xlsx';

/**
 * The HTTP side of the records engine: every call of every definition, registered from the
 * definition (its spec names and methods), validated with the definition's own schemas.
 *
 * The spec makes some writes GETs (`GET …/delete`, `GET …/publishOrCancel`) or DELETEs. A GET
 * write needs the `token` header like any write (the cookie alone never authorises a change);
 * each also answers POST at the same path, the one a client's outbox sends.
 */

type Handler = (req: FastifyRequest, input: Record<string, unknown>, reply: FastifyReply) => Promise<unknown>;

/**
 * A route's schema, built by the first request that is validated against it (or by the OpenAPI
 * document), not when the route is registered: with the fields' own schemas built on first use
 * too (shared/records/define.ts), the server starts without building about 500 schemas that
 * most runs never need (issue 25). zod's lazy keeps what it built.
 */
const later = (build: () => z.ZodType): z.ZodType => z.lazy(build);

export function recordRoutes(
  app: FastifyInstance,
  deps: { records: RecordService; defs: readonly RecordDef[]; db: Db; syslog?: Pick<Syslog, 'idViewed'> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { records, db } = deps;

  // An older caller's key (a field's `alias`) read as the field when the body or query lacks the
  // field (the list's filter takes it too); a call's record is the one whose base it is under.
  const aliasesOf = (url: string) => {
    const def = deps.defs.find((d) => url.startsWith(`${d.base}/`));
    return def
      ? Object.entries(def.fields).flatMap(([key, fd]) => (fd.alias ? [[fd.alias, key] as const] : []))
      : [];
  };
  function renameAliases(aliases: readonly (readonly [string, string])[], body: unknown) {
    if (!aliases.length || !body || typeof body !== 'object') return;
    const b = body as Record<string, unknown>;
    for (const [from, to] of aliases)
      if (from in b) {
        if (b[to] === undefined) b[to] = b[from];
        delete b[from];
      }
  }

  /**
   * One call: a GET reads its query; a GET that changes something also answers POST with a body;
   * POST reads the body; DELETE reads the query.
   *
   * No HEAD twin (`exposeHeadRoute: false`): a record's calls answer JSON or an export that only
   * a GET fetches, and Fastify's automatic HEAD for each of about 300 GETs was a third of the
   * server's routes, each one more node of the router built at every start (issue 25).
   */
  function call(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    schema: z.ZodType,
    summary: string,
    write: boolean,
    handler: Handler,
    answer?: z.ZodType,
  ) {
    const inQuery = method !== 'POST';
    const aliases = aliasesOf(url);
    r.route({
      method,
      url,
      exposeHeadRoute: false,
      schema: inQuery ? { querystring: schema } : { body: schema },
      config: { summary, answer, mutation: write && method === 'GET' ? true : undefined },
      preValidation: async (req) => renameAliases(aliases, inQuery ? req.query : req.body),
      handler: async (req, reply) => {
        if (write && method === 'GET') requireTokenHeader(req);
        return handler(req, (inQuery ? req.query : req.body) as Record<string, unknown>, reply);
      },
    });
    // The outbox sends every queued write as a POST: a GET or DELETE write has a POST twin.
    if (write && method !== 'POST')
      r.route({
        method: 'POST',
        url,
        schema: { body: schema },
        config: { summary: `${summary}（POST，可带 Idempotency-Key）` },
        preValidation: async (req) => renameAliases(aliases, req.body),
        handler: async (req, reply) => handler(req, req.body as Record<string, unknown>, reply),
      });
  }

  for (const def of deps.defs) {
    const at = (c: string) => {
      const { method, name } = parseCall(c);
      return { method, url: `${def.base}/${name}` };
    };
    const t = def.title;
    const c = def.calls;
    const masks = Object.entries(def.fields).filter(([, fd]) => fd.mask && fd.mask !== 'writersOnly');

    {
      const { method, url } = at(c.list);
      r.route({
        method,
        url,
        exposeHeadRoute: false,
        schema:
          method === 'POST'
            ? { body: later(() => listSchema(def)) }
            : { querystring: later(() => listSchema(def)) },
        config: { summary: `${t} · 列表`, answer: RecordPage },
        preValidation: async (req) => renameAliases(aliasesOf(url), method === 'POST' ? req.body : req.query),
        handler: async (req) =>
          records.list(def, req.user, (method === 'POST' ? req.body : req.query) as never),
      });
    }
    {
      const { method, url } = at(c.detail);
      call(
        method,
        url,
        IdQuery,
        `${t} · 详情`,
        false,
        async (req, q) => {
          const answer = await records.detail(def, req.user, q.id as number);
          // Personal data shown whole (a writer's detail) is written to the system log
          // (records-design §1): each view of a full ID number or phone, by whom and of which row.
          const whole = masks.filter(([k]) => {
            const v = answer.record[k];
            return typeof v === 'string' && v !== '' && !v.includes('*');
          });
          if (whole.length)
            deps.syslog?.idViewed(req, {
              module: t,
              table: def.table,
              id: q.id as number,
              params: { fields: whole.map(([, fd]) => fd.label) },
            });
          return answer;
        },
        RecordDetail,
      );
    }
    if (c.create && c.create === c.update) {
      // One call for both (the spec's `POST save` of business data): with an id it changes that
      // row, without one it adds a row.
      const { method, url } = at(c.create);
      call(
        method,
        url,
        later(() => createSchema(def).extend({ id: Id.optional() })),
        `${t} · 保存（带 id 为修改，不带为新增）`,
        true,
        async (req, b) => {
          if (typeof b.id !== 'number') return records.create(def, req.user, b);
          await records.update(def, req.user, b as Record<string, unknown> & { id: number });
          return { id: b.id };
        },
        z.object({ id: z.number() }),
      );
    } else if (c.create) {
      const { method, url } = at(c.create);
      call(
        method,
        url,
        later(() => createSchema(def)),
        `${t} · 新增`,
        true,
        async (req, b) => records.create(def, req.user, b),
        z.object({ id: z.number() }),
      );
    }
    if (c.update && c.update !== c.create) {
      const { method, url } = at(c.update);
      call(
        method,
        url,
        later(() => updateSchema(def)),
        `${t} · 修改`,
        true,
        async (req, b) => {
          await records.update(def, req.user, b as Record<string, unknown> & { id: number });
          return DONE;
        },
      );
    }
    if (c.remove) {
      const { method, url } = at(c.remove);
      call(method, url, IdQuery, `${t} · 删除`, true, async (req, q) => {
        await records.remove(def, req.user, q.id as number);
        return DONE;
      });
    }
    for (const dir of ['up', 'down'] as const) {
      const spec = c[dir];
      if (!spec) continue;
      const { method, url } = at(spec);
      call(method, url, IdQuery, `${t} · ${dir === 'up' ? '上移' : '下移'}`, true, async (req, q) => {
        await records.move(def, req.user, q.id as number, dir);
        return DONE;
      });
    }
    // A status moved through `update` (statusByUpdate) has no transition calls of its own.
    for (const [key, tr] of Object.entries(def.statusByUpdate ? {} : (def.transitions ?? {}))) {
      const { method, url } = at(tr.call ?? `POST ${key}`);
      call(
        method,
        url,
        later(() => transitionSchema(tr)),
        `${t} · ${tr.label}`,
        true,
        async (req, b) => {
          const answer = await records.transition(
            def,
            key,
            req.user,
            b as Record<string, unknown> & { id: number },
            (replay) => replayInstead(req, replay),
          );
          return answer ?? DONE;
        },
      );
    }
    if (c.load && def.singleton) {
      const { method, url } = at(c.load);
      const scope = def.singleton.scope;
      const schema = later(() => z.object(scope ? { [scope]: def.fields[scope]!.schema } : {}));
      call(
        method,
        url,
        schema,
        `${t} · 读取`,
        false,
        async (req, q) => records.load(def, req.user, q),
        RecordDetail,
      );
    }
    if (c.save && def.singleton) {
      const { method, url } = at(c.save);
      call(
        method,
        url,
        later(() => createSchema(def)),
        `${t} · 保存`,
        true,
        async (req, b) => records.save(def, req.user, b),
        z.object({ id: z.number() }),
      );
    }
    if (c.export) {
      const { method, url } = at(c.export);
      // A record with personal data exports it masked unless 含证件号 (`whole=1`) is asked for,
      // by a writer; that export is written to the system log (records-design §1).
      const schema = later(() => {
        const base = listSchema(def).omit({ currentPage: true, pageCount: true });
        return masks.length ? base.extend({ whole: f.bool('含证件号').schema }) : base;
      });
      r.route({
        method,
        url,
        exposeHeadRoute: false,
        schema: method === 'POST' ? { body: schema } : { querystring: schema },
        config: { summary: `${t} · 导出（xlsx）` },
        handler: async (req, reply) => {
          const q = (method === 'POST' ? req.body : req.query) as Record<string, unknown>;
          const whole = q.whole === true;
          const page = await records.exportRows(def, req.user, q as never, { whole });
          if (whole)
            deps.syslog?.idViewed(req, {
              module: t,
              table: def.table,
              id: 'export',
              params: { export: true, rows: page.list.length, fields: masks.map(([, fd]) => fd.label) },
            });
          const body = await exportWorkbook(t, ...(await exportTable(db, def, page)));
          return sendXlsx(reply, `${t}.xlsx`, body);
        },
      });
    }
  }
}

/** The export's columns and rows: every field, values as people read them. */
async function exportTable(db: Db, def: RecordDef, page: RecordPage) {
  const fields = Object.entries(def.fields).filter(([, fd]) => fd.kind !== 'rich');
  const items = await repo.dictItems(db, dictKeysOf(def), false);
  const columns = fields.map(([key, fd]) => ({
    key,
    header: fd.label,
    width: fd.kind === 'users' || fd.kind === 'refs' || fd.kind === 'list' ? 24 : undefined,
  }));
  const user = (id: unknown) => page.names.users[String(id)] ?? '';
  const word = (fd: Field, v: unknown): string => {
    if (fd.dict) return items.find((i) => i.dict_key === fd.dict && i.value === v)?.label ?? String(v ?? '');
    if (fd.kind === 'user') return user(v);
    if (fd.kind === 'users') return ((v as number[]) ?? []).map(user).join('、');
    if (fd.kind === 'dept') return page.names.depts[String(v)] ?? '';
    if (fd.kind === 'ref') return page.names.refs?.[fd.ref!.record]?.[String(v)] ?? '';
    if (fd.kind === 'refs')
      return ((v as number[]) ?? [])
        .map((id) => page.names.refs?.[fd.ref!.record]?.[String(id)] ?? '')
        .join('、');
    if (fd.kind === 'file' || fd.kind === 'image')
      return ((v as number[]) ?? []).map((id) => page.names.files?.[String(id)]?.attName ?? '').join('、');
    if (fd.kind === 'list') return listText(fd, v, word);
    if (fd.kind === 'datetime' && typeof v === 'number') {
      const iso = new Date(v + 8 * 3600_000).toISOString();
      return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
    }
    return plainValue(fd, v);
  };
  const rows = page.list.map((row) => fields.map(([key, fd]) => word(fd, row[key])));
  return [columns, rows] as const;
}
