import type { z } from 'zod';
import { ErrorCode } from '../../shared/api/envelope';
import type { RecordDetail, RecordNames, RecordPage, StatusLine } from '../../shared/records/api';
import {
  STALE_STATUS,
  formFields,
  statusLabel,
  type FieldProblem,
  type RecordDef,
  type Row,
  type Words,
  type listSchema,
} from '../../shared/records/define';
import { maskIdNumber, maskPhone } from '../../shared/records/validators';
import type { Db } from '../db/index';
import { AppError, forbidden, invalid, notFound } from '../errors';
import type { Access } from '../modules/auth/access';
import type { SessionUser } from '../modules/auth/auth.service';
import { imageIdsIn, sanitizeRichHtml } from '../modules/attach/rich-html';
import type { AttachService } from '../modules/attach/attach.service';
import * as repo from './records.repo';
import type { Cond } from './records.repo';

/**
 * The records engine's rules, the same for every record (ARCHITECTURE.md §9): who may read and
 * write (menu grants, and the rows a reader without the write grant sees, added in the
 * repository), validation beyond the schema (dictionary values, people and departments that
 * exist, unique keys, owners, trees, the record's own peer rules), status transitions that
 * refuse a stale status and write bsStatusLog, sort moves, and deletes refused while rows hang
 * on the row. A record's own rules are functions in its definition; nothing here names a record.
 */

type ListQuery = z.output<ReturnType<typeof listSchema>>;
const GONE = '该记录不存在或已被删除，请刷新后重试';

/** A refused write: the first problem is the message, every problem is in `result.fields`. */
export function fieldError(problems: readonly FieldProblem[]): AppError {
  const fields: Record<string, string> = {};
  for (const p of problems) fields[p.field] ??= p.message;
  return new AppError(ErrorCode.invalid, problems[0]!.message, 200, { fields });
}

function userIdsOf(def: RecordDef, rows: readonly Record<string, unknown>[]): number[] {
  const ids = new Set<number>();
  for (const r of rows) {
    if (typeof r.createBy === 'number') ids.add(r.createBy);
    for (const [key, fd] of Object.entries(def.fields)) {
      const v = r[key];
      if (fd.kind === 'user' && typeof v === 'number') ids.add(v);
      if (fd.kind === 'users' && Array.isArray(v)) for (const id of v) ids.add(id as number);
    }
  }
  return [...ids];
}

function deptIdsOf(def: RecordDef, rows: readonly Record<string, unknown>[]): number[] {
  const ids = new Set<number>();
  for (const r of rows)
    for (const [key, fd] of Object.entries(def.fields))
      if (fd.kind === 'dept' && typeof r[key] === 'number') ids.add(r[key] as number);
  return [...ids];
}

/**
 * Dictionary items and names, each read once: per write, or once for a whole import (a file of
 * 2,000 rows would otherwise read the same dictionaries and people 2,000 times).
 */
export function createLookups(q: Db) {
  const items = new Map<string, Awaited<ReturnType<typeof repo.dictItems>>>();
  const users = new Map<number, { id: number; name: string; enabled: boolean }>();
  const depts = new Map<number, { id: number; name: string }>();
  return {
    async items(keys: readonly string[]) {
      const missing = [...new Set(keys)].filter((k) => !items.has(k));
      if (missing.length) {
        const rows = await repo.dictItems(q, missing, false);
        for (const k of missing)
          items.set(
            k,
            rows.filter((r) => r.dict_key === k),
          );
      }
      return keys.flatMap((k) => items.get(k) ?? []);
    },
    async names(userIds: readonly number[], deptIds: readonly number[]) {
      const n = await repo.names(
        q,
        [...new Set(userIds)].filter((id) => !users.has(id)),
        [...new Set(deptIds)].filter((id) => !depts.has(id)),
      );
      for (const u of n.users) users.set(u.id, u);
      for (const d of n.depts) depts.set(d.id, d);
      return {
        users: userIds.flatMap((id) => (users.has(id) ? [users.get(id)!] : [])),
        depts: deptIds.flatMap((id) => (depts.has(id) ? [depts.get(id)!] : [])),
      };
    },
  };
}
export type Lookups = ReturnType<typeof createLookups>;

export function createRecordService(deps: {
  db: Db;
  access: Access;
  records: readonly RecordDef[];
  /** Binds the images of rich text to their record (attach tables named by the record). */
  attach?: Pick<AttachService, 'bindInTx' | 'dropBytes'>;
  now?: () => number;
}) {
  const { db, access } = deps;
  const now = deps.now ?? Date.now;
  const byName = new Map(deps.records.map((r) => [r.name, r]));

  async function mayWrite(def: RecordDef, user: SessionUser) {
    return access.can(user, def.access.write);
  }

  /** Read access, and the conditions that keep a reader to the rows they may see. */
  async function readScope(def: RecordDef, user: SessionUser): Promise<{ conds: Cond[]; writer: boolean }> {
    const writer = await mayWrite(def, user);
    if (!writer && def.access.read !== null && !(await access.can(user, def.access.read)))
      throw forbidden('无权限查看，请联系管理员开通');
    const sees = def.access.readerSees;
    return { writer, conds: writer || !sees ? [] : [{ field: sees.field, op: 'in', value: sees.values }] };
  }

  async function requireWrite(def: RecordDef, user: SessionUser, grant = def.access.write) {
    await access.require(user, grant);
  }

  async function namesFor(def: RecordDef, rows: readonly Record<string, unknown>[]): Promise<RecordNames> {
    const n = await repo.names(db, userIdsOf(def, rows), deptIdsOf(def, rows));
    return {
      users: Object.fromEntries(n.users.map((u) => [String(u.id), u.name])),
      depts: Object.fromEntries(n.depts.map((d) => [String(d.id), d.name])),
    };
  }

  /** Personal data masked (records-design §1): always in lists, in the detail for non-writers. */
  function masked(def: RecordDef, row: Row): Row {
    const out: Row = { ...row };
    for (const [key, fd] of Object.entries(def.fields)) {
      const v = out[key];
      if (typeof v !== 'string' || !v) continue;
      if (fd.mask === 'phone') out[key] = maskPhone(v);
      if (fd.mask === 'idNumber') out[key] = maskIdNumber(v);
    }
    return out;
  }

  /** The words a rule's message names values with: dictionary labels, status words, names. */
  async function wordsFor(
    def: RecordDef,
    rows: readonly Record<string, unknown>[],
    look: Lookups = createLookups(db),
  ): Promise<Words> {
    const keys = Object.values(def.fields).flatMap((fd) => (fd.dict ? [fd.dict] : []));
    const items = await look.items(keys);
    const { users, depts } = await look.names(userIdsOf(def, rows), deptIdsOf(def, rows));
    return (field, value) => {
      const fd = def.fields[field];
      if (!fd) return String(value ?? '');
      if (fd.dict)
        return items.find((i) => i.dict_key === fd.dict && i.value === value)?.label ?? String(value);
      if (fd.kind === 'status') return statusLabel(def, value);
      if (fd.kind === 'user' || fd.kind === 'users')
        return users.find((u) => u.id === value)?.name ?? `#${String(value)}`;
      if (fd.kind === 'dept') return depts.find((d) => d.id === value)?.name ?? `#${String(value)}`;
      return String(value ?? '');
    };
  }

  /**
   * Everything a write must pass besides its schema, checked in the write's transaction, as a
   * list of problems (the import wants all of them; a form shows each at its field).
   * `values` are the form fields after the schema; `before` the stored row of an update.
   */
  async function problemsOf(
    q: Db,
    def: RecordDef,
    values: Record<string, unknown>,
    before?: Row,
    look: Lookups = createLookups(q),
  ): Promise<FieldProblem[]> {
    const problems: FieldProblem[] = [];
    const row: Record<string, unknown> = { ...(before ?? {}), ...values };
    const changed = (key: string) => !before || JSON.stringify(before[key]) !== JSON.stringify(row[key]);

    const own = def.check?.(row);
    if (own) problems.push(own);
    if (before && def.canUpdate) {
      const p = def.canUpdate(before, row);
      if (p) problems.push(p);
    }

    // Dictionary values: an enabled item; a value kept unchanged may have been disabled since.
    const dictFields = Object.entries(def.fields).filter(([k, fd]) => fd.dict && row[k] && changed(k));
    if (dictFields.length) {
      const items = (await look.items([...new Set(dictFields.map(([, fd]) => fd.dict!))])).filter(
        (i) => Number(i.status) === 1,
      );
      for (const [key, fd] of dictFields) {
        const options = items.filter((i) => i.dict_key === fd.dict);
        if (!options.some((i) => i.value === row[key]))
          problems.push({
            field: key,
            message: `${fd.label}不正确，可选：${options
              .map((o) => `${o.value} ${o.label}`)
              .slice(0, 12)
              .join('、')}`,
          });
      }
    }

    // People and departments that exist (people enabled, unless kept unchanged).
    const people = Object.entries(def.fields).filter(
      ([k, fd]) => (fd.kind === 'user' || fd.kind === 'users') && changed(k),
    );
    const depts = Object.entries(def.fields).filter(
      ([k, fd]) => fd.kind === 'dept' && changed(k) && row[k] != null,
    );
    const wantedUsers = people.flatMap(([k]) =>
      Array.isArray(row[k]) ? (row[k] as number[]) : row[k] == null ? [] : [row[k] as number],
    );
    const wantedDepts = depts.map(([k]) => row[k] as number);
    if (wantedUsers.length || wantedDepts.length) {
      const n = await look.names(wantedUsers, wantedDepts);
      const enabled = new Set(n.users.filter((u) => u.enabled).map((u) => u.id));
      const deptSet = new Set(n.depts.map((d) => d.id));
      for (const [key, fd] of people) {
        const ids = Array.isArray(row[key])
          ? (row[key] as number[])
          : row[key] == null
            ? []
            : [row[key] as number];
        if (ids.some((id) => !enabled.has(id)))
          problems.push({ field: key, message: `所选${fd.label}不存在或已停用，请重新选择` });
      }
      for (const [key, fd] of depts)
        if (!deptSet.has(row[key] as number))
          problems.push({ field: key, message: `所选${fd.label}不存在，请重新选择` });
    }

    // The owner a row belongs to, and the parent of a tree.
    if (def.belongsTo && row[def.belongsTo.field]) {
      const owner = byName.get(def.belongsTo.record)!;
      const n = await repo.count(q, owner, [
        { field: def.belongsTo.by, op: 'eq', value: row[def.belongsTo.field] },
      ]);
      if (n === 0)
        problems.push({
          field: def.belongsTo.field,
          message: `${def.fields[def.belongsTo.field]!.label}不存在，请刷新后重试`,
        });
    }
    if (def.tree && row[def.tree.field]) {
      const scope = def.tree.scope.map((k) => ({ field: k, op: 'eq' as const, value: row[k] }));
      const n = await repo.count(q, def, [
        ...scope,
        { field: def.tree.by, op: 'eq', value: row[def.tree.field] },
      ]);
      if (n === 0)
        problems.push({
          field: def.tree.field,
          message: `${def.fields[def.tree.field]!.label}“${String(row[def.tree.field])}”不存在`,
        });
    }

    // Unique keys: said at the key's last field (a unique index catches a race).
    for (const u of def.unique ?? []) {
      if (u.fields.some((k) => row[k] === undefined || row[k] === null || row[k] === '')) continue;
      const conds: Cond[] = u.fields.map((k) => ({ field: k, op: 'eq', value: row[k] }));
      if (before) conds.push({ field: 'id', op: 'ne', value: before.id });
      if ((await repo.count(q, def, conds)) > 0)
        problems.push({ field: u.fields[u.fields.length - 1]!, message: u.message });
    }

    // The record's own rules against its stored neighbours.
    if (!problems.length)
      for (const rule of def.rules ?? []) {
        const conds: Cond[] = Object.entries(rule.peers(row)).map(([field, values]) => ({
          field,
          op: 'in',
          value: values,
        }));
        if (before) conds.push({ field: 'id', op: 'ne', value: before.id });
        const peers = await repo.findAll(q, def, conds, 1000);
        const p = rule.check(row, peers, await wordsFor(def, [row, ...peers], look));
        if (p) problems.push(p);
      }
    return problems;
  }

  /** Form values as stored: rich text sanitised, optional fields left empty as their empty. */
  function clean(def: RecordDef, body: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, fd] of formFields(def)) {
      const v = body[key];
      out[key] =
        fd.kind === 'rich' && typeof v === 'string' ? sanitizeRichHtml(v) : v === undefined ? fd.empty : v;
    }
    return out;
  }

  const richKeys = (def: RecordDef) =>
    Object.entries(def.fields)
      .filter(([, fd]) => fd.kind === 'rich')
      .map(([k]) => k);

  /**
   * The images a record's rich text shows become its attachments (uploaded unbound by the
   * editor); images taken out are deleted. Answers the bytes to drop after the commit.
   */
  async function bindImages(
    q: Db,
    def: RecordDef,
    user: SessionUser,
    id: number,
    row: Record<string, unknown>,
  ) {
    const keys = richKeys(def);
    if (!keys.length || !deps.attach) return [];
    const ids = keys.flatMap((k) => imageIdsIn(String(row[k] ?? '')));
    return deps.attach.bindInTx(q, { user, table: def.name, recordId: id, ids });
  }

  async function insertChecked(
    q: Db,
    def: RecordDef,
    user: SessionUser,
    values: Record<string, unknown>,
    look?: Lookups,
  ) {
    const problems = await problemsOf(q, def, values, undefined, look);
    if (problems.length) return { problems };
    if (def.booking) {
      const { capacityTable, capacityField, quantityField } = def.booking;
      const taken = await repo.reserve(
        q,
        capacityTable,
        values[capacityField] as number,
        values[quantityField] as number,
      );
      if (!taken)
        return { problems: [{ field: capacityField, message: '名额不足或已停止预约，请选择其他场次' }] };
    }
    const t = now();
    const id = await repo.insert(q, def, values, user.id, t);
    const dropped = await bindImages(q, def, user, id, values);
    if (def.status) {
      const to = (values[def.status.field] ?? def.fields[def.status.field]!.initial) as number;
      await repo.logStatus(q, {
        table: def.table,
        recordId: id,
        action: 'create',
        from: null,
        to,
        operatorId: user.id,
        comment: '',
        time: t,
      });
    }
    return { id, dropped };
  }

  async function updateChecked(
    q: Db,
    def: RecordDef,
    user: SessionUser,
    before: Row,
    values: Record<string, unknown>,
    look?: Lookups,
  ) {
    const problems = await problemsOf(q, def, values, before, look);
    if (problems.length) return { problems };
    if ((await repo.update(q, def, before.id, values, user.id, now())) === 0) throw notFound(GONE);
    return { id: before.id, dropped: await bindImages(q, def, user, before.id, values) };
  }

  return {
    mayWrite,
    problemsOf,
    insertChecked,
    updateChecked,
    clean,
    wordsFor,
    namesFor,

    async list(def: RecordDef, user: SessionUser, query: ListQuery): Promise<RecordPage> {
      const { conds } = await readScope(def, user);
      const filters: Cond[] = [];
      let statusFilter: Cond | undefined;
      for (const [key, fd] of Object.entries(def.fields)) {
        if (fd.filter === 'range') {
          if (query[`${key}From`] !== undefined)
            filters.push({ field: key, op: 'gte', value: query[`${key}From`] });
          if (query[`${key}To`] !== undefined)
            filters.push({ field: key, op: 'lte', value: query[`${key}To`] });
        } else if (fd.filter && query[key] !== undefined) {
          const c: Cond =
            fd.filter === 'contains'
              ? { field: key, op: 'contains', value: query[key] as number }
              : { field: key, op: 'eq', value: query[key] };
          if (def.status?.field === key) statusFilter = c;
          else filters.push(c);
        }
      }
      const keywordFields = Object.entries(def.fields)
        .filter(([, fd]) => fd.keyword)
        .map(([k]) => k);
      if (typeof query.keyword === 'string' && query.keyword && keywordFields.length)
        filters.push({ op: 'keyword', fields: keywordFields, value: query.keyword });
      const order = [
        ...(typeof query.orderBy === 'string'
          ? [[query.orderBy, (query.order as 'asc' | 'desc') ?? 'asc'] as const]
          : []),
        ...def.order,
      ];
      const all = [...conds, ...filters, ...(statusFilter ? [statusFilter] : [])];
      const { rows, total } = await repo.list(db, def, all, order, {
        currentPage: query.currentPage as number,
        pageCount: query.pageCount as number,
      });
      // Rich text stays out of lists (it can be long); the detail has it.
      const rich = Object.entries(def.fields)
        .filter(([, fd]) => fd.kind === 'rich')
        .map(([k]) => k);
      const slim = (r: Row) => {
        const out = masked(def, r);
        for (const k of rich) delete out[k];
        return out;
      };
      const page: RecordPage = { list: rows.map(slim), total, names: await namesFor(def, rows) };
      if (def.status) {
        const counts = await repo.countBy(db, def, [...conds, ...filters], def.status.field);
        page.counts = counts.map((c) => ({ value: Number(c.value), count: c.count }));
      }
      return page;
    },

    async detail(def: RecordDef, user: SessionUser, id: number): Promise<RecordDetail> {
      const { conds, writer } = await readScope(def, user);
      const row = await repo.find(db, def, id, conds);
      if (!row) throw notFound(GONE);
      const lines = def.status ? await repo.statusLog(db, def.table, id) : [];
      const log: StatusLine[] = lines.map((l) => ({
        action: l.action,
        actionLabel: l.action === 'create' ? '新建' : (def.transitions?.[l.action]?.label ?? l.action),
        fromStatus: l.from_status === null ? null : Number(l.from_status),
        toStatus: Number(l.to_status),
        operatorId: l.operator_id === null ? null : Number(l.operator_id),
        operatorName: l.user_name ?? '',
        comment: l.comment,
        time: Number(l.time),
      }));
      return { record: writer ? row : masked(def, row), names: await namesFor(def, [row]), log };
    },

    async create(def: RecordDef, user: SessionUser, body: Record<string, unknown>) {
      await requireWrite(def, user);
      const values = clean(def, body);
      const r = await db.transaction().execute((trx) => insertChecked(trx, def, user, values));
      if ('problems' in r) throw fieldError(r.problems!);
      await deps.attach?.dropBytes(r.dropped);
      return { id: r.id };
    },

    async update(def: RecordDef, user: SessionUser, body: Record<string, unknown> & { id: number }) {
      await requireWrite(def, user);
      const values = clean(def, body);
      const r = await db.transaction().execute(async (trx) => {
        const before = await repo.find(trx, def, body.id);
        if (!before) throw notFound(GONE);
        return updateChecked(trx, def, user, before, values);
      });
      if ('problems' in r) throw fieldError(r.problems!);
      await deps.attach?.dropBytes(r.dropped);
    },

    async remove(def: RecordDef, user: SessionUser, id: number) {
      await requireWrite(def, user);
      let dropped: string[] = [];
      await db.transaction().execute(async (trx) => {
        const row = await repo.find(trx, def, id);
        if (!row) throw notFound(GONE);
        const why = def.canDelete?.(row);
        if (why) throw invalid(why);
        if (def.tree && row[def.tree.by]) {
          const scope = def.tree.scope.map((k) => ({ field: k, op: 'eq' as const, value: row[k] }));
          const n = await repo.count(trx, def, [
            ...scope,
            { field: def.tree.field, op: 'eq', value: row[def.tree.by] },
          ]);
          if (n) throw invalid(`“${def.describe(row)}”下还有 ${n} 个下级项，请先删除或移走它们`);
        }
        for (const child of deps.records.filter((r) => r.belongsTo?.record === def.name)) {
          const n = await repo.count(trx, child, [
            { field: child.belongsTo!.field, op: 'eq', value: row[child.belongsTo!.by] },
          ]);
          if (n) throw invalid(`“${def.describe(row)}”下还有 ${n} 个${child.title}，请先删除它们`);
        }
        if (def.booking && def.status && !def.booking.releasedAt.includes(row[def.status.field] as number))
          await repo.release(
            trx,
            def.booking.capacityTable,
            row[def.booking.capacityField] as number,
            row[def.booking.quantityField] as number,
          );
        await repo.remove(trx, def, id, user.id, now());
        // A deleted row's images go with it (a soft-deleted one keeps them, as it keeps its text).
        if (!def.softDelete) dropped = await bindImages(trx, def, user, id, {});
      });
      await deps.attach?.dropBytes(dropped);
    },

    /** A named status change: refused with 状态已变化，请刷新 when the row no longer holds `from`. */
    async transition(
      def: RecordDef,
      key: string,
      user: SessionUser,
      body: Record<string, unknown> & { id: number },
    ) {
      const t = def.transitions![key]!;
      await requireWrite(def, user, t.access);
      const field = def.status!.field;
      await db.transaction().execute(async (trx) => {
        const row = await repo.find(trx, def, body.id);
        if (!row) throw notFound(GONE);
        const from = row[field] as number;
        if (!t.from.includes(from)) throw invalid(STALE_STATUS);
        const why = t.guard?.(row, body);
        if (why) throw invalid(why);
        const time = now();
        const values = { ...(t.set?.(row, body, time) ?? {}), [field]: t.to };
        if ((await repo.moveStatus(trx, def, row.id, t.from, values, user.id, time)) === 0)
          throw invalid(STALE_STATUS);
        if (def.booking && def.booking.releasedAt.includes(t.to) && !def.booking.releasedAt.includes(from))
          await repo.release(
            trx,
            def.booking.capacityTable,
            row[def.booking.capacityField] as number,
            row[def.booking.quantityField] as number,
          );
        const comment =
          typeof body.reason === 'string'
            ? body.reason
            : typeof body.comment === 'string'
              ? body.comment
              : '';
        await repo.logStatus(trx, {
          table: def.table,
          recordId: row.id,
          action: key,
          from,
          to: t.to,
          operatorId: user.id,
          comment,
          time,
        });
      });
    },

    /** Moves a row one place up or down in its sort scope (swapping with its neighbour). */
    async move(def: RecordDef, user: SessionUser, id: number, dir: 'up' | 'down') {
      await requireWrite(def, user);
      const sort = def.sortable!;
      await db.transaction().execute(async (trx) => {
        const row = await repo.find(trx, def, id);
        if (!row) throw notFound(GONE);
        const scope: Cond[] = sort.scope.map((k) => ({ field: k, op: 'eq', value: row[k] }));
        const other = await repo.neighbour(trx, def, row, dir, scope);
        if (!other) throw invalid(dir === 'up' ? '已经排在最前面了' : '已经排在最后面了');
        const a = row[sort.field] ?? 0;
        const b = other[sort.field] ?? 0;
        if (a !== b) {
          await repo.update(trx, def, row.id, { [sort.field]: b }, user.id, now());
          await repo.update(trx, def, other.id, { [sort.field]: a }, user.id, now());
          return;
        }
        // Equal sort numbers: number the scope 10, 20, 30 … in its current order, then swap.
        const all = await repo.findAll(trx, def, scope);
        const order = all.map((r) => r.id);
        const i = order.indexOf(row.id);
        const j = order.indexOf(other.id);
        [order[i], order[j]] = [order[j]!, order[i]!];
        for (const [n, rid] of order.entries())
          await repo.update(trx, def, rid, { [sort.field]: (n + 1) * 10 }, user.id, now());
      });
    },

    /**
     * A singleton's row for its scope (records-design §2 D: one settings row per scope), or the
     * fields' starting values (id 0) while none is saved.
     */
    async load(def: RecordDef, user: SessionUser, query: Record<string, unknown>): Promise<RecordDetail> {
      await readScope(def, user);
      const scope = def.singleton?.scope;
      const conds: Cond[] = scope ? [{ field: scope, op: 'eq', value: query[scope] }] : [];
      const row = (await repo.findAll(db, def, conds, 1))[0];
      if (row) return { record: row, names: await namesFor(def, [row]), log: [] };
      const record: Record<string, unknown> = {
        id: 0,
        createTime: 0,
        createBy: null,
        updateTime: 0,
        updateBy: null,
      };
      for (const [key, fd] of Object.entries(def.fields)) record[key] = fd.initial ?? fd.empty;
      if (scope) record[scope] = query[scope];
      return { record: record as Row, names: { users: {}, depts: {} }, log: [] };
    },

    /** Saves a singleton's row for its scope: the first save creates it, later ones change it. */
    async save(def: RecordDef, user: SessionUser, body: Record<string, unknown>) {
      await requireWrite(def, user);
      const values = clean(def, body);
      const scope = def.singleton?.scope;
      const r = await db.transaction().execute(async (trx) => {
        const conds: Cond[] = scope ? [{ field: scope, op: 'eq', value: values[scope] }] : [];
        const before = (await repo.findAll(trx, def, conds, 1))[0];
        return before ? updateChecked(trx, def, user, before, values) : insertChecked(trx, def, user, values);
      });
      if ('problems' in r) throw fieldError(r.problems!);
      await deps.attach?.dropBytes(r.dropped);
      return { id: r.id };
    },

    /**
     * Appends a row to a log (records-design §2 E) from the server's own code: no rights, no
     * rules, no update or delete call exists for it. `actorId` is who did what is logged.
     */
    async append(def: RecordDef, values: Record<string, unknown>, actorId: number | null) {
      return repo.insert(db, def, values, actorId, now());
    },

    /** Removes a log's rows older than its retentionDays; answers how many went. */
    async prune(def: RecordDef) {
      if (!def.retentionDays) return 0;
      return repo.pruneOlderThan(db, def, now() - def.retentionDays * 86_400_000);
    },

    /** Every row the list's filters select (for the xlsx export), with names. */
    async exportRows(def: RecordDef, user: SessionUser, query: ListQuery) {
      const page = await this.list(def, user, { ...query, currentPage: 1, pageCount: 10_000 });
      return page;
    },

    /** Whether `user` may see row `id` (the attachments of its rich text follow the row). */
    async canRead(def: RecordDef, user: SessionUser, id: number) {
      try {
        const { conds } = await readScope(def, user);
        return Boolean(await repo.find(db, def, id, conds));
      } catch {
        return false;
      }
    },

    /** Whether row `id` is out for its readers (published, or a record without a publish state). */
    async isPublished(def: RecordDef, id: number) {
      const row = await repo.find(db, def, id);
      const sees = def.access.readerSees;
      return Boolean(row) && (!sees || sees.values.includes(row![sees.field]));
    },
  };
}
export type RecordService = ReturnType<typeof createRecordService>;
